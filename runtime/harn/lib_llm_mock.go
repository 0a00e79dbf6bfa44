package harn

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/catalog"
)

// Model calls, mock and replay forms only: llm_mock registers canned
// answers (FIFO, or by glob `match` on the prompt), llm_mock_calls lists
// what was asked, a .llm-mock.jsonl tape (Options.LLMMock, --llm-mock-
// replay) replays recorded answers in order. llm_call and llm_call_safe
// answer from the tape, then the registered mocks, then a deterministic
// default. Real providers (HTTP, credentials) belong to runtime/llm and
// the harness.llm capability; without a mock or a tape, a call to a real
// provider is "not available in this runtime".

type llmMock struct {
	text         string
	toolCalls    []Value
	match        string
	consume      bool
	inputTokens  *int64
	outputTokens *int64
	cacheRead    *int64
	cacheWrite   *int64
	thinking     Value
	thinkSummary Value
	stopReason   Value
	model        string
	provider     string
	errCategory  string
	errMessage   string
	retryAfterMs *int64
}

type llmCall struct {
	messages []Value
	system   Value
	tools    Value
	thinking *Dict
}

type llmState struct {
	mu     sync.Mutex
	tape   []*llmMock
	tapeOn bool
	mocks  []*llmMock
	scopes [][]*llmMock
	calls  []llmCall
	cache  map[string]bool
	usage  struct{ input, output, durationMs, calls int64 }
}

func llmOf(c *Call) *llmState {
	in := c.th.in
	return in.State("llm", func() any {
		st := &llmState{cache: map[string]bool{}}
		if in.opts.LLMMock != nil {
			st.tapeOn = true
			st.tape, _ = parseLLMTape(in.opts.LLMMock)
		}
		return st
	}).(*llmState)
}

// parseLLMTape reads a .llm-mock.jsonl tape: one mock object per line.
func parseLLMTape(b []byte) ([]*llmMock, error) {
	var out []*llmMock
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		v, err := parseJSON(text)
		if err != nil || v.k != KindDict {
			return out, fmt.Errorf("line %d: not a JSON object", line)
		}
		m, err := mockFromDict(v.r.(*Dict))
		if err != nil {
			return out, fmt.Errorf("line %d: %v", line, err)
		}
		out = append(out, m)
	}
	return out, sc.Err()
}

func optInt(d *Dict, k string) *int64 {
	if v, ok := d.Get(k); ok && v.k == KindInt {
		n := int64(v.n)
		return &n
	}
	return nil
}

func optStr(d *Dict, k string) string {
	if v, ok := d.Get(k); ok && v.k != KindNil {
		return Display(v)
	}
	return ""
}

func mockFromDict(d *Dict) (*llmMock, error) {
	m := &llmMock{text: optStr(d, "text"), match: optStr(d, "match"), model: optStr(d, "model"), provider: optStr(d, "provider")}
	if m.model == "" {
		m.model = "mock"
	}
	if v, ok := d.Get("consume_match"); ok && v.k == KindBool && v.AsBool() {
		m.consume = true
	}
	m.inputTokens, m.outputTokens = optInt(d, "input_tokens"), optInt(d, "output_tokens")
	m.cacheRead = optInt(d, "cache_read_tokens")
	if m.cacheWrite = optInt(d, "cache_write_tokens"); m.cacheWrite == nil {
		m.cacheWrite = optInt(d, "cache_creation_input_tokens")
	}
	if v, ok := d.Get("thinking"); ok {
		m.thinking = v
	}
	if v, ok := d.Get("thinking_summary"); ok {
		m.thinkSummary = v
	}
	if v, ok := d.Get("stop_reason"); ok {
		m.stopReason = v
	}
	if tc, ok := d.Get("tool_calls"); ok && tc.k == KindList {
		for i, x := range tc.r.(*List).items {
			if x.k != KindDict {
				continue
			}
			name := optStr(x.r.(*Dict), "name")
			if name == "" {
				name = "unknown"
			}
			args, ok := x.r.(*Dict).Get("arguments")
			if !ok || args.k == KindNil {
				args = DictValue(NewDict(0))
			}
			call := NewDict(4)
			call.Set("id", Str("mock_call_"+strconv.Itoa(i+1)))
			call.Set("type", Str("tool_call"))
			call.Set("name", Str(name))
			call.Set("arguments", args)
			m.toolCalls = append(m.toolCalls, DictValue(call))
		}
	}
	if e, ok := d.Get("error"); ok && e.k != KindNil {
		if e.k != KindDict {
			return nil, fmt.Errorf("error must be a dict {category, message, retry_after_ms?}")
		}
		ed := e.r.(*Dict)
		m.errCategory = optStr(ed, "category")
		if m.errCategory == "" {
			return nil, fmt.Errorf("error.category is required")
		}
		if parseCategory(m.errCategory) != m.errCategory {
			return nil, fmt.Errorf("unknown error category `%s`", m.errCategory)
		}
		m.errMessage = optStr(ed, "message")
		m.retryAfterMs = optInt(ed, "retry_after_ms")
	}
	return m, nil
}

// take finds the mock answering a prompt: the first unconditional mock
// (consumed), else the first whose pattern matches (consumed when asked).
func takeMock(list *[]*llmMock, matchText string) *llmMock {
	for i, m := range *list {
		if m.match == "" {
			*list = append((*list)[:i], (*list)[i+1:]...)
			return m
		}
	}
	for i, m := range *list {
		if m.match != "" && globMatches(m.match, matchText) {
			if m.consume {
				*list = append((*list)[:i], (*list)[i+1:]...)
			}
			return m
		}
	}
	return nil
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
}

func buildLLMRequest(args []Value) *llmRequest {
	r := &llmRequest{system: arg(args, 1), model: "mock", provider: "mock", opts: NewDict(0)}
	if o := arg(args, 2); o.k == KindDict {
		r.opts = o.r.(*Dict)
	}
	if m := optStr(r.opts, "model"); m != "" {
		r.model = m
	}
	if p := optStr(r.opts, "provider"); p != "" {
		r.provider = p
	}
	if t, ok := r.opts.Get("tools"); ok {
		r.tools = t
	}
	r.thinking, r.err = thinkingConfig(r.opts)
	if ms, ok := r.opts.Get("messages"); ok && ms.k == KindList {
		r.messages = append(r.messages, ms.r.(*List).SharedItems()...)
	}
	if p := arg(args, 0); p.k != KindNil {
		msg := NewDict(2)
		msg.Set("role", Str("user"))
		msg.Set("content", p)
		r.messages = append(r.messages, DictValue(msg))
	}
	return r
}

// answer resolves one call against the tape, the mocks or the default.
func (st *llmState) answer(c *Call, r *llmRequest) (Value, error) {
	if r.err != nil {
		return Nil, r.err
	}
	defer c.th.in.spanEnd(c.th.in.spanStart("llm_call", r.model))
	var parts []string
	for _, m := range r.messages {
		collectStrings(m, &parts, 0)
	}
	matchText := strings.Join(parts, "\n")
	prompt := ""
	for i := len(r.messages) - 1; i >= 0; i-- {
		if m := r.messages[i]; m.k == KindDict {
			if content, ok := m.r.(*Dict).Get("content"); ok {
				var ps []string
				collectStrings(content, &ps, 0)
				if p := strings.Join(ps, "\n"); strings.TrimSpace(p) != "" {
					prompt = p
					break
				}
			}
		}
	}
	st.mu.Lock()
	st.calls = append(st.calls, llmCall{messages: r.messages, system: r.system, tools: r.tools, thinking: r.thinking})
	var m *llmMock
	if st.tapeOn {
		m = takeMock(&st.tape, matchText)
	}
	if m == nil {
		m = takeMock(&st.mocks, matchText)
	}
	tapeOn := st.tapeOn
	st.mu.Unlock()
	if m == nil && tapeOn {
		snippet := []rune(matchText)
		if len(snippet) > 200 {
			snippet = append(snippet[:200], []rune("...")...)
		}
		return Nil, runtimeError("No --llm-mock fixture matched prompt: %q", string(snippet))
	}
	if m == nil && r.provider != "mock" {
		return Nil, plainError("not available in this runtime: llm_call to provider " + r.provider +
			" needs the llm capability with an HTTP provider (harness.llm); run with a .llm-mock.jsonl tape or llm_mock answers, or provider: \"mock\"")
	}
	if m != nil && m.errCategory != "" {
		msg := m.errMessage
		if m.retryAfterMs != nil {
			sep := "\n"
			if msg == "" || strings.HasSuffix(msg, "\n") {
				sep = ""
			}
			msg += sep + "retry-after: " + FormatFloat(float64(*m.retryAfterMs)/1000) + "\n"
		}
		return Nil, llmError(m.errCategory, msg, m.retryAfterMs, r.provider, r.model)
	}
	res := NewDict(16)
	text := ""
	model, provider := r.model, "mock"
	var toolCalls []Value
	in, out := int64(len(prompt)), int64(30)
	var cacheRead, cacheWrite int64
	if m != nil {
		text, model = m.text, m.model
		if m.provider != "" {
			provider = m.provider
		}
		toolCalls = m.toolCalls
		in = int64(len(matchText))
		if m.inputTokens != nil {
			in = *m.inputTokens
		}
		if m.outputTokens != nil {
			out = *m.outputTokens
		}
		if m.cacheRead != nil {
			cacheRead = *m.cacheRead
		}
		if m.cacheWrite != nil {
			cacheWrite = *m.cacheWrite
		}
		if m.thinking.k != KindNil {
			res.Set("thinking", m.thinking)
		}
		if m.thinkSummary.k != KindNil {
			res.Set("thinking_summary", m.thinkSummary)
		}
		if m.stopReason.k != KindNil {
			res.Set("stop_reason", m.stopReason)
		}
	} else if r.tools.k == KindList && r.tools.r.(*List).Len() > 0 {
		first := r.tools.r.(*List).items[0]
		name := "unknown"
		if first.k == KindDict {
			if n := optStr(first.r.(*Dict), "name"); n != "" {
				name = n
			}
		}
		call := NewDict(4)
		call.Set("id", Str("mock_call_1"))
		call.Set("type", Str("tool_call"))
		call.Set("name", Str(name))
		call.Set("arguments", DictValue(NewDict(0)))
		toolCalls = []Value{DictValue(call)}
		out = 20
	} else {
		if prompt == "" {
			text = "Mock LLM response"
		} else {
			p := []rune(prompt)
			if len(p) > 100 {
				p = p[:100]
			}
			text = fmt.Sprintf("Mock response to %d-word prompt: %s", len(strings.Fields(prompt)), string(p))
		}
		if r.system.k == KindString && strings.Contains(r.system.r.(string), "<done>") {
			text = "<assistant_prose>" + text + "</assistant_prose>\n<done>##DONE##</done>"
		}
	}
	if cached, ok := r.opts.Get("cache"); ok && cached.Truthy() && cacheRead == 0 && cacheWrite == 0 && in > 0 {
		var key strings.Builder
		writeJSON(&key, NewListValue(append([]Value{Str(model), r.system}, r.messages...)), 0)
		st.mu.Lock()
		if st.cache[key.String()] {
			cacheRead = in
		} else {
			st.cache[key.String()] = true
			cacheWrite = in
		}
		st.mu.Unlock()
	}
	res.Set("text", Str(text))
	res.Set("model", Str(model))
	res.Set("provider", Str(provider))
	res.Set("input_tokens", Int(in))
	res.Set("output_tokens", Int(out))
	res.Set("cache_read_tokens", Int(cacheRead))
	res.Set("cache_write_tokens", Int(cacheWrite))
	res.Set("cache_creation_input_tokens", Int(cacheWrite))
	usage := NewDict(5)
	usage.Set("input_tokens", Int(in))
	usage.Set("output_tokens", Int(out))
	usage.Set("cache_read_tokens", Int(cacheRead))
	usage.Set("cache_write_tokens", Int(cacheWrite))
	usage.Set("cache_creation_input_tokens", Int(cacheWrite))
	ratio, savings := cacheHitRatio(in, cacheRead, cacheWrite), cacheSavingsUSD(model, cacheRead, cacheWrite)
	usage.Set("cache_hit_ratio", Float(ratio))
	usage.Set("cache_savings_usd", Float(savings))
	res.Set("cache_hit_ratio", Float(ratio))
	res.Set("cache_savings_usd", Float(savings))
	res.Set("usage", DictValue(usage))
	if len(toolCalls) > 0 {
		res.Set("tool_calls", NewListValue(append([]Value(nil), toolCalls...)))
	}
	res.Set("prose", Str(proseOf(text)))
	st.mu.Lock()
	st.usage.input += in
	st.usage.output += out
	st.usage.calls++
	st.mu.Unlock()
	return DictValue(res), nil
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
	st := llmOf(c)
	r := buildLLMRequest(args)
	retries := int64(0)
	if v, ok := r.opts.Get("llm_retries"); ok && v.k == KindInt {
		retries = int64(v.n)
	}
	structured := false
	if f := optStr(r.opts, "response_format"); f == "json" || f == "json_object" {
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
	o := &schemaOutcome{mode: optStr(r.opts, "output_validation")}
	if v, ok := r.opts.Get("schema_retries"); ok && v.k == KindInt {
		o.retries = int64(v.n)
	}
	for attempt := int64(0); ; attempt++ {
		var res Value
		var err error
		for try := int64(0); ; try++ {
			res, err = st.answer(c, r)
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
		data, perr := parseJSON(extractJSON(o.raw))
		if perr == nil {
			d.Set("data", data)
		}
		if schema == nil {
			return o, nil
		}
		if perr != nil {
			o.errs = []string{"response is not valid JSON: " + perr.Error()}
		} else if nv, errs := validateSchema(data, schema, "", schemaOpts{applyDefaults: true}, 0); len(errs) > 0 {
			o.errs = errs
		} else {
			d.Set("data", nv)
			return o, nil
		}
		if attempt >= o.retries {
			return o, nil
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
	if o := arg(args, 2); o.k == KindDict {
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
		opts.Set("output_schema", arg(args, 1))
	}
	if !opts.Has("response_format") {
		opts.Set("response_format", Str("json"))
	}
	if !opts.Has("output_validation") {
		opts.Set("output_validation", Str("error"))
	}
	return []Value{arg(args, 0), system, DictValue(opts)}
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
			if _, err := parseJSON(t); err != nil && t != "" {
				ex := extractJSON(o.raw)
				if _, err := parseJSON(ex); err == nil && ex != t {
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

func init() {
	Register("llm_mock", func(c *Call, args []Value) (Value, error) {
		v := arg(args, 0)
		if v.k != KindDict {
			return Nil, runtimeError("llm_mock: expected a dict argument")
		}
		m, err := mockFromDict(v.r.(*Dict))
		if err != nil {
			return Nil, runtimeError("llm_mock: %v", err)
		}
		st := llmOf(c)
		st.mu.Lock()
		st.mocks = append(st.mocks, m)
		st.mu.Unlock()
		return Nil, nil
	})
	Register("llm_mock_calls", func(c *Call, args []Value) (Value, error) {
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
	Register("llm_mock_clear", func(c *Call, args []Value) (Value, error) {
		st := llmOf(c)
		st.mu.Lock()
		st.mocks, st.calls, st.scopes = nil, nil, nil
		st.cache = map[string]bool{}
		st.mu.Unlock()
		return Nil, nil
	})
	Register("llm_mock_push_scope", func(c *Call, args []Value) (Value, error) {
		st := llmOf(c)
		st.mu.Lock()
		st.scopes = append(st.scopes, st.mocks)
		st.mocks = nil
		st.mu.Unlock()
		return Nil, nil
	})
	Register("llm_mock_pop_scope", func(c *Call, args []Value) (Value, error) {
		st := llmOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		if len(st.scopes) == 0 {
			return Nil, throwValue(Str("llm_mock_pop_scope: no scope to pop"))
		}
		st.mocks = st.scopes[len(st.scopes)-1]
		st.scopes = st.scopes[:len(st.scopes)-1]
		return Nil, nil
	})
	Register("llm_call", llmCallWithRetries)
	Register("llm_call_structured", func(c *Call, args []Value) (Value, error) {
		res, err := llmCallWithRetries(c, structuredArgs(args))
		if err != nil {
			return Nil, err
		}
		d, _ := res.r.(*Dict).Get("data")
		return d, nil
	})
	Register("llm_call_structured_safe", func(c *Call, args []Value) (Value, error) {
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
	Register("llm_call_structured_result", llmStructuredResult)
	Register("llm_call_safe", func(c *Call, args []Value) (Value, error) {
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

// modelInputPrice finds a catalog route for the model (by model name or
// wire name, or a dated variant of either) and returns its input price
// per token and its provider.
func modelInputPrice(model string) (float64, string) {
	for _, r := range catalog.Default().Routes() {
		rt := r.Runtime
		if rt.InputPricePerMTok == nil || *rt.InputPricePerMTok == 0 {
			continue
		}
		if model == r.Model || model == rt.WireModel || strings.HasPrefix(model, r.Model+"-") {
			return *rt.InputPricePerMTok / 1e6, r.Provider
		}
	}
	return 0, ""
}
