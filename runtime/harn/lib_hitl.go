package harn

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Human in the loop: ask_user(prompt, {schema, default, timeout}),
// request_approval(action, {quorum, reviewers, reason}), dual_control(n,
// m, fn, approvers) and hitl_pending(filters). Each request is a waitpoint
// (lib_waitpoints.go) a human answers; in this runtime the answer comes
// from a "hitl" host mock (operation question, approval or dual_control),
// else the request stays pending (listed by hitl_pending) until its
// timeout, when ask_user returns its default or throws a
// HumanTimeoutError. Inside a trigger dispatch, answers are recorded
// under the event, and a replay of the event gets the recorded answers,
// so signatures and timestamps come out the same.

type hitlRequest struct {
	id, kind, prompt, agent, traceID, requestedAt string
	approvers                                     []string
}

type hitlState struct {
	pending  []*hitlRequest
	recorded map[string]Value // dispatch request key -> answer
	seq      int
	perEvent map[string]int
}

func hitlOf(c *Call) *hitlState {
	return c.th.in.State("hitl", func() any {
		return &hitlState{recorded: map[string]Value{}, perEvent: map[string]int{}}
	}).(*hitlState)
}

// request opens a request: its id, and the key its answer is recorded
// under when it runs inside a trigger dispatch ("" outside one).
func (h *hitlState) request(c *Call, kind, prompt string, approvers []string) (*hitlRequest, string) {
	tr := triggersOf(c)
	h.seq++
	r := &hitlRequest{id: fmt.Sprintf("hitl_%s_%d", kind, h.seq), kind: kind, prompt: prompt, approvers: approvers,
		requestedAt: nowText(c)}
	key := ""
	if n := len(tr.contexts); n > 0 {
		x := tr.contexts[n-1]
		r.agent, r.traceID = x.agent, x.traceID
		ev := OptStr(x.event, "id")
		if x.replayOf != "" {
			ev = x.replayOf
		}
		slot := ev + "|" + x.replayOf + "|" + kind
		h.perEvent[slot]++
		key = fmt.Sprintf("%s:%s:%d", ev, kind, h.perEvent[slot])
		// The id of a request made in a dispatch is the event's, so a
		// replay asks the same request again.
		sum := sha256.Sum256([]byte(key))
		r.id = "hitl_" + kind + "_" + hex.EncodeToString(sum[:8])
	}
	if r.traceID == "" {
		r.traceID = tr.newID(c, "trace_")
	}
	h.pending = append(h.pending, r)
	return r, key
}

func (h *hitlState) done(r *hitlRequest) {
	for i, p := range h.pending {
		if p == r {
			h.pending = append(h.pending[:i], h.pending[i+1:]...)
			return
		}
	}
}

// answer is the human's answer to a request: a recorded one on replay, a
// host mock's, or one a waitpoint completion delivers before the timeout
// (timedOut when none came).
func (h *hitlState) answer(c *Call, r *hitlRequest, key string, timeoutMs int64) (v Value, timedOut bool, err error) {
	defer h.done(r)
	if key != "" {
		if rec, ok := h.recorded[key]; ok {
			return rec, false, nil
		}
	}
	params := goValue(map[string]any{"request_id": r.id, "prompt": r.prompt, "approvers": r.approvers}).AsDict()
	v, found, err := hostMocksOf(c).answer("hitl", r.kind, params)
	if err != nil {
		return Nil, false, err
	}
	if !found {
		out, err := waitpointsOf(c).wait(c, []string{r.id}, timeoutMs)
		if err != nil {
			return Nil, false, err
		}
		if out.status != "completed" {
			return Nil, true, nil
		}
		v = out.points[0].value
	}
	if key != "" {
		h.recorded[key] = v
	}
	return v, false, nil
}

// coerceLike converts an answer to the kind of a default value.
func coerceLike(v, def Value) Value {
	if v.k == def.k {
		return v
	}
	s := strings.TrimSpace(Display(v))
	switch def.k {
	case KindInt:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return Int(n)
		}
	case KindFloat:
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return Float(f)
		}
	case KindBool:
		if b, err := strconv.ParseBool(s); err == nil {
			return Bool(b)
		}
	case KindString:
		return Str(Display(v))
	}
	return v
}

func hitlStrings(v Value) []string {
	var out []string
	if v.k == KindList {
		for _, x := range v.AsList().Items() {
			out = append(out, Display(x))
		}
	}
	return out
}

// reviewerResponses reads an approval answer: a list of {approved,
// reviewer, reason, responded_at} or one such dict.
func reviewerResponses(v Value) []*Dict {
	var out []*Dict
	switch v.k {
	case KindList:
		for _, x := range v.AsList().Items() {
			if x.k == KindDict {
				out = append(out, x.AsDict())
			}
		}
	case KindDict:
		out = append(out, v.AsDict())
	}
	return out
}

func signApproval(requestID, reviewer, signedAt string) string {
	sum := sha256.Sum256([]byte(requestID + "\n" + reviewer + "\n" + signedAt))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func timeoutMsOf(opts *Dict) int64 {
	if opts == nil {
		return -1
	}
	if t, ok := opts.Get("timeout"); ok && t.k != KindNil {
		if ms, ok := DurationMillis(t); ok {
			return ms
		}
	}
	return -1
}

func installHitl(lib *Library) {
	lib.Builtin("ask_user", func(c *Call, args []Value) (Value, error) {
		p := Arg(args, 0)
		if p.k != KindString {
			return Nil, plainError("ask_user: prompt must be a string")
		}
		var opts *Dict
		if o := Arg(args, 1); o.k == KindDict {
			opts = o.AsDict()
		}
		h := hitlOf(c)
		r, key := h.request(c, "question", p.AsString(), nil)
		v, timedOut, err := h.answer(c, r, key, timeoutMsOf(opts))
		if err != nil {
			return Nil, err
		}
		var def Value = Nil
		hasDef := false
		if opts != nil {
			def, hasDef = opts.Get("default")
		}
		if timedOut {
			if hasDef {
				return def, nil
			}
			return Nil, throwValue(goValue(map[string]any{"name": "HumanTimeoutError", "category": "timeout",
				"message": "ask_user: no answer to " + r.id + " before the timeout", "request_id": r.id, "kind": "question"}))
		}
		if v.k == KindDict {
			if a, ok := v.AsDict().Get("answer"); ok {
				v = a
			}
		}
		if hasDef && def.k != KindNil {
			return coerceLike(v, def), nil
		}
		return v, nil
	})
	lib.Builtin("request_approval", func(c *Call, args []Value) (Value, error) {
		action := Display(Arg(args, 0))
		quorum := int64(1)
		var reviewers []string
		var opts *Dict
		if o := Arg(args, 1); o.k == KindDict {
			opts = o.AsDict()
			quorum = harnessInt(opts, "quorum", 1)
			rv, _ := opts.Get("reviewers")
			reviewers = hitlStrings(rv)
		}
		h := hitlOf(c)
		r, key := h.request(c, "approval", action, reviewers)
		v, timedOut, err := h.answer(c, r, key, timeoutMsOf(opts))
		if err != nil {
			return Nil, err
		}
		var approvedBy []string
		var sigs []any
		var reason any
		approvedAt := ""
		for _, resp := range reviewerResponses(v) {
			ok, _ := resp.Get("approved")
			reviewer := OptStr(resp, "reviewer")
			if !ok.Truthy() || reviewer == "" {
				continue
			}
			if len(reviewers) > 0 && !containsString(reviewers, reviewer) {
				continue
			}
			at := OptStr(resp, "responded_at")
			if at == "" {
				at = nowText(c)
			}
			approvedBy = append(approvedBy, reviewer)
			sigs = append(sigs, map[string]any{"reviewer": reviewer, "signed_at": at, "signature": signApproval(r.id, reviewer, at)})
			if reason == nil && OptStr(resp, "reason") != "" {
				reason = OptStr(resp, "reason")
			}
			approvedAt = at
		}
		if timedOut || int64(len(approvedBy)) < quorum {
			return Nil, throwValue(goValue(map[string]any{"name": "ApprovalDeniedError", "category": "denied",
				"message":    fmt.Sprintf("request_approval: %d of %d required approvals for %q", len(approvedBy), quorum, action),
				"request_id": r.id, "reviewers": approvedBy, "reason": reason}))
		}
		return goValue(map[string]any{"approved": true, "reviewers": approvedBy, "approved_at": approvedAt,
			"reason": reason, "signatures": sigs}), nil
	})
	lib.Builtin("dual_control", func(c *Call, args []Value) (Value, error) {
		n, _ := Arg(args, 0).Number()
		m, _ := Arg(args, 1).Number()
		fn := Arg(args, 2)
		approvers := hitlStrings(Arg(args, 3))
		if n < 1 || m < n {
			return Nil, plainError("dual_control: need 1 <= n <= m")
		}
		h := hitlOf(c)
		r, key := h.request(c, "dual_control", "dual control", approvers)
		v, _, err := h.answer(c, r, key, timeoutMsOf(nil))
		if err != nil {
			return Nil, err
		}
		seen := map[string]bool{}
		for _, resp := range reviewerResponses(v) {
			ok, _ := resp.Get("approved")
			who := OptStr(resp, "reviewer")
			if ok.Truthy() && who != "" && (len(approvers) == 0 || containsString(approvers, who)) {
				seen[who] = true
			}
		}
		if float64(len(seen)) < n {
			return Nil, throwValue(goValue(map[string]any{"name": "ApprovalDeniedError", "category": "denied",
				"message":    fmt.Sprintf("dual_control: %d of %d required approvals", len(seen), int64(n)),
				"request_id": r.id, "reviewers": sortedSet(seen), "reason": nil}))
		}
		return c.Invoke(fn)
	})
	lib.Builtin("hitl_pending", func(c *Call, args []Value) (Value, error) {
		var kind string
		if f := Arg(args, 0); f.k == KindDict {
			kind = OptStr(f.AsDict(), "kind")
		}
		var out []Value
		for _, r := range hitlOf(c).pending {
			if kind != "" && r.kind != kind {
				continue
			}
			approvers := r.approvers
			if approvers == nil {
				approvers = []string{}
			}
			out = append(out, goValue(map[string]any{"request_id": r.id, "request_kind": r.kind, "prompt": r.prompt,
				"agent": r.agent, "trace_id": r.traceID, "requested_at": r.requestedAt, "approvers": approvers}))
		}
		return NewListValue(out), nil
	})
	lib.StdModule("std/hitl", map[string]func(c *Call, args []Value) (Value, error){
		"ask_user":         func(c *Call, args []Value) (Value, error) { return callBuiltin(c, "ask_user", args...) },
		"request_approval": func(c *Call, args []Value) (Value, error) { return callBuiltin(c, "request_approval", args...) },
		"dual_control":     func(c *Call, args []Value) (Value, error) { return callBuiltin(c, "dual_control", args...) },
		"hitl_pending":     func(c *Call, args []Value) (Value, error) { return callBuiltin(c, "hitl_pending", args...) },
	})
}
