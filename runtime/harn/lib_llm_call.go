package harn

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/llm"
)

// The llm_call family: llm_call, llm_call_safe, the structured calls
// and their schema-retry loop, over llmTurn (lib_llm_turn.go), which
// sends each turn through runtime/llm's stack; llm_mock registers
// scripted answers (the .llm-mock.jsonl codec, llm.ScriptedFromMap) on
// the run's one mock, llm_mock_calls lists what was asked, and the
// scopes of std/testing save and restore the registered answers, the
// call log and the prompt cache.

// llmScope is what llm_mock_push_scope saved.
type llmScope struct {
	script []*llm.Scripted
	calls  []llmCall
	cache  map[string]bool
}

// OptInt is a dict field's int, nil when it is absent or not an int.
func OptInt(d *Dict, k string) *int64 {
	if v, ok := d.Get(k); ok && v.k == KindInt {
		n := int64(v.n)
		return &n
	}
	return nil
}

// OptStr is a dict field as text ("" when absent or nil).
func OptStr(d *Dict, k string) string {
	if v, ok := d.Get(k); ok && v.k != KindNil {
		return Display(v)
	}
	return ""
}

// scriptedOf reads llm_mock's argument with the .llm-mock.jsonl codec
// (one line of the file, as a dict).
func scriptedOf(v Value) (*llm.Scripted, error) {
	m, _ := toGo(v).(map[string]any)
	return llm.ScriptedFromMap(m, func(cat string) bool { return parseCategory(cat) == cat })
}

// collectStrings gathers every non-empty string inside a value, in order.
func collectStrings(v Value, out *[]string, depth int) {
	if depth > 64 {
		return
	}
	switch v.k {
	case KindString:
		if s := v.r.(string); s != "" {
			*out = append(*out, s)
		}
	case KindList:
		for _, x := range v.r.(*List).items {
			collectStrings(x, out, depth+1)
		}
	case KindDict:
		d := v.r.(*Dict)
		for _, k := range d.Keys() {
			collectStrings(d.m[k], out, depth+1)
		}
	}
}

// llmRequest is one model call's inputs.
type llmRequest struct {
	messages []Value
	system   Value
	tools    Value
	model    string
	provider string
	opts     *Dict
	thinking *Dict // the normalised thinking option
	err      error // a malformed option
	// completion makes the turn a fill-in-the-middle request
	// (llm_completion); onStream receives the answer's pieces as they
	// arrive (llm_stream).
	completion *llm.Completion
	onStream   func(llm.StreamEvent)
}

func buildLLMRequest(args []Value) *llmRequest {
	r := &llmRequest{system: Arg(args, 1), model: "mock", provider: "mock", opts: NewDict(0)}
	if o := Arg(args, 2); o.k == KindDict {
		r.opts = o.r.(*Dict)
	}
	if m := OptStr(r.opts, "model"); m != "" {
		r.model = m
	}
	if p := OptStr(r.opts, "provider"); p != "" {
		r.provider = p
	}
	if t, ok := r.opts.Get("tools"); ok {
		r.tools = t
	}
	r.thinking, r.err = thinkingConfig(r.opts)
	if r.err == nil {
		if t, native, err := nativeSearchTools(r.opts, r.tools); err != nil {
			r.err = err
		} else if native {
			r.tools = t
		}
	}
	if ms, ok := r.opts.Get("messages"); ok && ms.k == KindList {
		r.messages = append(r.messages, ms.r.(*List).SharedItems()...)
	}
	if p := Arg(args, 0); p.k != KindNil {
		msg := NewDict(2)
		msg.Set("role", Str("user"))
		msg.Set("content", p)
		r.messages = append(r.messages, DictValue(msg))
	}
	return r
}

// proseOf unwraps <assistant_prose>...</assistant_prose> when present.
func proseOf(text string) string {
	const open, close = "<assistant_prose>", "</assistant_prose>"
	if i := strings.Index(text, open); i >= 0 {
		rest := text[i+len(open):]
		if j := strings.Index(rest, close); j >= 0 {
			return strings.TrimSpace(rest[:j])
		}
	}
	return text
}

// llmError is the dict a failed model call throws.
func llmError(category, message string, retryAfter *int64, provider, model string) error {
	kind, reason := llmKindReason(category)
	d := NewDict(7)
	d.Set("category", Str(category))
	d.Set("kind", Str(kind))
	d.Set("reason", Str(reason))
	d.Set("message", Str(message))
	if retryAfter != nil {
		d.Set("retry_after_ms", Int(*retryAfter))
	}
	d.Set("provider", Str(provider))
	d.Set("model", Str(model))
	e := throwValue(DictValue(d))
	e.Category = category
	return e
}

// schemaOutcome is the result of a call's schema-retry loop.
type schemaOutcome struct {
	res      Value // the last attempt's result dict
	raw      string
	errs     []string
	attempts int
	retries  int64
	mode     string
}

// llmSchemaLoop runs a call with transient retries (llm_retries, default
// 2) and the structured-output contract: response_format json or
// output_schema parse the answer into .data, validated against the schema
// with up to schema_retries new attempts.
func llmSchemaLoop(c *Call, args []Value) (*schemaOutcome, error) {
	r := buildLLMRequest(args)
	retries := int64(0)
	if v, ok := r.opts.Get("llm_retries"); ok && v.k == KindInt {
		retries = int64(v.n)
	}
	structured := false
	if f := OptStr(r.opts, "response_format"); f == "json" || f == "json_object" {
		structured = true
	}
	if f, ok := r.opts.Get("output_format"); ok && (f.k == KindDict || Display(f) == "json") {
		structured = true
	}
	var schema *Dict
	if s, ok := r.opts.Get("output_schema"); ok && s.k == KindDict {
		schema = s.r.(*Dict)
		structured = true
	}
	o := &schemaOutcome{mode: OptStr(r.opts, "output_validation")}
	if v, ok := r.opts.Get("schema_retries"); ok && v.k == KindInt {
		o.retries = int64(v.n)
	}
	original := r.messages
	for attempt := int64(0); ; attempt++ {
		var res Value
		var err error
		for try := int64(0); ; try++ {
			res, err = llmTurn(c, r)
			if err == nil {
				break
			}
			e, ok := err.(*Error)
			if !ok || try >= retries || e.Value.k != KindDict {
				return nil, err
			}
			if k, _ := e.Value.r.(*Dict).Get("kind"); Display(k) != "transient" {
				return nil, err
			}
		}
		o.res, o.attempts, o.errs = res, int(attempt)+1, nil
		d := res.r.(*Dict)
		text, _ := d.Get("text")
		o.raw = Display(text)
		if !structured {
			return o, nil
		}
		data, perr := ParseJSON(extractJSON(o.raw))
		if perr == nil {
			d.Set("data", data)
		}
		if schema == nil {
			return o, nil
		}
		if perr != nil {
			o.errs = []string{"response did not contain parseable JSON"} // upstream's wording
		} else if nv, errs := validateSchema(data, schema, "", schemaOpts{applyDefaults: true}, 0); len(errs) > 0 {
			o.errs = errs
		} else {
			d.Set("data", nv)
			return o, nil
		}
		if attempt >= o.retries {
			return o, nil
		}
		// Retry the original messages with one corrective user turn
		// (the invalid answer is not replayed), as upstream does.
		r.messages = original
		nudge := schemaNudge(o.errs, schema, r.opts)
		traceSchemaRetry(c, attempt+1, o.errs, nudge)
		if nudge != "" {
			m := NewDict(2)
			m.Set("role", Str("user"))
			m.Set("content", Str(nudge))
			r.messages = append(append([]Value(nil), original...), DictValue(m))
		}
	}
}

// llmCallWithRetries is llm_call: the schema loop, throwing when the
// output fails validation in "error" mode.
func llmCallWithRetries(c *Call, args []Value) (Value, error) {
	o, err := llmSchemaLoop(c, args)
	if err != nil {
		return Nil, err
	}
	if len(o.errs) == 0 || o.mode != "error" {
		return o.res, nil
	}
	hint := " (hint: set `schema_retries: N` in the llm_call options to automatically re-prompt the model with a corrective nudge)"
	if o.retries > 0 {
		hint = " (hint: schema_retries budget exhausted — the model did not produce conforming output after the configured retries; consider raising `schema_retries` or relaxing the schema)"
	}
	req := buildLLMRequest(args)
	return Nil, llmError("schema_validation", "LLM output failed schema validation: "+strings.Join(o.errs, "; ")+hint, nil, req.provider, req.model)
}

// structuredArgs rewrites (prompt, schema, options) into llm_call's
// arguments: JSON output validated against schema, `retries` as
// schema_retries (default 3), validation errors thrown.
func structuredArgs(args []Value) []Value {
	opts := NewDict(0)
	if o := Arg(args, 2); o.k == KindDict {
		opts = o.r.(*Dict).clone()
	}
	system, _ := opts.Get("system")
	opts.Delete("system")
	if r, ok := opts.Get("retries"); ok && r.k == KindInt {
		opts.Delete("retries")
		if !opts.Has("schema_retries") {
			opts.Set("schema_retries", r)
		}
	} else if !opts.Has("schema_retries") {
		opts.Set("schema_retries", Int(3))
	}
	if !opts.Has("output_schema") {
		opts.Set("output_schema", Arg(args, 1))
	}
	if !opts.Has("response_format") {
		opts.Set("response_format", Str("json"))
	}
	if !opts.Has("output_validation") {
		opts.Set("output_validation", Str("error"))
	}
	return []Value{Arg(args, 0), system, DictValue(opts)}
}

// structuredEnvelope is llm_call_structured_result's answer.
func structuredEnvelope(o *schemaOutcome, ok, repaired bool, category string) Value {
	env := NewDict(11)
	env.Set("ok", Bool(ok))
	var data Value
	usage := DictValue(NewDict(0))
	model, provider := Str(""), Str("")
	extracted := false
	if o.res.k == KindDict {
		d := o.res.r.(*Dict)
		if ok {
			data, _ = d.Get("data")
		}
		if u, has := d.Get("usage"); has {
			usage = u
		}
		model, _ = d.Get("model")
		provider, _ = d.Get("provider")
		if d.Has("data") {
			t := strings.TrimSpace(o.raw)
			if _, err := ParseJSON(t); err != nil && t != "" {
				ex := extractJSON(o.raw)
				if _, err := ParseJSON(ex); err == nil && ex != t {
					extracted = true
				}
			}
		}
	}
	env.Set("data", data)
	env.Set("raw_text", Str(o.raw))
	if ok {
		env.Set("error", Str(""))
		env.Set("error_category", Nil)
	} else {
		msg := strings.Join(o.errs, "; ")
		if msg == "" {
			msg = "structured call failed without specific errors"
		}
		env.Set("error", Str(msg))
		env.Set("error_category", Str(category))
	}
	env.Set("attempts", Int(int64(o.attempts)))
	env.Set("repaired", Bool(repaired))
	env.Set("extracted_json", Bool(extracted))
	env.Set("usage", usage)
	env.Set("model", model)
	env.Set("provider", provider)
	return DictValue(env)
}

func transportEnvelope(err error, provider, model string) Value {
	e := asError(err)
	msg, cat := Display(e.Value), orDefault(e.Category, "generic")
	if e.Value.k == KindDict {
		m, _ := e.Value.r.(*Dict).Get("message")
		c, _ := e.Value.r.(*Dict).Get("category")
		msg, cat = Display(m), Display(c)
	}
	env := NewDict(11)
	env.Set("ok", False)
	env.Set("data", Nil)
	env.Set("raw_text", Str(""))
	env.Set("error", Str(msg))
	env.Set("error_category", Str(cat))
	env.Set("attempts", Int(0))
	env.Set("repaired", False)
	env.Set("extracted_json", False)
	usage := NewDict(5)
	for _, k := range []string{"input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cache_creation_input_tokens"} {
		usage.Set(k, Int(0))
	}
	env.Set("usage", DictValue(usage))
	env.Set("model", Str(model))
	env.Set("provider", Str(provider))
	return DictValue(env)
}

func llmStructuredResult(c *Call, args []Value) (Value, error) {
	rewritten := structuredArgs(args)
	opts := rewritten[2].r.(*Dict)
	var repair *Dict
	repairOn := false
	if rv, ok := opts.Get("repair"); ok {
		opts.Delete("repair")
		switch rv.k {
		case KindBool:
			repairOn = rv.AsBool()
			repair = NewDict(0)
		case KindDict:
			repair = rv.r.(*Dict).clone()
			repairOn = true
			if en, ok := repair.Get("enabled"); ok && en.k == KindBool {
				repairOn = en.AsBool()
			}
			repair.Delete("enabled")
		}
	}
	req := buildLLMRequest(rewritten)
	o, err := llmSchemaLoop(c, rewritten)
	if err != nil {
		return transportEnvelope(err, req.provider, req.model), nil
	}
	if len(o.errs) == 0 {
		return structuredEnvelope(o, true, false, ""), nil
	}
	if repair != nil && repairOn {
		prompt := "The following text was supposed to be JSON conforming to the configured schema, but it failed validation. " +
			"Repair it and respond with ONLY the corrected JSON — no prose, no markdown fences, no commentary.\n\n" +
			"Validation errors: " + strings.Join(o.errs, "; ") + "\n\nOriginal text:\n" + o.raw + "\n\nReply with valid JSON only."
		ro := opts.clone()
		ro.Set("schema_retries", Int(0))
		for k, v := range repair.m {
			ro.Set(k, v)
		}
		if r, err := llmSchemaLoop(c, []Value{Str(prompt), Nil, DictValue(ro)}); err == nil && len(r.errs) == 0 {
			r.attempts = o.attempts
			return structuredEnvelope(r, true, true, ""), nil
		}
		return structuredEnvelope(o, false, false, "repair_failed"), nil
	}
	cat := "missing_json"
	if o.res.k == KindDict && o.res.r.(*Dict).Has("data") {
		cat = "schema_validation"
	}
	return structuredEnvelope(o, false, false, cat), nil
}

func installLlmCall(lib *Library) {
	lib.Builtin("llm_mock", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		if v.k != KindDict {
			return Nil, runtimeError("llm_mock: expected a dict argument")
		}
		m, err := scriptedOf(v)
		if err != nil {
			return Nil, runtimeError("llm_mock: %v", err)
		}
		llmOf(c).script.Add(m)
		return Nil, nil
	})
	lib.Builtin("llm_mock_calls", func(c *Call, args []Value) (Value, error) {
		st := llmOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		out := make([]Value, len(st.calls))
		for i, call := range st.calls {
			d := NewDict(4)
			d.Set("messages", NewListValue(append([]Value(nil), call.messages...)))
			d.Set("system", call.system)
			d.Set("tools", call.tools)
			th := call.thinking
			if th == nil {
				th = NewDict(1)
				th.Set("mode", Str("disabled"))
			}
			d.Set("thinking", DictValue(th.clone()))
			out[i] = DictValue(d)
		}
		return NewListValue(out), nil
	})
	lib.Builtin("llm_mock_clear", func(c *Call, args []Value) (Value, error) {
		st := llmOf(c)
		st.script.Clear()
		st.mu.Lock()
		st.calls, st.scopes = nil, nil
		st.cache = map[string]bool{}
		st.mu.Unlock()
		return Nil, nil
	})
	lib.Builtin("llm_mock_push_scope", func(c *Call, args []Value) (Value, error) {
		st := llmOf(c)
		st.mu.Lock()
		// A scope saves the answers, the call log and the prompt cache,
		// and starts each empty, as upstream's scopes do.
		st.scopes = append(st.scopes, llmScope{st.script.Snapshot(), st.calls, st.cache})
		st.script.Clear()
		st.calls, st.cache = nil, map[string]bool{}
		st.mu.Unlock()
		return Nil, nil
	})
	lib.Builtin("llm_mock_pop_scope", func(c *Call, args []Value) (Value, error) {
		st := llmOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		if len(st.scopes) == 0 {
			return Nil, throwValue(Str("llm_mock_pop_scope: no scope to pop"))
		}
		top := st.scopes[len(st.scopes)-1]
		st.script.Restore(top.script)
		st.calls, st.cache = top.calls, top.cache
		st.scopes = st.scopes[:len(st.scopes)-1]
		return Nil, nil
	})
	lib.Builtin("llm_call", withTranscript(llmCallWithRetries))
	lib.Builtin("llm_call_structured", func(c *Call, args []Value) (Value, error) {
		res, err := llmCallWithRetries(c, structuredArgs(args))
		if err != nil {
			return Nil, err
		}
		d, _ := res.r.(*Dict).Get("data")
		return d, nil
	})
	lib.Builtin("llm_call_structured_safe", func(c *Call, args []Value) (Value, error) {
		env := NewDict(3)
		res, err := llmCallWithRetries(c, structuredArgs(args))
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				return Nil, err
			}
			errv := e.Value
			if errv.k != KindDict {
				cat := orDefault(e.Category, classifyMessage(Display(errv)))
				kind, reason := llmKindReason(cat)
				d := NewDict(4)
				d.Set("category", Str(cat))
				d.Set("kind", Str(kind))
				d.Set("reason", Str(reason))
				d.Set("message", Str(Display(errv)))
				errv = DictValue(d)
			}
			env.Set("ok", False)
			env.Set("data", Nil)
			env.Set("error", errv)
			return DictValue(env), nil
		}
		d, _ := res.r.(*Dict).Get("data")
		env.Set("ok", True)
		env.Set("data", d)
		env.Set("error", Nil)
		return DictValue(env), nil
	})
	lib.Builtin("llm_call_structured_result", llmStructuredResult)
	lib.Builtin("llm_call_safe", func(c *Call, args []Value) (Value, error) {
		env := NewDict(3)
		res, err := llmCallWithRetries(c, args)
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				return Nil, err
			}
			errv := e.Value
			if errv.k != KindDict {
				d := NewDict(2)
				d.Set("category", Str(orDefault(e.Category, classifyMessage(Display(errv)))))
				d.Set("message", Str(Display(errv)))
				errv = DictValue(d)
			}
			env.Set("ok", False)
			env.Set("response", Nil)
			env.Set("error", errv)
			return DictValue(env), nil
		}
		env.Set("ok", True)
		env.Set("response", res)
		env.Set("error", Nil)
		return DictValue(env), nil
	})
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

var _ = json.Valid

// llmKindReason classifies a category as upstream's LLM error taxonomy.
func llmKindReason(category string) (kind, reason string) {
	switch category {
	case "rate_limit":
		return "transient", "rate_limit"
	case "timeout":
		return "transient", "timeout"
	case "overloaded", "server_error":
		return "transient", "server_error"
	case "transient_network":
		return "transient", "network_error"
	case "auth":
		return "terminal", "auth_failure"
	case "not_found":
		return "terminal", "model_unavailable"
	}
	return "terminal", "unknown"
}

// thinkingConfig normalises the thinking option to {mode, budget_tokens?,
// level?}: true, "enabled" or a dict without mode is enabled; false, nil
// or {enabled: false} is disabled; "low" | "medium" | "high" is effort.
func thinkingConfig(opts *Dict) (*Dict, error) {
	out := NewDict(2)
	mode := func(m string) (*Dict, error) { out.Set("mode", Str(m)); return out, nil }
	raw, ok := opts.Get("thinking")
	if !ok || raw.k == KindNil || (raw.k == KindBool && !raw.AsBool()) {
		return mode("disabled")
	}
	bad := func(msg string) (*Dict, error) { return nil, throwValue(Str("llm_call: " + msg)) }
	effort := func(level string) (*Dict, error) {
		switch level {
		case "low", "medium", "high":
			out.Set("level", Str(level))
			return mode("effort")
		}
		return bad(fmt.Sprintf("thinking.level: expected \"low\" | \"medium\" | \"high\", got %q", level))
	}
	switch raw.k {
	case KindBool:
		return mode("enabled")
	case KindString:
		switch s := raw.r.(string); s {
		case "disabled", "off", "none":
			return mode("disabled")
		case "enabled", "on", "true":
			return mode("enabled")
		case "adaptive":
			return mode("adaptive")
		case "low", "medium", "high":
			return effort(s)
		default:
			return bad(fmt.Sprintf("thinking: expected bool, dict, or one of \"enabled\" | \"adaptive\" | \"low\" | \"medium\" | \"high\", got %q", s))
		}
	case KindDict:
		d := raw.r.(*Dict)
		if e, ok := d.Get("enabled"); ok && !e.Truthy() {
			return mode("disabled")
		}
		m := "enabled"
		if v, ok := d.Get("mode"); ok && v.k == KindString {
			m = v.r.(string)
		}
		switch m {
		case "disabled", "off", "none":
			return mode("disabled")
		case "enabled":
			if b, ok := d.Get("budget_tokens"); ok && b.k != KindNil {
				if b.k != KindInt || b.n < 0 {
					return bad("thinking.budget_tokens: expected a non-negative int")
				}
				out.Set("budget_tokens", b)
			}
			return mode("enabled")
		case "adaptive":
			return mode("adaptive")
		case "effort":
			l, ok := d.Get("level")
			if !ok || l.k != KindString {
				return bad("thinking.level is required when thinking.mode is \"effort\"")
			}
			return effort(l.r.(string))
		}
		return bad(fmt.Sprintf("thinking.mode: expected \"disabled\" | \"enabled\" | \"adaptive\" | \"effort\", got %q", m))
	}
	if raw.Truthy() {
		return mode("enabled")
	}
	return mode("disabled")
}

// cacheHitRatio is the share of the prompt read from the provider's
// cache. Providers differ in whether input_tokens includes the cached
// tokens; when the cache counts exceed it they are taken as separate.
func cacheHitRatio(input, read, write int64) float64 {
	input, read, write = max(input, 0), max(read, 0), max(write, 0)
	total := input
	if read+write > input {
		total = input + read + write
	}
	if total == 0 {
		return 0
	}
	return float64(read) / float64(total)
}

// cacheSavingsUSD is what the cache saved against the route's input
// price: Anthropic-style models bill cache reads at a tenth of the input
// price and cache writes at 1.25 times it; OpenAI-style models bill cached
// input at half price. Models without a known price save nothing.
func cacheSavingsUSD(model string, read, write int64) float64 {
	perTok, family := modelInputPrice(model)
	if perTok == 0 {
		return 0
	}
	readRate, writeRate := perTok, perTok
	switch family {
	case "anthropic":
		readRate, writeRate = perTok*0.1, perTok*1.25
	case "openai":
		readRate = perTok * 0.5
	}
	return float64(max(read, 0))*(perTok-readRate) + float64(max(write, 0))*(perTok-writeRate)
}

// modelInputPrice is the model's input price per token and its provider
// family (catalog.ModelPrice), 0 for a model without a known price.
func modelInputPrice(model string) (float64, string) {
	p, ok := catalog.ModelPrice(model)
	if !ok {
		return 0, ""
	}
	return p.InputPerMTok / 1e6, p.Provider
}
