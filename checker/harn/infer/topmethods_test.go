package infer_test

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/checker/harn/infer"
	"github.com/harnlang/harn-check/lang/harn/builtins"
	"github.com/harnlang/harn-check/lang/harn/types"
)

// TestTopMethodsTyped: the checker types the 60 methods most used in
// upstream Harn's conformance programs (the list of
// lang/harn/builtins' TestConformanceTopMethods) from the builtin table:
// a value of the kind they are called on there, as the checker types it
// (string, list, dict, and the set and iterator that set(...) and
// iter(...) return), has that kind's methods, and the table has an entry
// for each.
func TestTopMethodsTyped(t *testing.T) {
	resultOf := func(name string) types.Type { return builtins.Lookup(name).Signature().Result }
	receivers := map[string]types.Type{
		"string": types.StringType,
		"list":   &types.List{Elem: types.IntType},
		"dict":   &types.Dict{Key: types.StringType, Value: types.IntType},
		"set":    resultOf("set"),
		"iter":   resultOf("iter"),
	}
	top := []struct{ kind, names string }{
		{"string", "contains trim count ends_with starts_with split len repeat upper char_at index_of lower replace chars empty"},
		{"list", "contains to_list filter any map find count unique first last take all enumerate len sum chunks skip zip index_of every find_index min none push reduce remove reverse sort window chunk compact each_cons flat_map for_each group_by"},
		{"dict", "get has keys entries map_values rekey remove"},
		{"set", "add is_disjoint difference intersect is_subset"},
		{"iter", "next chain windows"},
	}
	typed := map[string]bool{}
	for _, k := range top {
		if got := infer.MethodKind(receivers[k.kind]); got != k.kind {
			t.Errorf("a %s value (%s) has the methods of %q", k.kind, types.Describe(receivers[k.kind]), got)
			continue
		}
		for _, name := range strings.Fields(k.names) {
			if builtins.LookupMethod(k.kind, name) == nil {
				t.Errorf("no table entry for %s.%s", k.kind, name)
				continue
			}
			typed[name] = true
		}
	}
	if len(typed) != 60 {
		t.Errorf("%d of the 60 methods typed from the table", len(typed))
	}
}
