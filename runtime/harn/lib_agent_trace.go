package harn

// agent_trace lists the run's agent trace events, each a dict with its
// type. This runtime records schema_retry: one per llm_call re-prompt
// after an answer failed output_schema validation ({attempt: the retry's
// number from 1, errors, nudge_used, correction_prompt: the corrective
// user turn sent, "" without one}).

type agentTraceLog struct{ events []Value }

func agentTraceOf(c *Call) *agentTraceLog {
	return c.th.in.State("agent_trace", func() any { return &agentTraceLog{} }).(*agentTraceLog)
}

// traceSchemaRetry records one schema retry.
func traceSchemaRetry(c *Call, attempt int64, errs []string, nudge string) {
	d := NewDict(5)
	d.Set("type", Str("schema_retry"))
	d.Set("attempt", Int(attempt))
	d.Set("errors", NewListValue(StrValues(errs)))
	d.Set("nudge_used", Bool(nudge != ""))
	d.Set("correction_prompt", Str(nudge))
	t := agentTraceOf(c)
	c.th.in.mu.Lock()
	t.events = append(t.events, DictValue(d))
	c.th.in.mu.Unlock()
}

func installAgentTrace(lib *Library) {
	lib.Builtin("agent_trace", func(c *Call, args []Value) (Value, error) {
		t := agentTraceOf(c)
		c.th.in.mu.Lock()
		defer c.th.in.mu.Unlock()
		return NewListValue(append([]Value(nil), t.events...)), nil
	})
}
