package harnlang

import (
	"context"
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
			[]string{"count", "empty", "bytes", "capitalize"}, nil,
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

// TestKindMemberSignatureAndHover: a method call on a string, list or
// dict gets the builtin table's signature help (an alias resolving to
// its entry) and its name the table's signature and doc on hover; a
// property read keeps its type hover.
func TestKindMemberSignatureAndHover(t *testing.T) {
	f, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "fn f(xs: list<int>, s: string, d: dict<string, int>) {\n  log(xs.take(2))\n  log(s.strip())\n  log(s.pad_left(3, \"0\"))\n  log(d.get(\"a\", 1))\n  log(xs.count)\n}\n"
	for _, tc := range []struct {
		cursor, label string
		active        int
	}{
		{"xs.take(", "list.take(n: int) -> list<T>", 0},
		{"s.strip(", "string.trim() -> string", 0},
		{"s.pad_left(3, ", "string.pad_left(width?: int, pad?: string) -> string", 1},
		{"d.get(\"a\", ", "dict.get(key?: any, fallback?: any) -> any", 1},
	} {
		h, err := f.SignatureHelp(context.Background(), snapshot(src), strings.Index(src, tc.cursor)+len(tc.cursor))
		if err != nil {
			t.Fatal(err)
		}
		if h == nil || len(h.Signatures) != 1 {
			t.Errorf("%s: got %+v", tc.cursor, h)
			continue
		}
		if h.Signatures[0].Label != tc.label || h.ActiveParameter != tc.active {
			t.Errorf("%s: got %q active %d, want %q active %d", tc.cursor, h.Signatures[0].Label, h.ActiveParameter, tc.label, tc.active)
		}
	}
	for _, tc := range []struct{ at, want string }{
		{"take(2)", "list.take(n: int) -> list<T>"},
		{"strip()", "Also called strip"},
		{"count)", "type `int`"},
	} {
		h, err := f.Hover(context.Background(), snapshot(src), strings.Index(src, tc.at)+1)
		if err != nil {
			t.Fatal(err)
		}
		if h == nil || !strings.Contains(h.Markdown, tc.want) {
			t.Errorf("hover on %s: got %+v, want it to mention %q", tc.at, h, tc.want)
		}
	}
}
