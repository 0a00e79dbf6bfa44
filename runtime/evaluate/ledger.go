package evaluate

import (
	"math"
	"sync"
)

// Ledger is the shared monetary ledger of one execution: every evaluator
// (and child VM) of a run charges the same one, so concurrent evaluations
// share one allowance and cannot overspend it.
//
// Conservative admission reserves an evaluation's full upper bound before
// dispatch. Known usage settles the reservation at the measured cost and
// releases the rest; unknown usage or a cancellation after dispatch keeps
// the whole reservation as uncertain spending (never "free"); a gateway
// that reports more than one downstream attempt keeps it too and closes
// admission for the rest of the execution, because the final response's
// usage cannot establish what the hidden attempts cost. Adaptive
// (structured) calls without a run ceiling record their measured cost, or
// their bound when usage is unknown.
type Ledger struct {
	mu sync.Mutex
	// ceiling is the execution's conservative authority (nil: none).
	ceiling   *float64
	spent     float64 // settled measured cost
	uncertain float64 // retained reservations and unpriced adaptive calls
	reserved  float64 // outstanding holds
	holds     int
	// unreserved is spending recorded while no ceiling existed; a ceiling
	// activated after it cannot cover it (late activation).
	unreserved    float64
	lateActivated bool
	closed        bool
}

// NewLedger returns a ledger with an optional run ceiling (the execution's
// conservative authority, installed before the first model call).
func NewLedger(ceiling *float64) *Ledger {
	l := &Ledger{}
	if ceiling != nil {
		c := *ceiling
		l.ceiling = &c
	}
	return l
}

// LedgerState is a snapshot.
type LedgerState struct {
	Spent, Uncertain, Reserved float64
	Ceiling                    *float64
	Closed                     bool
}

// State returns a snapshot.
func (l *Ledger) State() LedgerState {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := LedgerState{Spent: l.spent, Uncertain: l.uncertain, Reserved: l.reserved, Closed: l.closed}
	if l.ceiling != nil {
		c := *l.ceiling
		s.Ceiling = &c
	}
	return s
}

// committed is everything the ledger cannot give back.
func (l *Ledger) committed() float64 { return l.spent + l.uncertain + l.reserved }

// Committed is spent + uncertain + reserved.
func (l *Ledger) Committed() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.committed()
}

// Hold is one reservation.
type Hold struct {
	l     *Ledger
	bound float64
	done  bool
}

// Refusal is why a reservation was refused: BudgetCut with the remaining
// allowance, or an admission reason (no_conservative_ceiling,
// late_activation, admission_closed).
type Refusal struct {
	AdmissionReason string
	BudgetCut       bool
	Remaining       float64
}

// Reserve reserves bound under the execution's ceiling tightened by
// runLimit (the policy's run_cost_limit). requireCeiling demands
// conservative authority (native decisions): without a ceiling, or with
// one activated after unreserved spending, the reservation is refused.
func (l *Ledger) Reserve(bound float64, runLimit *float64, requireCeiling bool) (*Hold, *Refusal) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, &Refusal{AdmissionReason: "admission_closed"}
	}
	ceiling := math.Inf(1)
	has := false
	if l.ceiling != nil {
		ceiling, has = *l.ceiling, true
	}
	if runLimit != nil {
		if !has && l.unreserved > 0 {
			// A ceiling arriving now cannot cover earlier unreserved calls.
			l.lateActivated = true
		}
		ceiling, has = math.Min(ceiling, *runLimit), true
	}
	if requireCeiling {
		if !has {
			return nil, &Refusal{AdmissionReason: "no_conservative_ceiling"}
		}
		if l.lateActivated {
			return nil, &Refusal{AdmissionReason: "late_activation"}
		}
	}
	if c := l.committed(); c+bound > ceiling {
		return nil, &Refusal{BudgetCut: true, Remaining: math.Max(ceiling-c, 0)}
	}
	l.reserved += bound
	l.holds++
	return &Hold{l: l, bound: bound}, nil
}

// Bound is the reserved amount.
func (h *Hold) Bound() float64 { return h.bound }

func (h *Hold) finish(f func(l *Ledger)) {
	l := h.l
	l.mu.Lock()
	defer l.mu.Unlock()
	if h.done {
		return
	}
	h.done = true
	l.reserved -= h.bound
	if l.holds--; l.holds == 0 {
		l.reserved = 0 // no rounding residue once nothing is outstanding
	}
	f(l)
}

// Settle charges the measured cost and releases the rest of the bound.
func (h *Hold) Settle(cost float64) { h.finish(func(l *Ledger) { l.spent += cost }) }

// Release gives the whole bound back (nothing was dispatched).
func (h *Hold) Release() { h.finish(func(*Ledger) {}) }

// Retain keeps the whole bound as uncertain spending (unknown usage,
// cancellation after dispatch).
func (h *Hold) Retain() { h.finish(func(l *Ledger) { l.uncertain += h.bound }) }

// RetainAndClose retains the bound and closes admission for the rest of
// the execution (a gateway reported hidden downstream attempts).
func (h *Hold) RetainAndClose() {
	h.finish(func(l *Ledger) {
		l.uncertain += h.bound
		l.closed = true
	})
}

// RecordAdaptive records an adaptive call's cost: measured (known) or
// its bound kept as uncertain (unknown usage).
func (l *Ledger) RecordAdaptive(cost float64, known bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if known {
		l.spent += cost
	} else {
		l.uncertain += cost
	}
	if l.ceiling == nil {
		l.unreserved += cost
	}
}
