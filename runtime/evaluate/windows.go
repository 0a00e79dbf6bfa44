package evaluate

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/llm"
)

// WindowOptions configure PlanWindows (std/predicate's
// evaluation_windows options).
type WindowOptions struct {
	// BudgetTokens bounds every window's estimated state.
	BudgetTokens int
	// OverlapItems repeats that many trailing items of a window at the
	// front of the next one.
	OverlapItems int
	// Anchor, when set, is repeated in every window and counted against
	// every window's budget.
	Anchor *string
}

// Window is one planned window: inclusive indices into the items, where
// its own (primary) items start, how many items it holds and the size it
// was planned at.
type Window struct {
	FirstIndex, LastIndex, PrimaryFirstIndex, ItemCount, EstimatedTokens int
}

// WindowPlan is evaluation_windows' result.
type WindowPlan struct {
	Windows                                  []Window
	BudgetTokens, AnchorTokens, OverlapItems int
	// Receipt identifies the plan: "blake3:" + BLAKE3 of the canonical
	// JSON of the plan without this field.
	Receipt string
}

// WindowState is the state a window is measured as and sent as:
// {"anchor": ANCHOR, "items": ITEMS} (anchor omitted when not set).
func WindowState(anchor *string, items []any) map[string]any {
	s := map[string]any{"items": items}
	if anchor != nil {
		s["anchor"] = *anchor
	}
	return s
}

// PlanWindows splits items into windows that each fit the budget, as
// measured by EstimateStateTokens on WindowState — the estimate the
// state_too_large ceiling uses, so a planned window is never refused for
// its size where it is sent. The primary ranges partition the items, so
// per-item answers join back by index with exactly one answer each. An
// item that cannot fit on its own is an error: no window would hold it.
// Work is linear in the items' encoded size.
func PlanWindows(items []any, opts WindowOptions) (*WindowPlan, error) {
	if opts.BudgetTokens <= 0 {
		return nil, fmt.Errorf("evaluation_windows: budget_tokens must be positive, got %d", opts.BudgetTokens)
	}
	if opts.OverlapItems < 0 {
		return nil, fmt.Errorf("evaluation_windows: overlap_items must not be negative, got %d", opts.OverlapItems)
	}
	plan := &WindowPlan{Windows: []Window{}, BudgetTokens: opts.BudgetTokens, OverlapItems: opts.OverlapItems}
	// The canonical form of {"anchor":A,"items":[i1,...,in]} is a fixed
	// frame plus the items' encodings and n-1 commas.
	frame := len(`{"items":[]}`)
	if opts.Anchor != nil {
		a := canonjson.QuoteString(*opts.Anchor)
		frame += len(`"anchor":,`) + len(a)
		plan.AnchorTokens = llm.EstimateTextTokens(a)
	}
	sizes := make([]int, len(items))
	for i, it := range items {
		b, err := canonjson.Encode(it)
		if err != nil {
			return nil, fmt.Errorf("evaluation_windows: item %d: %v", i, err)
		}
		sizes[i] = len(b)
	}
	tokens := func(first, last int) int {
		n := frame
		for i := first; i <= last; i++ {
			n += sizes[i]
		}
		if last >= first {
			n += last - first // commas
		}
		return (n + 3) / 4
	}
	first, primary := 0, 0
	for primary < len(items) {
		if tokens(primary, primary) > opts.BudgetTokens {
			return nil, fmt.Errorf("evaluation_windows: item %d needs %d tokens on its own, over the budget of %d", primary, tokens(primary, primary), opts.BudgetTokens)
		}
		if tokens(first, primary) > opts.BudgetTokens {
			return nil, fmt.Errorf("evaluation_windows: item %d does not fit after %d overlap item(s) within %d tokens; the overlap would not advance", primary, primary-first, opts.BudgetTokens)
		}
		// Grow one item at a time, keeping a running size (linear).
		last := primary
		size := frame + sizes[first]
		for i := first + 1; i <= primary; i++ {
			size += 1 + sizes[i]
		}
		for last+1 < len(items) && (size+1+sizes[last+1]+3)/4 <= opts.BudgetTokens {
			last++
			size += 1 + sizes[last]
		}
		plan.Windows = append(plan.Windows, Window{FirstIndex: first, LastIndex: last, PrimaryFirstIndex: primary,
			ItemCount: last - first + 1, EstimatedTokens: (size + 3) / 4})
		primary = last + 1
		first = max(primary-opts.OverlapItems, 0)
		if prev := plan.Windows[len(plan.Windows)-1]; primary < len(items) && first <= prev.FirstIndex {
			return nil, fmt.Errorf("evaluation_windows: overlap_items %d repeats the whole window %d; the windows would not advance", opts.OverlapItems, len(plan.Windows)-1)
		}
	}
	plan.Receipt = digestBytes(canonjson.MustEncode(plan.value(false)))
	return plan, nil
}

// Value is the plan as the program sees it (EvaluationWindows).
func (p *WindowPlan) Value() map[string]any { return p.value(true) }

func (p *WindowPlan) value(withReceipt bool) map[string]any {
	ws := make([]any, len(p.Windows))
	for i, w := range p.Windows {
		ws[i] = map[string]any{"first_index": int64(w.FirstIndex), "last_index": int64(w.LastIndex),
			"primary_first_index": int64(w.PrimaryFirstIndex), "item_count": int64(w.ItemCount),
			"estimated_tokens": int64(w.EstimatedTokens)}
	}
	v := map[string]any{"windows": ws, "budget_tokens": int64(p.BudgetTokens), "anchor_tokens": int64(p.AnchorTokens),
		"overlap_items": int64(p.OverlapItems)}
	if withReceipt {
		v["receipt"] = p.Receipt
	}
	return v
}
