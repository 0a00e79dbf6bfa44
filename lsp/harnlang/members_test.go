package harnlang

import (
	"slices"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/lang/harn/types"
	"github.com/harnlang/harn-check/lsp/features"
)

func TestMembersOf(t *testing.T) {
	rec := func(kind string, fields ...types.Field) *types.Record {
		return types.NewRecord(append([]types.Field{{Name: "kind", Type: types.StringLit(kind)}}, fields...)...)
	}
	ok := rec("ok", types.Field{Name: "value", Type: types.IntType}, types.Field{Name: "note", Type: types.StringType})
	failed := rec("failed", types.Field{Name: "note", Type: types.StringType}, types.Field{Name: "error", Type: types.StringType})
	for _, tc := range []struct {
		name string
		t    types.Type
		// want lists labels in the order offered; narrow the ones marked as
		// variant-only; kinds maps a label to its completion kind.
		want   []string
		narrow []string
		kinds  map[string]features.CompletionKind
	}{
		{"record fields in declared order", types.NewRecord(types.Field{Name: "b", Type: types.IntType}, types.Field{Name: "a", Type: types.StringType}),
			[]string{"b", "a"}, nil, map[string]features.CompletionKind{"a": features.CompletionField}},
		{"optional record: nil dropped", types.Optional(types.NewRecord(types.Field{Name: "a", Type: types.IntType})),
			[]string{"a"}, nil, nil},
		{"union: common fields first, then variant-only", types.NewUnion(ok, failed),
			[]string{"kind", "note", "value", "error"}, []string{"value", "error"}, nil},
		{"string methods and properties", types.StringType,
			[]string{"count", "empty", "contains"}, nil,
			map[string]features.CompletionKind{"count": features.CompletionProperty, "trim": features.CompletionMethod}},
		{"list members", &types.List{Elem: types.IntType},
			[]string{"count", "empty", "first", "last", "all"}, nil,
			map[string]features.CompletionKind{"map": features.CompletionMethod, "first": features.CompletionProperty}},
		{"dict members", &types.Dict{Key: types.StringType, Value: types.IntType},
			[]string{"count", "empty", "entries"}, nil, map[string]features.CompletionKind{"keys": features.CompletionMethod}},
		{"HarnessLlm methods", stdlib.Predicate().Functions["evaluation_windows"].Params[0].Type,
			[]string{stdlib.MethodEstimateTokens, stdlib.MethodEvaluate, stdlib.MethodEvaluatePredicate, stdlib.MethodEvaluateRequest}, nil,
			map[string]features.CompletionKind{stdlib.MethodEvaluate: features.CompletionMethod}},
		{"int: nothing", types.IntType, nil, nil, nil},
		{"any: nothing", types.AnyType, nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items := membersOf(tc.t)
			var got []string
			byLabel := map[string]features.CompletionItem{}
			for _, it := range items {
				got = append(got, it.Label)
				byLabel[it.Label] = it
			}
			if len(got) < len(tc.want) || !slices.Equal(got[:len(tc.want)], tc.want) {
				t.Errorf("labels %v, want them to start with %v", got, tc.want)
			}
			if tc.want == nil && len(got) != 0 {
				t.Errorf("want nothing, got %v", got)
			}
			for _, it := range items {
				marked := strings.Contains(it.Detail, "narrow first")
				if marked != slices.Contains(tc.narrow, it.Label) {
					t.Errorf("%s: marked as variant-only = %v (detail %q)", it.Label, marked, it.Detail)
				}
			}
			for label, k := range tc.kinds {
				if it, ok := byLabel[label]; !ok || it.Kind != k {
					t.Errorf("%s: kind %v, want %v (present %v)", label, it.Kind, k, ok)
				}
			}
		})
	}
}
