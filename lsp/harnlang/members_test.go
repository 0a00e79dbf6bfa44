package harnlang

import (
	"context"
	"slices"
	"strings"
	"testing"

	harnchecker "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/analysis"
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

const memberSource = `/// A code review.
struct Review {
  author: string
  score: int
  tags: list<string>
}

fn summary(r: Review, xs: list<int>, d: dict<string, int>) -> string {
  let who = r.author
  let n = r.tags
  let first = xs[0]
  let total = (n)
  let keys = d
  return who
}

fn act(o: {kind: "ok", value: int} | {kind: "failed", error: string}) -> string {
  match o.kind {
    "ok" -> {
      let v = o
      return "ok"
    }
    _ -> { return "no" }
  }
}
`

// TestMemberCompletionFromLatestCheck: "." typed after a receiver the
// latest check typed (the version before the dot) completes from that
// check's facts, with no check of its own, and offers what a check of the
// patched text offers: at the end of every line of a file (records,
// lists, dicts, an index, a parenthesised name, a narrowed union), with
// the facts as a whole check gives them and as an incremental check does
// (an earlier check's, at other offsets). A receiver edited since the
// latest check is typed by a check of the new text.
func TestMemberCompletionFromLatestCheck(t *testing.T) {
	check := func(src string) *analysis.Facts {
		res := harnchecker.Check("m.harn", []byte(src), harnchecker.Options{})
		facts := res.Facts
		if facts == nil {
			t.Fatalf("no facts for %q", src)
		}
		return facts
	}
	whole := check(memberSource)
	// The same facts read through an incremental check's: the earlier
	// check was of the text two bytes further on.
	shifted := &harnchecker.EditedFacts{Regions: []harnchecker.FactsRegion{
		{Start: 0, End: len(memberSource), Facts: check("\n\n" + memberSource), Delta: 2}}}
	labels := func(items []features.CompletionItem) string {
		var b strings.Builder
		for _, it := range items {
			b.WriteString(it.Label + " " + it.Detail + "; ")
		}
		return b.String()
	}
	snap := func(text string, facts []features.CheckFacts) features.Snapshot {
		return features.Snapshot{Doc: features.Document{URI: "file:///m.harn", Text: []byte(text),
			Facts: func() []features.CheckFacts { return facts }}}
	}
	fromChecks, nonEmpty := 0, 0
	for ln, line := range strings.Split(memberSource, "\n") {
		trimmed := strings.TrimRight(line, " {")
		if strings.TrimSpace(trimmed) == "" || strings.HasSuffix(trimmed, "}") {
			continue
		}
		lineStart := 0
		for _, l := range strings.Split(memberSource, "\n")[:ln] {
			lineStart += len(l) + 1
		}
		end := lineStart + len(trimmed)
		now := memberSource[:end] + "." + memberSource[end:]
		want := labels(memberCompletion(snap(now, nil), end+1, end+1))
		for _, tc := range []struct {
			name  string
			facts any
		}{{"whole check", whole}, {"incremental check", shifted}} {
			forgetFacts() // the check of the patched text just made
			before := factsChecks.Load()
			got := labels(memberCompletion(snap(now, []features.CheckFacts{{Text: []byte(memberSource), Facts: tc.facts}}), end+1, end+1))
			if got != want {
				t.Errorf("%s, %q.: from the latest check %q, checking the text %q", tc.name, trimmed, got, want)
			}
			if got != "" {
				if factsChecks.Load() != before {
					t.Errorf("%s, %q.: checked the text again", tc.name, trimmed)
				}
				fromChecks++
			}
		}
		if want != "" {
			nonEmpty++
		}
	}
	if nonEmpty < 6 || fromChecks < 12 {
		t.Errorf("%d receivers with members, %d completed from the checks: the source misses what the test is about", nonEmpty, fromChecks)
	}
	// The receiver's declaration edited since: xs is a string now (the
	// text as long, so that the latest check's xs ends there too).
	edited := strings.Replace(memberSource, "xs: list<int>", "xs: string   ", 1)
	at := strings.Index(edited, "xs[0]") + len("xs")
	now := edited[:at] + "." + edited[at:]
	forgetFacts()
	stale := labels(memberCompletion(snap(now, []features.CheckFacts{{Text: []byte(memberSource), Facts: whole}}), at+1, at+1))
	if !strings.HasPrefix(stale, "count ") || !strings.Contains(stale, "capitalize") {
		t.Errorf("xs. after xs became a string: %q, want the string members", stale)
	}
}
