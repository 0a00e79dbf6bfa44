package harn

import "strings"

// The agent layer asks for model turns through one seam, agentTurn: the
// loop never builds a provider request itself. The turn goes through the
// registered llm_call builtin, so whatever answers llm_call (the mock
// queue, a replay tape, a provider, with its budgets and traces) answers
// the agent's turns too, and llm_mock_calls() records them.

// turnRequest is one model turn of an agent loop.
type turnRequest struct {
	messages []Value // the prompt-visible conversation, oldest first
	system   string
	tools    []Value // native tool schemas {name, description, parameters}; nil in text mode
	opts     *Dict   // the loop's options (provider, model, ...), passed through
}

// turnReply is what the model answered.
type turnReply struct {
	text      string
	toolCalls []Value // {id, name, arguments}
	input     int64
	output    int64
	// retried counts transient provider errors retried (llm_retries);
	// emptyRetried those that were empty completions.
	retried, emptyRetried int64
}

// agentTurn runs one model turn.
func agentTurn(c *Call, r turnRequest) (turnReply, error) {
	b, ok := c.th.in.builtin("llm_call")
	if !ok {
		return turnReply{}, plainError(unavailableMessage("llm_call"))
	}
	opts := NewDict(r.opts.Len() + 2)
	for _, k := range r.opts.Keys() {
		switch k {
		case "tools", "messages", "session_id", "permissions", "policy", "on_escalation",
			"post_turn_callback", "context_callback", "compact_callback":
			continue // the loop's own options, not the provider's
		}
		v, _ := r.opts.Get(k)
		opts.Set(k, v)
	}
	opts.Set("messages", NewListValue(append([]Value{}, r.messages...)))
	if len(r.tools) > 0 {
		opts.Set("tools", NewListValue(r.tools))
	}
	system := Nil
	if r.system != "" {
		system = Str(r.system)
	}
	// Transient provider errors are retried here, not inside llm_call,
	// so the loop can count them (trace.empty_completion_retries).
	retries := optInt64(opts, "llm_retries", 0)
	opts.Set("llm_retries", Int(0))
	var rep turnReply
	var v Value
	var err error
	for try := int64(0); ; try++ {
		v, err = b.Fn(c, []Value{Nil, system, DictValue(opts)})
		if err == nil {
			break
		}
		e, ok := err.(*Error)
		if !ok || try >= retries || e.Value.k != KindDict || dictString(e.Value.r.(*Dict), "kind") != "transient" {
			return turnReply{}, err
		}
		rep.retried++
		if m := dictString(e.Value.r.(*Dict), "message"); strings.Contains(m, "no content") || strings.Contains(m, "empty completion") {
			rep.emptyRetried++
		}
	}
	d := v.AsDict()
	if v.k != KindDict {
		return rep, nil
	}
	rep.text = dictString(d, "text")
	rep.toolCalls = dictList(d, "tool_calls")
	if n, ok := d.Get("input_tokens"); ok && n.k == KindInt {
		rep.input = n.AsInt()
	}
	if n, ok := d.Get("output_tokens"); ok && n.k == KindInt {
		rep.output = n.AsInt()
	}
	return rep, nil
}
