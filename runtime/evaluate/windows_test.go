package evaluate

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

func TestPlanWindows(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	anchor := "latest user message: tidy the build"
	planned, multi := 0, 0
	for trial := range 200 {
		n := rng.Intn(40)
		items := make([]any, n)
		for i := range items {
			if rng.Intn(3) == 0 {
				items[i] = map[string]any{"role": "tool", "text": strings.Repeat("é", rng.Intn(60))}
			} else {
				items[i] = fmt.Sprintf("message %d %s", i, strings.Repeat("x", rng.Intn(200)))
			}
		}
		opts := WindowOptions{BudgetTokens: 150 + rng.Intn(300), OverlapItems: rng.Intn(3)}
		if trial%2 == 0 {
			opts.Anchor = &anchor
		}
		plan, err := PlanWindows(items, opts)
		if err != nil {
			if strings.Contains(err.Error(), "not advance") || strings.Contains(err.Error(), "on its own") {
				continue
			}
			t.Fatal(err)
		}
		planned++
		if len(plan.Windows) > 2 {
			multi++
		}
		next := 0
		for w, win := range plan.Windows {
			// Primary ranges partition the items, in order.
			if win.PrimaryFirstIndex != next || win.LastIndex < win.PrimaryFirstIndex {
				t.Fatalf("trial %d window %d: primary %d, want %d", trial, w, win.PrimaryFirstIndex, next)
			}
			next = win.LastIndex + 1
			// Overlap repeats trailing items of the previous window.
			wantFirst := win.PrimaryFirstIndex
			if w > 0 {
				wantFirst = max(win.PrimaryFirstIndex-opts.OverlapItems, 0)
			}
			if win.FirstIndex != wantFirst || win.ItemCount != win.LastIndex-win.FirstIndex+1 {
				t.Fatalf("trial %d window %d: %+v", trial, w, win)
			}
			// Measured exactly as admission measures the state it is sent as.
			state := WindowState(opts.Anchor, items[win.FirstIndex:win.LastIndex+1])
			est, _ := EstimateStateTokens(state)
			if est != win.EstimatedTokens || est > opts.BudgetTokens {
				t.Fatalf("trial %d window %d: planned %d, measured %d, budget %d", trial, w, win.EstimatedTokens, est, opts.BudgetTokens)
			}
			// Greedy: one more item would not have fitted.
			if win.LastIndex+1 < n {
				more, _ := EstimateStateTokens(WindowState(opts.Anchor, items[win.FirstIndex:win.LastIndex+2]))
				if more <= opts.BudgetTokens {
					t.Fatalf("trial %d window %d stopped early", trial, w)
				}
			}
		}
		if next != n {
			t.Fatalf("trial %d: windows cover %d of %d items", trial, next, n)
		}
		if (opts.Anchor != nil) != (plan.AnchorTokens > 0) || plan.Receipt == "" {
			t.Fatalf("trial %d: %+v", trial, plan)
		}
	}
	if planned < 150 || multi < 50 {
		t.Errorf("only %d plans (%d with several windows) were checked", planned, multi)
	}
}

func TestPlanWindowsErrors(t *testing.T) {
	big := strings.Repeat("x", 4000)
	for name, tc := range map[string]struct {
		items []any
		opts  WindowOptions
		want  string
	}{
		"zero budget":      {[]any{"a"}, WindowOptions{BudgetTokens: 0}, "budget_tokens must be positive"},
		"negative overlap": {[]any{"a"}, WindowOptions{BudgetTokens: 10, OverlapItems: -1}, "must not be negative"},
		"item too large":   {[]any{"a", big}, WindowOptions{BudgetTokens: 100}, "item 1 needs"},
		"overlap stalls":   {[]any{strings.Repeat("a", 100), strings.Repeat("b", 100), "c"}, WindowOptions{BudgetTokens: 30, OverlapItems: 1}, "not advance"},
	} {
		if _, err := PlanWindows(tc.items, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
	plan, err := PlanWindows(nil, WindowOptions{BudgetTokens: 10})
	if err != nil || len(plan.Windows) != 0 {
		t.Errorf("empty: %v %+v", err, plan)
	}
}
