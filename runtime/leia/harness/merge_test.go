package harness

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/runtime/runner"
)

// The reports of the shards of a run, read back from their JSON and
// merged in any order, render to the whole run's report byte for byte:
// over files with TODOs, parse errors, failed cases in several files,
// metrics of every type, in run and list mode, n = 1..5 (more shards
// than files included).
func TestMergeEqualsUnsharded(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"a/suite.leia": corpus, "a/cases.jsonl": cases,
		"b/bad.leia":   "evaluate {\n}\n",
		"c/suite.leia": strings.ReplaceAll(corpus, "refund", "return"), "c/cases.jsonl": cases,
		"d/plain.leia": "// TODO: nothing to evaluate\nx := 1\n",
	})
	for _, list := range []bool{false, true} {
		opts := Options{Paths: []string{dir}, List: list, LLM: runner.LLMConfig{Mode: runner.LLMMock}, Now: fixedClock()}
		whole, err := Run(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := whole.JSON()
		for n := 1; n <= 5; n++ {
			var reps []*Report
			var names []string
			for i := n; i >= 1; i-- {
				o := opts
				o.Shard = &diagnostics.Shard{Index: i, Count: n}
				r, err := Run(context.Background(), o)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := r.JSON()
				back, err := DecodeReport(b)
				if err != nil {
					t.Fatal(err)
				}
				reps, names = append(reps, back), append(names, fmt.Sprintf("shard%d", i))
			}
			merged, err := Merge(reps, names)
			if err != nil {
				t.Fatalf("list=%v n=%d: %v", list, n, err)
			}
			if got, _ := merged.JSON(); string(got) != string(want) {
				t.Errorf("list=%v n=%d: merged report differs from the whole run's:\n%s\nwant\n%s", list, n, got, want)
			}
		}
	}
	// The text rendering says which part a report holds.
	var text strings.Builder
	part, _ := Run(context.Background(), Options{Paths: []string{dir}, List: true, Now: fixedClock(), Shard: &diagnostics.Shard{Index: 2, Count: 3}})
	if part.Text(&text); !strings.Contains(text.String(), "in 1 file (shard 2/3 of 4);") {
		t.Errorf("text of shard 2/3: %s", text.String())
	}
	// What does not make one run is refused.
	shard := func(i, n int) *Report {
		r, err := Run(context.Background(), Options{Paths: []string{dir}, LLM: runner.LLMConfig{Mode: runner.LLMMock}, Now: fixedClock(), Shard: &diagnostics.Shard{Index: i, Count: n}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	compared := shard(2, 2)
	compared.Compare(shard(2, 2), "base.json", 0)
	miscounted := shard(2, 2)
	miscounted.Shard.FileFindings[0] += 100
	for _, tc := range []struct {
		reps []*Report
		want string
	}{
		{[]*Report{shard(1, 2)}, "shard 2/2 missing"},
		{[]*Report{shard(1, 2), shard(1, 3)}, "not the same run"},
		{[]*Report{shard(1, 2), compared}, "compare the merged report"},
		{[]*Report{shard(1, 2), miscounted}, "do not match its findings"},
	} {
		if _, err := Merge(tc.reps, []string{"x", "y"}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("merge: %v, want %q", err, tc.want)
		}
	}
	if _, err := Run(context.Background(), Options{Paths: []string{dir}, LLM: runner.LLMConfig{Mode: runner.LLMReplay, Fixture: "x"}, Shard: &diagnostics.Shard{Index: 1, Count: 2}}); err == nil || !strings.Contains(err.Error(), "cannot be split") {
		t.Errorf("sharded replay: %v", err)
	}
}
