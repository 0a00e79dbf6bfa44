package harn

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/llm"
	"github.com/harnlang/harn-check/runtime/runner"
)

// Model turns of Harn's builtins (llm_call and its family, harness.llm.call)
// go through runtime/llm's one stack, as Leia's turns do:
//
//   - the mock is runtime/llm's Mock in Harn's echo style; its scripts are
//     the --llm-mock tape (a .llm-mock.jsonl file, read by
//     llm.ParseMockScript) and the answers llm_mock registers. It answers
//     when the call names provider "mock", when a tape is given, when
//     llm_mock answers are registered (upstream's rule), and every call
//     under --llm-mock without a tape;
//   - other providers are routes of the run's catalog (harn.toml or the
//     built-in one) made by llm.New: credentials from the environment the
//     route names, HTTP only under the program's --allow-net grant;
//   - --llm-replay answers every call strictly from a .records.json
//     fixture (llm.Replay), --llm-record records every call (llm.Recorder),
//     --llm-trace receives metadata-only turn events.
//
// llmTurn is the one entry point: a model turn from Harn code.

// llmState is the run's model-call state.
type llmState struct {
	mu sync.Mutex
	// mock is the run's one mock; script holds llm_mock's answers (its
	// Script), the tape the --llm-mock file's (its Tape).
	mock    *llm.Mock
	script  *llm.MockScript
	tapeErr error
	scopes  []llmScope
	calls   []llmCall
	cache   map[string]bool
	usage   struct{ input, output, durationMs, calls int64 }
	// budget is llm_budget's session cap in US dollars (nil = none);
	// spent is the estimated cost of the run's calls so far.
	budget *float64
	spent  float64
	// mode is the run's runner.LLMConfig.Mode; replay and recorder serve
	// --llm-replay and --llm-record.
	mode     string
	replay   *llm.Replay
	recorder *llm.Recorder
	fixture  string
	trace    llm.TraceSink
	live     map[string]llm.Provider
	// applied is the structural experiment a call's last turn applied,
	// until its transcript is built (takeAppliedExperiment).
	applied map[*Call]Value
}

// llmCall is what llm_mock_calls reports of one call.
type llmCall struct {
	messages []Value
	system   Value
	tools    Value
	thinking *Dict
}

func llmOf(c *Call) *llmState { return c.th.in.llm() }

// llm is the run's model-call state, made on first use from Options.
func (in *Interp) llm() *llmState {
	return in.State("llm", func() any {
		st := &llmState{cache: map[string]bool{}, script: llm.NewMockScript(), live: map[string]llm.Provider{}}
		r := catalog.Route{Provider: "mock", Model: "harn", Operations: []string{catalog.OpTextGeneration}}
		r.Runtime.API = catalog.APIMock
		st.mock = llm.NewMock(r)
		st.mock.Echo, st.mock.Script = true, st.script
		if in.opts.LLMMock != nil {
			name := in.opts.LLMMockName
			if name == "" {
				name = "--llm-mock"
			}
			answers, err := llm.ParseMockScript(in.opts.LLMMock, name, func(cat string) bool { return parseCategory(cat) == cat })
			st.mock.Tape, st.tapeErr = llm.NewMockScript(answers...), err
		}
		lc := in.opts.LLM
		st.mode, st.fixture = lc.Mode, lc.Fixture
		if lc.Trace != nil {
			st.trace = llm.NewJSONLTrace(lc.Trace)
		}
		switch lc.Mode {
		case runner.LLMReplay:
			recs, err := llm.LoadRecords(lc.Fixture)
			if err != nil {
				st.tapeErr = fmt.Errorf("--llm-replay: %w", err)
			}
			st.replay = llm.NewReplay(recs)
		case runner.LLMRecord:
			st.recorder = &llm.Recorder{}
		}
		return st
	}).(*llmState)
}

// FinishLLM ends the run's model calls after the program ran: a replay
// reports its mismatch, exhaustion or leftover records, a recording is
// written to its fixture. The program's own error comes first.
func (in *Interp) FinishLLM(runErr error) error {
	in.mu.Lock()
	v, ok := in.ext["llm"]
	in.mu.Unlock()
	if !ok {
		if in.opts.LLM.Mode != runner.LLMRecord && in.opts.LLM.Mode != runner.LLMReplay {
			return runErr
		}
		v = in.llm()
	}
	st := v.(*llmState)
	var err error
	switch {
	case st.replay != nil:
		err = st.replay.Finish()
	case st.recorder != nil:
		if serr := llm.SaveRecords(st.fixture, st.recorder.Records()); serr != nil {
			err = fmt.Errorf("--llm-record: %w", serr)
		}
	}
	if runErr != nil || err == nil {
		return runErr
	}
	return err
}

// provider is the provider that answers a request and the source the
// trace names: live, mock or replay.
func (st *llmState) provider(c *Call, r *llmRequest) (llm.Provider, string, error) {
	if st.tapeErr != nil {
		return nil, "", st.tapeErr
	}
	if st.mode == runner.LLMReplay {
		return st.replay, "replay", nil
	}
	if st.mode == runner.LLMMock || r.provider == "mock" || st.mock.Tape != nil || len(st.script.Snapshot()) > 0 {
		return st.record(st.mock), "mock", nil
	}
	h := c.th.in.host
	lo := llm.Options{Getenv: h.LookupEnv, CheckNet: h.CheckNet, NoLiveCalls: c.th.in.opts.LLM.NoLiveCalls}
	if err := lo.CheckLive(r.provider); err != nil {
		return nil, "", fmt.Errorf("%s: %w", c.Name, err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	cat := c.th.in.evaluator().Catalog()
	if cat == nil {
		cat = catalog.Default()
	}
	route, ok := cat.Lookup(r.provider, r.model)
	if !ok {
		return nil, "", fmt.Errorf("%s: no route %s/%s in the route catalog (harn.toml or the built-in catalog); use provider \"mock\", llm_mock answers or an .llm-mock.jsonl tape", c.Name, r.provider, r.model)
	}
	p, ok := st.live[route.Name()]
	if !ok {
		var err error
		if p, err = llm.New(route, lo); err != nil {
			return nil, "", fmt.Errorf("%s: %v", c.Name, err)
		}
		st.live[route.Name()] = p
	}
	return st.record(p), "live", nil
}

// record wraps p in the run's recorder under --llm-record.
func (st *llmState) record(p llm.Provider) llm.Provider {
	if st.recorder != nil {
		return st.recorder.Wrap(p)
	}
	return p
}

func (st *llmState) emit(ev llm.TraceEvent) {
	if st.trace != nil {
		st.trace.Emit(ev)
	}
}

// llmTurn is one model turn from Harn code: r (buildLLMRequest of the
// builtin's prompt, system and options) goes to the run's provider
// (provider), and the answer comes back as llm_call's result dict
// {text, model, provider, input_tokens, output_tokens, cache_*, usage,
// tool_calls?, thinking?, stop_reason?, prose}. A provider failure is
// the dict llm_call throws ({category, kind, reason, message, ...}).
func llmTurn(c *Call, r *llmRequest) (Value, error) {
	if r.err != nil {
		return Nil, r.err
	}
	if err := applyStructuralExperiment(c, r); err != nil {
		return Nil, err
	}
	st := llmOf(c)
	if err := st.capabilityGate(c, r); err != nil {
		return Nil, err
	}
	defer c.th.in.spanEnd(c.th.in.spanStart("llm_call", r.model))
	req := r.turnRequest()
	if err := st.preflight(r, req.MaxTokens); err != nil {
		return Nil, err
	}
	st.mu.Lock()
	st.calls = append(st.calls, llmCall{messages: r.messages, system: r.system, tools: offeredTools(r.tools), thinking: r.thinking})
	st.mu.Unlock()
	p, source, err := st.provider(c, r)
	if err != nil {
		return Nil, runtimeError("%v", err)
	}
	hash := req.Hash()
	st.emit(llm.TraceEvent{Type: "turn_start", Model: req.Model, MessageCount: len(req.Messages), ToolCount: len(req.Tools), RequestHash: hash, Source: source})
	var res llm.TurnResult
	c.Block(func() { res, err = p.Turn(c.Context(), req, r.onStream) })
	if err != nil {
		st.emit(llm.TraceEvent{Type: "turn_error", Model: req.Model, ErrorKind: llm.ErrorKindOf(err), RequestHash: hash, Source: source})
		return Nil, turnError(err, r)
	}
	st.emit(llm.TraceEvent{Type: "turn_end", Model: req.Model, Status: res.NormalizedStatus(), MessageCount: len(req.Messages), ToolCount: len(req.Tools),
		RequestHash: hash, ResponseHash: llm.ValueHash(res.Text), InputTokens: res.Usage.InputTokens, OutputTokens: res.Usage.OutputTokens, Cost: res.Usage.Cost, Source: source})
	out := st.resultDict(r, res, source)
	if err := st.charge(r.model, res.Usage.InputTokens, res.Usage.OutputTokens); err != nil {
		return Nil, err
	}
	return out, nil
}

// turnError is the error a failed turn raises: a scripted failure or a
// provider's typed failure as llm_call's error dict (category by
// upstream's taxonomy), a replay or tape miss as a runtime error.
func turnError(err error, r *llmRequest) error {
	var se *llm.ScriptedError
	var pe *llm.Error
	var ue *llm.UnmatchedError
	switch {
	case errors.As(err, &se):
		msg := se.Message
		if se.RetryAfterMS != nil {
			sep := "\n"
			if msg == "" || strings.HasSuffix(msg, "\n") {
				sep = ""
			}
			msg += sep + "retry-after: " + FormatFloat(float64(*se.RetryAfterMS)/1000) + "\n"
		}
		return llmError(se.Category, msg, se.RetryAfterMS, r.provider, r.model)
	case errors.As(err, &ue):
		return runtimeError("%s", ue.Error())
	case errors.As(err, &pe):
		return llmError(providerCategory(pe), pe.Error(), pe.RetryAfterMS, r.provider, r.model)
	}
	return runtimeError("%v", err)
}

// providerCategory is upstream Harn's category of a provider failure.
func providerCategory(e *llm.Error) string {
	switch {
	case e.Kind == llm.ErrRateLimited:
		return "rate_limit"
	case e.Kind == llm.ErrOverloaded:
		return "overloaded"
	case e.Kind == llm.ErrTimeout || e.Kind == llm.ErrDeadline:
		return "timeout"
	case e.Kind == llm.ErrCancelled:
		return "cancelled"
	case e.Kind == llm.ErrTransport:
		return "transient_network"
	case e.Kind == llm.ErrAuthorityDenied && strings.Contains(e.Detail, "--allow-net"):
		return "egress_blocked"
	case e.Kind == llm.ErrAuthorityDenied:
		return "auth"
	case e.Status == 404:
		return "not_found"
	case e.Status >= 500:
		return "server_error"
	}
	return "generic"
}

// turnRequest is the request as runtime/llm takes it: the system prompt
// as the first message, the messages' texts, tool calls and results, the
// offered tools with their schemas, sampling options, a JSON response
// format, the thinking level as effort; and the mock's reading of the
// message values (upstream's: every string they hold, and the last
// prompt).
func (r *llmRequest) turnRequest() llm.TurnRequest {
	req := llm.TurnRequest{Model: r.model}
	if r.system.k != KindNil {
		if s := Display(r.system); s != "" {
			req.Messages = append(req.Messages, llm.TurnMessage{Role: llm.RoleSystem, Text: s})
		}
	}
	var parts []string
	for _, m := range r.messages {
		collectStrings(m, &parts, 0)
		req.Messages = append(req.Messages, turnMessages(m)...)
	}
	req.Prompt = &llm.MockPrompt{Match: strings.Join(parts, "\n"), Last: lastPrompt(r.messages)}
	req.Completion = r.completion
	req.Stream = r.onStream != nil
	if r.tools.k == KindList {
		for _, t := range r.tools.r.(*List).items {
			// A provider's own tool (a hosted tool_search) is not a function.
			if d := t.AsDict(); t.k == KindDict && (OptStr(d, "type") == "" || OptStr(d, "type") == "function") {
				req.Tools = append(req.Tools, turnTool(t.r.(*Dict)))
			}
		}
	}
	if v, ok := r.opts.Get("max_tokens"); ok && v.k == KindInt {
		req.MaxTokens = int64(v.n)
	}
	for k, dst := range map[string]**float64{"temperature": &req.Temperature, "top_p": &req.TopP} {
		if v, ok := r.opts.Get(k); ok && (v.k == KindFloat || v.k == KindInt) {
			f := v.AsFloat()
			if v.k == KindInt {
				f = float64(v.AsInt())
			}
			*dst = &f
		}
	}
	if v, ok := r.opts.Get("stop"); ok && v.k == KindList {
		for _, s := range v.r.(*List).items {
			req.Stop = append(req.Stop, Display(s))
		}
	}
	if s, ok := r.opts.Get("output_schema"); ok && s.k == KindDict {
		req.ResponseFormat = map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "response", "schema": toGo(s)}}
	} else if f := OptStr(r.opts, "response_format"); f == "json" || f == "json_object" {
		req.ResponseFormat = map[string]any{"type": "json_object"}
	}
	if r.thinking != nil {
		if l, ok := r.thinking.Get("level"); ok {
			req.Effort = Display(l)
		}
	}
	return req
}

// turnMessages reads one Harn message ({role, content, tool_calls?,
// tool_call_id?}; a bare string is a user message): text parts become
// the message's text, each tool call an assistant message of its own, a
// tool message a result paired by its tool_call_id.
func turnMessages(m Value) []llm.TurnMessage {
	if m.k != KindDict {
		return []llm.TurnMessage{{Role: llm.RoleUser, Text: Display(m)}}
	}
	d := m.r.(*Dict)
	role := OptStr(d, "role")
	if role == "" {
		role = llm.RoleUser
	}
	text := ""
	if content, ok := d.Get("content"); ok {
		text = contentText(content)
	}
	if role == llm.RoleTool {
		return []llm.TurnMessage{{Role: llm.RoleTool, ToolUseID: OptStr(d, "tool_call_id"), Value: text}}
	}
	var out []llm.TurnMessage
	if text != "" || role != llm.RoleAssistant {
		out = append(out, llm.TurnMessage{Role: role, Text: text})
	}
	if calls, ok := d.Get("tool_calls"); ok && calls.k == KindList {
		for _, c := range calls.r.(*List).items {
			if c.k != KindDict {
				continue
			}
			cd := c.r.(*Dict)
			name := OptStr(cd, "name")
			args, _ := cd.Get("arguments")
			if fn, ok := cd.Get("function"); ok && fn.k == KindDict {
				name = OptStr(fn.r.(*Dict), "name")
				args, _ = fn.r.(*Dict).Get("arguments")
			}
			am, _ := toGo(args).(map[string]any)
			out = append(out, llm.TurnMessage{Role: llm.RoleAssistant, ToolCall: &llm.ToolCall{ID: OptStr(cd, "id"), Tool: name, Args: am}})
		}
	}
	return out
}

// contentText is a message content's text: a string, or the text parts
// of a list of content blocks.
func contentText(v Value) string {
	switch v.k {
	case KindNil:
		return ""
	case KindString:
		return v.r.(string)
	case KindList:
		var parts []string
		for _, b := range v.r.(*List).items {
			switch {
			case b.k == KindString:
				parts = append(parts, b.r.(string))
			case b.k == KindDict:
				if t, ok := b.r.(*Dict).Get("text"); ok && t.k == KindString {
					parts = append(parts, t.r.(string))
				}
			}
		}
		return strings.Join(parts, "\n")
	}
	return Display(v)
}

// lastPrompt is upstream's last prompt: the strings of the last message
// content that holds any.
func lastPrompt(messages []Value) string {
	for i := len(messages) - 1; i >= 0; i-- {
		if m := messages[i]; m.k == KindDict {
			if content, ok := m.r.(*Dict).Get("content"); ok {
				var ps []string
				collectStrings(content, &ps, 0)
				if p := strings.Join(ps, "\n"); strings.TrimSpace(p) != "" {
					return p
				}
			}
		}
	}
	return ""
}

// turnTool reads an offered tool in any of the shapes Harn programs
// pass: {name, description, input_schema | inputSchema | parameters} or
// OpenAI's {function: {name, description, parameters}}.
func turnTool(d *Dict) llm.TurnTool {
	if fn, ok := d.Get("function"); ok && fn.k == KindDict {
		d = fn.r.(*Dict)
	}
	t := llm.TurnTool{Name: OptStr(d, "name"), Description: OptStr(d, "description")}
	for _, k := range []string{"input_schema", "inputSchema", "parameters"} {
		if s, ok := d.Get(k); ok && s.k == KindDict {
			t.Schema = toGo(s)
			break
		}
	}
	return t
}

// resultDict is llm_call's result dict of a turn.
func (st *llmState) resultDict(r *llmRequest, res llm.TurnResult, source string) Value {
	d := NewDict(16)
	model, provider := r.model, r.provider
	if source == "mock" {
		provider = "mock"
	}
	var cacheRead, cacheWrite int64
	if w := res.Wire; w != nil {
		if w.ServedModel != "" {
			model = w.ServedModel
		}
		if w.Usage.CacheReadTokens != nil {
			cacheRead = *w.Usage.CacheReadTokens
		}
		if w.Usage.CacheWriteTokens != nil {
			cacheWrite = *w.Usage.CacheWriteTokens
		}
		if s := w.Scripted; s != nil {
			if s.Provider != "" {
				provider = s.Provider
			}
			for k, v := range map[string]any{"thinking": s.Thinking, "thinking_summary": s.ThinkingSummary, "stop_reason": s.StopReason} {
				if v != nil {
					d.Set(k, fromGo(v))
				}
			}
		} else if source == "live" && w.StopReason != "" {
			d.Set("stop_reason", Str(w.StopReason))
		}
	}
	in, out := res.Usage.InputTokens, res.Usage.OutputTokens
	if cached, ok := r.opts.Get("cache"); ok && cached.Truthy() && source == "mock" && cacheRead == 0 && cacheWrite == 0 && in > 0 {
		// The mock's prompt cache: the second identical prompt is read.
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
	d.Set("text", Str(res.Text))
	d.Set("model", Str(model))
	d.Set("provider", Str(provider))
	usage := NewDict(7)
	for _, t := range []*Dict{d, usage} {
		t.Set("input_tokens", Int(in))
		t.Set("output_tokens", Int(out))
		t.Set("cache_read_tokens", Int(cacheRead))
		t.Set("cache_write_tokens", Int(cacheWrite))
		t.Set("cache_creation_input_tokens", Int(cacheWrite))
	}
	ratio, savings := cacheHitRatio(in, cacheRead, cacheWrite), cacheSavingsUSD(model, cacheRead, cacheWrite)
	usage.Set("cache_hit_ratio", Float(ratio))
	usage.Set("cache_savings_usd", Float(savings))
	d.Set("cache_hit_ratio", Float(ratio))
	d.Set("cache_savings_usd", Float(savings))
	d.Set("usage", DictValue(usage))
	if len(res.Calls) > 0 {
		calls := make([]Value, len(res.Calls))
		for i, tc := range res.Calls {
			call := NewDict(4)
			call.Set("id", Str(tc.ID))
			call.Set("type", Str("tool_call"))
			call.Set("name", Str(tc.Tool))
			args := DictValue(NewDict(0))
			if tc.Args != nil {
				args = fromGo(tc.Args)
			}
			call.Set("arguments", args)
			calls[i] = DictValue(call)
		}
		d.Set("tool_calls", NewListValue(calls))
	}
	d.Set("prose", Str(proseOf(res.Text)))
	setResponseBlocks(d)
	st.mu.Lock()
	st.usage.input += in
	st.usage.output += out
	st.usage.calls++
	st.mu.Unlock()
	return DictValue(d)
}
