package harn

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
)

// agent_loop: a model in a loop with tools. Each iteration is one model
// turn (agentTurn, the one seam to the model stack). A turn with tool
// calls dispatches them (tool hooks, the policy ceiling, dynamic
// permissions, then the tool's handler) and feeds the results back; a
// text-only turn ends a non-persistent loop, and a persistent one ends
// when the text carries the ##DONE## sentinel, else it is nudged until
// max_nudges consecutive text-only turns make it "stuck". Hitting
// max_iterations or token_budget ends it "budget_exhausted"; a
// require_successful_tools list no tool of which succeeded ends it
// "failed". The result is namespaced: {status, text, visible_text, llm:
// {iterations, duration_ms, input_tokens, output_tokens}, tools: {calls,
// successful, rejected, mode}, transcript, trace, task_ledger,
// deferred_user_messages, daemon_state, daemon_snapshot_path}.

// loopProfile is a named preset of loop budgets.
type loopProfile struct{ maxIterations, maxNudges, toolRetries, llmRetries, schemaRetries int64 }

var loopProfiles = map[string]loopProfile{
	"tool_using": {50, 8, 0, 2, 0},
	"researcher": {30, 4, 0, 2, 0},
	"verifier":   {5, 0, 0, 2, 3},
	"completer":  {1, 0, 0, 2, 0},
}

const doneSentinel = "##DONE##"

// loopConfig is agent_loop's options, read once.
type loopConfig struct {
	opts             *Dict
	maxIterations    int64
	maxNudges        int64
	persistent       bool
	daemon           bool
	nudge            string
	toolFormat       string
	sessionID        string
	tools            []Value
	ceiling          []string // policy.tools / allowed_tools; nil: no ceiling
	hasCeiling       bool
	permissions      *Dict
	approval         *Dict
	tokenBudget      int64
	stopAfter        []string
	requireSuccess   []string
	postTurn         Value
	compact          *compactPolicy
	persistPath      string
	doneSentinelText string
}

func optInt64(d *Dict, key string, def int64) int64 {
	if v, ok := d.Get(key); ok && v.k == KindInt {
		return v.AsInt()
	}
	return def
}

func optBool(d *Dict, key string) bool {
	v, ok := d.Get(key)
	return ok && v.Truthy()
}

func stringList(v Value) []string {
	var out []string
	switch v.k {
	case KindList:
		for _, x := range v.r.(*List).SharedItems() {
			out = append(out, Display(x))
		}
	case KindString:
		out = append(out, v.AsString())
	}
	return out
}

func parseLoopConfig(c *Call, fn string, opts *Dict) (*loopConfig, error) {
	prof := loopProfiles["tool_using"]
	if p := dictString(opts, "profile"); p != "" {
		var ok bool
		if prof, ok = loopProfiles[p]; !ok {
			return nil, throwValue(Str(fn + ": profile must be one of tool_using, researcher, verifier, completer; got `" + p + "`"))
		}
	}
	cfg := &loopConfig{opts: opts,
		maxIterations: optInt64(opts, "max_iterations", prof.maxIterations),
		maxNudges:     optInt64(opts, "max_nudges", prof.maxNudges),
		persistent:    optBool(opts, "persistent"),
		daemon:        optBool(opts, "daemon"),
		nudge:         dictString(opts, "nudge"),
		toolFormat:    dictString(opts, "tool_format"),
		sessionID:     dictString(opts, "session_id"),
		tokenBudget:   optInt64(opts, "token_budget", 0),
		persistPath:   dictString(opts, "persist_path"),
	}
	if cfg.toolFormat == "" {
		cfg.toolFormat = "text"
	}
	// The provider options the turns get: the profile's retry budgets
	// unless the caller set them.
	o := opts.clone()
	if !o.Has("llm_retries") {
		o.Set("llm_retries", Int(prof.llmRetries))
	}
	if !o.Has("schema_retries") && prof.schemaRetries > 0 {
		o.Set("schema_retries", Int(prof.schemaRetries))
	}
	if !o.Has("provider") {
		o.Set("provider", Str("mock"))
	}
	cfg.opts = o
	if t, ok := opts.Get("tools"); ok && t.k != KindNil {
		tools, err := registryTools(c, t)
		if err != nil {
			return nil, err
		}
		cfg.tools = tools
	}
	if p, ok := opts.Get("policy"); ok && p.k == KindDict {
		if t, ok := p.r.(*Dict).Get("tools"); ok && t.k == KindList {
			cfg.ceiling, cfg.hasCeiling = stringList(t), true
		}
	}
	if a, ok := opts.Get("allowed_tools"); ok && a.k == KindList {
		names := stringList(a)
		if cfg.hasCeiling {
			var both []string
			for _, n := range names {
				if containsString(cfg.ceiling, n) {
					both = append(both, n)
				}
			}
			names = both
		}
		cfg.ceiling, cfg.hasCeiling = names, true
	}
	if p, ok := opts.Get("approval_policy"); ok && p.k == KindDict {
		cfg.approval = p.r.(*Dict)
	}
	if p, ok := opts.Get("permissions"); ok && p.k == KindDict {
		cfg.permissions = p.r.(*Dict)
	}
	if v, ok := opts.Get("stop_after_successful_tools"); ok {
		cfg.stopAfter = stringList(v)
	}
	if v, ok := opts.Get("require_successful_tools"); ok {
		cfg.requireSuccess = stringList(v)
	}
	cfg.postTurn, _ = opts.Get("post_turn_callback")
	cfg.compact = parseCompactPolicy(opts)
	cfg.doneSentinelText = doneSentinel
	if s := dictString(opts, "done_sentinel"); s != "" {
		cfg.doneSentinelText = s
	}
	return cfg, nil
}

// textTools reports whether tools are described in the system prompt and
// called with <tool_call> tags rather than native tool schemas.
func (cfg *loopConfig) textTools() bool { return len(cfg.tools) > 0 && cfg.toolFormat != "native" }

// systemPrompt is the system prompt the turns get: the caller's, the
// tool contract in text mode, the completion instruction when persistent.
func (cfg *loopConfig) systemPrompt(base Value) string {
	var parts []string
	if base.k != KindNil {
		parts = append(parts, Display(base))
	}
	if cfg.textTools() {
		var b strings.Builder
		b.WriteString("You can call these tools. To call one, write <tool_call>{\"name\": TOOL, \"arguments\": {...}}</tool_call>.\n")
		for _, t := range cfg.tools {
			b.WriteString("- " + toolName(t))
			if d := dictString(t.AsDict(), "description"); d != "" {
				b.WriteString(": " + d)
			}
			b.WriteString("\n")
		}
		parts = append(parts, strings.TrimRight(b.String(), "\n"))
	}
	if cfg.persistent || cfg.daemon || cfg.textTools() {
		parts = append(parts, "IMPORTANT: You MUST keep working until the task is complete. When it is, reply with "+cfg.doneMarker()+".")
	}
	return strings.Join(parts, "\n\n")
}

// doneMarker is how the model signals completion: tagged in text-tool
// stages, bare otherwise.
func (cfg *loopConfig) doneMarker() string {
	if cfg.textTools() {
		return "<done>" + cfg.doneSentinelText + "</done>"
	}
	return cfg.doneSentinelText
}

func (cfg *loopConfig) nudgeText() string {
	if cfg.nudge != "" {
		return cfg.nudge
	}
	return "Continue with concrete progress on the task. Reply with " + cfg.doneMarker() + " only when it is complete."
}

// nativeTools are the tool schemas a native-format turn sends.
func (cfg *loopConfig) nativeTools() []Value {
	if len(cfg.tools) == 0 || cfg.toolFormat != "native" {
		return nil
	}
	out := make([]Value, 0, len(cfg.tools))
	for _, t := range cfg.tools {
		d := NewDict(3)
		d.Set("name", Str(toolName(t)))
		td := t.AsDict()
		d.Set("description", Str(dictString(td, "description")))
		p, _ := dictField(td, "parameters")
		d.Set("parameters", paramsSchema(p, true))
		out = append(out, DictValue(d))
	}
	return out
}

// loopRun is the state of one agent_loop run.
type loopRun struct {
	c            *Call
	cfg          *loopConfig
	messages     []Value // the recorded conversation (what the transcript holds)
	events       []Value // lifecycle, permission and compaction events
	summary      string
	iterations   int64
	input        int64
	output       int64
	text         strings.Builder
	lastText     string
	calls        []string
	successful   []string
	rejected     []string
	denial       *Dict // the first permission denial: {tool, reason}
	sessionGrant map[string]bool
	compactions  int64
	fallbacks    int64 // native-mode turns that called tools in text
	fallbackRej  int64
	emptyRetries int64
	llmRetries   int64
	toolCalls    int64
	budgetHit    bool
	skills       *loopSkills       // nil: no skills
	search       *clientToolSearch // nil: no client-mode tool search
	base         Value             // the caller's system prompt
}

func (r *loopRun) event(kind, text string, meta *Dict) {
	e := transcriptEvent(r.c, kind, "system", "internal", text).r.(*Dict)
	if meta != nil {
		e.Set("metadata", DictValue(meta))
	}
	r.events = append(r.events, DictValue(e))
}

func addUnique(xs []string, x string) []string {
	if containsString(xs, x) {
		return xs
	}
	return append(xs, x)
}

func jsonText(v Value) string {
	var b strings.Builder
	writeJSON(&b, v, 0)
	return b.String()
}

// permit decides whether a tool call may run: "" to run, else the reason
// it may not. It records permission events.
func (r *loopRun) permit(name string, args Value) (string, error) {
	c, cfg := r.c, r.cfg
	meta := func(extra ...string) *Dict {
		d := strDict(append([]string{"tool", name}, extra...)...)
		d.Set("args", args)
		return d
	}
	if cfg.hasCeiling && !containsString(cfg.ceiling, name) {
		reason := "tool '" + name + "' is outside this agent's capability ceiling"
		r.event("PermissionDeny", "denied "+name+" "+jsonText(args)+": "+reason, meta("reason", reason))
		return reason, nil
	}
	p := cfg.permissions
	if p == nil {
		return "", nil
	}
	// matches reports whether a rule set (a list of names, or a dict of
	// name -> bool or predicate over the arguments) names this call.
	matches := func(key string) (found, hit bool, err error) {
		v, ok := p.Get(key)
		if !ok {
			return false, false, nil
		}
		switch v.k {
		case KindList:
			for _, n := range stringList(v) {
				if n == name || n == "*" {
					return true, true, nil
				}
			}
		case KindDict:
			rule, ok := v.r.(*Dict).Get(name)
			if !ok {
				rule, ok = v.r.(*Dict).Get("*")
			}
			if !ok {
				return false, false, nil
			}
			if rule.k == KindClosure || rule.k == KindBuiltin {
				res, err := c.Invoke(rule, args)
				return true, err == nil && res.Truthy(), err
			}
			return true, rule.Truthy(), nil
		}
		return false, false, nil
	}
	if r.sessionGrant[name] {
		r.event("PermissionGrant", "granted "+name+" "+jsonText(args)+" (session grant)", meta("scope", "session"))
		return "", nil
	}
	found, denied, err := matches("deny")
	if err != nil {
		return "", err
	}
	reason := ""
	if found && denied {
		reason = "tool '" + name + "' is denied by this agent's permissions"
	} else if found2, allowed, err := matches("allow"); err != nil {
		return "", err
	} else if found2 && !allowed {
		reason = "tool '" + name + "' is not allowed for these arguments"
	} else if found2 {
		r.event("PermissionGrant", "granted "+name+" "+jsonText(args), meta())
		return "", nil
	} else {
		return "", nil
	}
	if esc, ok := p.Get("on_escalation"); ok && (esc.k == KindClosure || esc.k == KindBuiltin) {
		req := NewDict(3)
		req.Set("tool", Str(name))
		req.Set("args", args)
		req.Set("reason", Str(reason))
		r.event("PermissionEscalation", "escalated "+name+" "+jsonText(args), meta("reason", reason))
		res, err := c.Invoke(esc, DictValue(req))
		if err != nil {
			return "", err
		}
		grant := ""
		why := ""
		approver := ""
		switch res.k {
		case KindBool:
			if res.AsBool() {
				grant = "once"
			}
		case KindDict:
			d := res.r.(*Dict)
			if g, ok := d.Get("grant"); ok && g.Truthy() {
				grant = "once"
				if g.k == KindString {
					grant = g.AsString()
				}
			}
			why, approver = dictString(d, "reason"), dictString(d, "approver")
		}
		if grant != "" {
			if grant == "session" {
				if r.sessionGrant == nil {
					r.sessionGrant = map[string]bool{}
				}
				r.sessionGrant[name] = true
			}
			text := "granted " + name + " " + jsonText(args) + " by " + orDefault(approver, "escalation")
			if why != "" {
				text += ": " + why
			}
			r.event("PermissionGrant", text, meta("scope", grant, "approver", approver, "reason", why))
			return "", nil
		}
	}
	r.event("PermissionDeny", "denied "+name+" "+jsonText(args)+": "+reason, meta("reason", reason))
	return reason, nil
}

// approve applies approval_policy: auto_deny globs deny (first), then
// auto_approve globs approve, then require_approval globs need a host
// approver, which this runtime does not have, so they are denied.
func (cfg *loopConfig) approve(name string) string {
	if cfg.approval == nil {
		return ""
	}
	match := func(key string) string {
		v, _ := cfg.approval.Get(key)
		for _, p := range stringList(v) {
			if ok, _ := path.Match(p, name); ok || p == name {
				return p
			}
		}
		return ""
	}
	if p := match("auto_deny"); p != "" {
		return "auto_denied: tool '" + name + "' matches deny pattern '" + p + "'"
	}
	if match("auto_approve") != "" {
		return ""
	}
	if p := match("require_approval"); p != "" {
		return "tool '" + name + "' matches require_approval pattern '" + p + "' and no host approver is available"
	}
	return ""
}

// argConstraintViolation applies policy.tool_arg_constraints to a call:
// each constraint whose tool glob matches checks one string argument
// (its arg_key, else the first of the tool's annotated path_params that
// is present) against its arg_patterns globs. An absent argument, or a
// constraint naming no argument, does not apply. The reason is upstream's.
func argConstraintViolation(policy *Dict, name string, args Value) string {
	if policy == nil {
		return ""
	}
	field := func(d *Dict, key string) Value {
		if d == nil {
			return Nil
		}
		return dictValue(d, key)
	}
	for _, cv := range dictList(policy, "tool_arg_constraints") {
		cd := cv.AsDict()
		patterns := stringList(field(cd, "arg_patterns"))
		if cd == nil || len(patterns) == 0 || !globMatches(dictString(cd, "tool"), name) {
			continue
		}
		keys := stringList(field(cd, "arg_key"))
		if len(keys) == 0 {
			ann := field(field(policy, "tool_annotations").AsDict(), name).AsDict()
			keys = stringList(field(field(ann, "arg_schema").AsDict(), "path_params"))
		}
		if len(keys) == 0 {
			continue
		}
		key, value, found := keys[0], "", false
		if args.k == KindDict {
			for _, k := range keys {
				if v, ok := args.r.(*Dict).Get(k); ok && v.k == KindString {
					key, value, found = k, v.AsString(), true
					break
				}
			}
		} else if args.k == KindString {
			key, value, found = "value", args.AsString(), true
		}
		if !found {
			continue
		}
		matched := false
		for _, p := range patterns {
			matched = matched || globMatches(p, value)
		}
		if !matched {
			quoted := make([]string, len(patterns))
			for i, p := range patterns {
				quoted[i] = strconv.Quote(p)
			}
			return fmt.Sprintf("tool '%s' %s '%s' does not match allowed patterns: [%s]. Only the %s argument is checked against this allow-list — other argument values are not.",
				name, key, value, strings.Join(quoted, ", "), key)
		}
	}
	return ""
}

// dispatch runs one tool call and returns the tool-result message text
// and whether the call succeeded.
func (r *loopRun) dispatch(call *Dict) (string, bool, error) {
	c := r.c
	name := dictString(call, "name")
	args, _ := call.Get("arguments")
	if args.k == KindString {
		if v, err := ParseJSON(args.AsString()); err == nil {
			args = v
		}
	}
	if args.k != KindDict {
		args = DictValue(NewDict(0))
	}
	r.calls = addUnique(r.calls, name)
	reject := func(reason string) (string, bool, error) {
		r.rejected = addUnique(r.rejected, name)
		if r.denial == nil {
			r.denial = strDict("tool", name, "reason", reason)
		}
		d := strDict("error", "permission_denied", "tool", name, "reason", reason)
		return jsonText(DictValue(d)), false, nil
	}
	if name == "load_skill" && r.skills != nil {
		return r.loadSkillTool(args)
	}
	if r.search != nil && name == r.search.cfg.name {
		return r.searchToolCall(dictString(call, "id"), args)
	}
	reason, args, err := hookPre(c, name, args)
	if err != nil {
		return "", false, err
	}
	if reason != "" {
		return reject(reason)
	}
	if reason = r.cfg.approve(name); reason != "" {
		return reject(reason)
	}
	if reason = argConstraintViolation(dictValue(r.cfg.opts, "policy").AsDict(), name, args); reason != "" {
		return reject(reason)
	}
	if reason, err = r.permit(name, args); err != nil {
		return "", false, err
	} else if reason != "" {
		return reject(reason)
	}
	var tool *Dict
	for _, t := range r.cfg.tools {
		if toolName(t) == name {
			tool = t.AsDict()
		}
	}
	if tool == nil {
		return jsonText(DictValue(strDict("error", "unknown_tool", "tool", name,
			"reason", "no tool named '"+name+"' is available"))), false, nil
	}
	handler, _ := tool.Get("handler")
	if handler.k == KindNil {
		return jsonText(DictValue(strDict("error", "not_available", "tool", name,
			"reason", "tool '"+name+"' has no Harn handler in this runtime"))), false, nil
	}
	retries := optInt64(r.cfg.opts, "tool_retries", 0)
	var res Value
	for attempt := int64(0); ; attempt++ {
		res, err = c.Invoke(handler, args)
		if err == nil || isControl(err) || attempt >= retries {
			break
		}
	}
	if err != nil {
		if isControl(err) {
			return "", false, err
		}
		return jsonText(DictValue(strDict("error", "tool_error", "tool", name, "reason", asError(err).Message()))), false, nil
	}
	text := ""
	if res.k == KindString {
		text = res.AsString()
	} else {
		text = jsonText(res)
	}
	if text, err = hookPost(c, name, args, text); err != nil {
		return "", false, err
	}
	r.successful = addUnique(r.successful, name)
	return text, true, nil
}

// run drives the loop to its end and returns the status.
func (r *loopRun) run(system string) (string, error) {
	cfg := r.cfg
	nudges := int64(0)
	for r.iterations < cfg.maxIterations {
		if cfg.tokenBudget > 0 && r.input+r.output >= cfg.tokenBudget {
			r.budgetHit = true
			return "budget_exhausted", nil
		}
		if err := r.maybeCompact(); err != nil {
			return "", err
		}
		if err := r.turnStart(); err != nil {
			return "", err
		}
		system, tools := system, cfg.nativeTools()
		if r.skills != nil || r.search != nil {
			system, tools = r.turnSurface()
		}
		rep, err := agentTurn(r.c, turnRequest{messages: r.promptMessages(), system: system, tools: tools, opts: cfg.opts})
		if err != nil {
			// A turn its budget refuses before dispatch ends the loop,
			// as an exhausted token budget does.
			if e, ok := err.(*Error); ok && e.Category == "budget_exceeded" {
				r.budgetHit = true
				return "budget_exhausted", nil
			}
			return "", err
		}
		r.iterations++
		r.input += rep.input
		r.output += rep.output
		r.llmRetries += rep.retried
		r.emptyRetries += rep.emptyRetried
		calls := rep.toolCalls
		text := rep.text
		if cfg.textTools() && len(calls) == 0 {
			calls, text = parseTextToolCalls(text)
		} else if len(cfg.tools) > 0 && len(calls) == 0 && strings.Contains(text, "<tool_call>") {
			// A native-tool stage whose model wrote the call as text.
			tc, rest := parseTextToolCalls(text)
			if len(tc) > 0 {
				policy := orDefault(dictString(cfg.opts, "native_tool_fallback"), "allow")
				accepted := policy == "allow" || (policy == "allow_once" && r.fallbacks == 0)
				r.fallbacks++
				meta := NewDict(3)
				meta.Set("accepted", Bool(accepted))
				meta.Set("policy", Str(policy))
				meta.Set("tool_calls", Int(int64(len(tc))))
				r.event("native_tool_fallback", "native-tool stage received text-mode tool calls", meta)
				if accepted {
					calls, text = tc, rest
				} else {
					r.fallbackRej++
					r.messages = append(r.messages, messageValue("assistant", Str(text)))
					r.messages = append(r.messages, messageValue("user", Str("Text-mode <tool_call> blocks are not accepted in this stage: call tools through the native tool interface.")))
					continue
				}
			}
		}
		if text != "" {
			if r.text.Len() > 0 {
				r.text.WriteString("\n")
			}
			r.text.WriteString(text)
			r.lastText = text
		}
		if len(calls) > 0 {
			nudges = 0
			msg := NewDict(3)
			msg.Set("role", Str("assistant"))
			msg.Set("content", Str(text))
			msg.Set("tool_calls", NewListValue(calls))
			r.messages = append(r.messages, DictValue(msg))
			var turnNames, turnOK []string
			var results []Value
			for i, tc := range calls {
				d := tc.AsDict()
				if tc.k != KindDict {
					d = NewDict(0)
				}
				id := dictString(d, "id")
				if id == "" {
					id = "call_" + itoa(r.toolCalls+int64(i)+1)
				}
				out, ok, err := r.dispatch(d)
				if err != nil {
					return "", err
				}
				name := dictString(d, "name")
				turnNames = append(turnNames, name)
				if ok {
					turnOK = append(turnOK, name)
				}
				res := NewDict(3)
				res.Set("tool_name", Str(name))
				res.Set("status", Str(map[bool]string{true: "ok", false: "error"}[ok]))
				res.Set("rejected", Bool(containsString(r.rejected, name) && !ok))
				results = append(results, DictValue(res))
				tm := NewDict(4)
				tm.Set("role", Str("tool"))
				tm.Set("tool_call_id", Str(id))
				tm.Set("name", Str(name))
				tm.Set("content", Str(out))
				r.messages = append(r.messages, DictValue(tm))
			}
			r.toolCalls += int64(len(calls))
			for _, n := range turnOK {
				if containsString(cfg.stopAfter, n) {
					return "done", nil
				}
			}
			if cfg.postTurn.k == KindClosure || cfg.postTurn.k == KindBuiltin {
				stop, err := r.postTurn(turnNames, turnOK, results)
				if err != nil {
					return "", err
				}
				if stop {
					return "done", nil
				}
			}
			if strings.Contains(text, cfg.doneSentinelText) {
				return "done", nil
			}
			continue
		}
		r.messages = append(r.messages, messageValue("assistant", Str(text)))
		if strings.Contains(text, cfg.doneSentinelText) {
			return "done", nil
		}
		if !cfg.persistent && !cfg.daemon {
			return "done", nil
		}
		if cfg.daemon {
			// An idle daemon wakes on its timer (or a queued message) and
			// takes another turn; without a wake source it stops idle.
			if _, ok := cfg.opts.Get("wake_interval_ms"); !ok {
				return "idle", nil
			}
			continue
		}
		nudges++
		if nudges > cfg.maxNudges {
			return "stuck", nil
		}
		r.messages = append(r.messages, messageValue("user", Str(cfg.nudgeText())))
	}
	return "budget_exhausted", nil
}

// postTurn calls post_turn_callback; it may inject a message or stop.
func (r *loopRun) postTurn(names, ok []string, results []Value) (bool, error) {
	strs := func(xs []string) Value {
		out := make([]Value, len(xs))
		for i, x := range xs {
			out[i] = Str(x)
		}
		return NewListValue(out)
	}
	d := NewDict(8)
	d.Set("tool_names", strs(names))
	d.Set("tool_results", NewListValue(results))
	d.Set("successful_tool_names", strs(ok))
	d.Set("tool_count", Int(int64(len(names))))
	d.Set("iteration", Int(r.iterations-1)) // the turn's index, from 0
	d.Set("session_tools_used", strs(r.calls))
	d.Set("session_successful_tools", strs(r.successful))
	v, err := r.c.Invoke(r.cfg.postTurn, DictValue(d))
	if err != nil {
		return false, err
	}
	msg, stop := "", false
	switch v.k {
	case KindString:
		msg = v.AsString()
	case KindBool:
		stop = v.AsBool()
	case KindDict:
		msg = dictString(v.r.(*Dict), "message")
		stop = optBool(v.r.(*Dict), "stop")
	}
	if msg != "" {
		r.messages = append(r.messages, messageValue("user", Str(msg)))
	}
	return stop, nil
}

// promptMessages is what the model sees: the recorded conversation,
// behind the compaction summary when there is one.
func (r *loopRun) promptMessages() []Value {
	if r.summary == "" {
		return r.messages
	}
	return append([]Value{messageValue("user", Str("[Conversation summary]\n"+r.summary))}, r.messages...)
}

// parseTextToolCalls reads <tool_call>{...}</tool_call> blocks out of a
// text-mode reply: the calls, and the text without them.
func parseTextToolCalls(text string) ([]Value, string) {
	var calls []Value
	rest := text
	var kept strings.Builder
	for {
		i := strings.Index(rest, "<tool_call>")
		if i < 0 {
			break
		}
		j := strings.Index(rest[i:], "</tool_call>")
		if j < 0 {
			break
		}
		body := strings.TrimSpace(rest[i+len("<tool_call>") : i+j])
		if name, a, ok := parseToolCallBody(body); ok {
			call := NewDict(3)
			call.Set("id", Str("text_call_"+itoa(int64(len(calls)+1))))
			call.Set("name", Str(name))
			call.Set("arguments", a)
			calls = append(calls, DictValue(call))
		}
		kept.WriteString(rest[:i])
		rest = rest[i+j+len("</tool_call>"):]
	}
	kept.WriteString(rest)
	if len(calls) == 0 {
		return nil, text
	}
	return calls, strings.TrimSpace(kept.String())
}

// parseToolCallBody reads one text-mode call: JSON {"name", "arguments"}
// or the call form NAME({key: value, ...}) with bare or quoted keys.
func parseToolCallBody(body string) (string, Value, bool) {
	if v, err := ParseJSON(body); err == nil && v.k == KindDict {
		d := v.r.(*Dict)
		a, ok := d.Get("arguments")
		if !ok || a.k != KindDict {
			a = DictValue(NewDict(0))
		}
		return dictString(d, "name"), a, dictString(d, "name") != ""
	}
	open := strings.IndexByte(body, '(')
	if open <= 0 || !strings.HasSuffix(body, ")") {
		return "", Nil, false
	}
	name := strings.TrimSpace(body[:open])
	for _, r := range name {
		if !(r == '_' || r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "", Nil, false
		}
	}
	inner := strings.TrimSpace(body[open+1 : len(body)-1])
	if inner == "" {
		return name, DictValue(NewDict(0)), true
	}
	v, err := ParseJSON(quoteBareKeys(inner))
	if err != nil || v.k != KindDict {
		return "", Nil, false
	}
	return name, v, true
}

// quoteBareKeys turns {path: "x"} into {"path": "x"}: identifiers
// followed by a colon outside strings get quotes.
func quoteBareKeys(s string) string {
	var b strings.Builder
	inStr := byte(0)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if inStr != 0 {
			b.WriteByte(ch)
			if ch == '\\' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else if ch == inStr {
				inStr = 0
			}
			continue
		}
		if ch == '"' {
			inStr = ch
			b.WriteByte(ch)
			continue
		}
		if ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' {
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			k := j
			for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
				k++
			}
			if k < len(s) && s[k] == ':' {
				b.WriteString("\"" + s[i:j] + "\"")
			} else {
				b.WriteString(s[i:j])
			}
			i = j - 1
			continue
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// transcript is the run's transcript value.
func (r *loopRun) transcript() Value {
	return transcriptParts{id: r.cfg.sessionID, messages: r.messages, summary: r.summary, extra: r.events}.build(r.c)
}

// agentLoop runs agent_loop(prompt, system, options) and returns the
// run (for sub_agent_run) and the result dict.
func agentLoop(c *Call, fn string, prompt, system Value, opts *Dict) (*loopRun, Value, error) {
	opts, disconnect, err := agentMCPServers(c, fn, opts)
	if err != nil {
		return nil, Nil, err
	}
	defer disconnect()
	cfg, err := parseLoopConfig(c, fn, opts)
	if err != nil {
		return nil, Nil, err
	}
	start := time.Now()
	r := &loopRun{c: c, cfg: cfg, skills: parseLoopSkills(c, opts)}
	if r.search, err = newClientToolSearch(cfg.opts, cfg.tools); err != nil {
		return nil, Nil, err
	}
	if cfg.sessionID != "" {
		sessionOpen(c, cfg.sessionID)
		r.messages = sessionMessages(c, cfg.sessionID)
		if r.skills != nil {
			r.skills.rehydrate(c, cfg.sessionID)
		}
	}
	if prompt.k != KindNil {
		r.messages = append(r.messages, messageValue("user", prompt))
	}
	leave := enterSession(c, cfg.sessionID)
	r.base = system
	status, err := r.run(cfg.systemPrompt(system))
	leave()
	if err != nil {
		return nil, Nil, err
	}
	if r.skills != nil {
		r.skills.remember(c, cfg.sessionID)
	}
	if len(cfg.requireSuccess) > 0 {
		ok := false
		for _, n := range cfg.requireSuccess {
			ok = ok || containsString(r.successful, n)
		}
		if !ok {
			status = "failed"
		}
	}
	if cfg.daemon && cfg.compact == nil && optBool(opts, "consolidate_on_idle") {
		cfg.compact = &compactPolicy{strategy: "truncate", keepLast: 1}
	}
	if cfg.daemon && optBool(opts, "consolidate_on_idle") {
		if err := r.compactNow(); err != nil {
			return nil, Nil, err
		}
	}
	if cfg.sessionID != "" {
		sessionSetMessages(c, cfg.sessionID, r.messages)
	}
	res := NewDict(14)
	res.Set("status", Str(status))
	res.Set("text", Str(r.text.String()))
	res.Set("visible_text", Str(r.lastVisible()))
	llm := NewDict(4)
	llm.Set("iterations", Int(r.iterations))
	llm.Set("duration_ms", Int(time.Since(start).Milliseconds()))
	llm.Set("input_tokens", Int(r.input))
	llm.Set("output_tokens", Int(r.output))
	res.Set("llm", DictValue(llm))
	tools := NewDict(4)
	tools.Set("calls", NewListValue(StrValues(r.calls)))
	tools.Set("successful", NewListValue(StrValues(r.successful)))
	tools.Set("rejected", NewListValue(StrValues(r.rejected)))
	tools.Set("mode", Str(cfg.toolFormat))
	res.Set("tools", DictValue(tools))
	res.Set("deferred_user_messages", NewListValue(nil))
	if cfg.daemon {
		res.Set("daemon_state", Str(status))
	} else {
		res.Set("daemon_state", Nil)
	}
	res.Set("daemon_snapshot_path", Nil)
	ledger := NewDict(2)
	ledger.Set("deliverables", NewListValue(nil))
	ledger.Set("nudges", Int(0))
	res.Set("task_ledger", DictValue(ledger))
	trace := NewDict(3)
	trace.Set("compactions", Int(r.compactions))
	trace.Set("tool_calls", Int(r.toolCalls))
	trace.Set("iterations", Int(r.iterations))
	trace.Set("native_text_tool_fallbacks", Int(r.fallbacks))
	trace.Set("native_text_tool_fallback_rejections", Int(r.fallbackRej))
	trace.Set("empty_completion_retries", Int(r.emptyRetries))
	trace.Set("llm_retries", Int(r.llmRetries))
	res.Set("trace", DictValue(trace))
	t := r.transcript()
	res.Set("transcript", t)
	if cfg.daemon && cfg.persistPath != "" {
		if err := r.persistDaemon(status, t); err != nil {
			return nil, Nil, err
		}
		res.Set("daemon_snapshot_path", Str(cfg.persistPath))
	}
	return r, DictValue(res), nil
}

// lastVisible is the visible text of the run: the last assistant text.
func (r *loopRun) lastVisible() string {
	for i := len(r.messages) - 1; i >= 0; i-- {
		d := r.messages[i].AsDict()
		if r.messages[i].k == KindDict && dictString(d, "role") == "assistant" {
			if s := dictString(d, "content"); s != "" {
				return s
			}
		}
	}
	return r.lastText
}

// persistDaemon writes the daemon snapshot to persist_path.
func (r *loopRun) persistDaemon(status string, t Value) error {
	snap := NewDict(5)
	snap.Set("daemon_state", Str(status))
	snap.Set("total_iterations", Int(r.iterations))
	snap.Set("transcript_summary", Str(r.summary))
	snap.Set("transcript", t)
	snap.Set("saved_at", Str(r.c.th.in.host.Now().UTC().Format(time.RFC3339)))
	b, ok := r.c.th.in.builtin("write_file")
	if !ok {
		return plainError(unavailableMessage("write_file"))
	}
	_, err := b.Fn(r.c, []Value{Str(r.cfg.persistPath), Str(jsonText(DictValue(snap)))})
	return err
}

func installAgents(lib *Library) {
	lib.Builtin("agent_loop", func(c *Call, args []Value) (Value, error) {
		opts := NewDict(0)
		if o := Arg(args, 2); o.k == KindDict {
			opts = o.r.(*Dict)
		} else if o.k != KindNil {
			return Nil, throwValue(Str("agent_loop: options must be a dict"))
		}
		_, res, err := agentLoop(c, "agent_loop", Arg(args, 0), Arg(args, 1), opts)
		return res, err
	})
	lib.Builtin("agent", func(c *Call, args []Value) (Value, error) {
		d := NewDict(4)
		switch cfg := Arg(args, 1); cfg.k {
		case KindDict:
			d = cfg.r.(*Dict).clone()
		case KindNil:
		default:
			return Nil, throwValue(Str("agent: second argument must be a config dict"))
		}
		d.Set("_type", Str("agent"))
		d.Set("name", Str(Display(Arg(args, 0))))
		return DictValue(d), nil
	})
	lib.Builtin("agent_name", func(c *Call, args []Value) (Value, error) {
		a := Arg(args, 0)
		if a.k != KindDict {
			return Nil, throwValue(Str("agent_name: argument must be an agent"))
		}
		v, _ := a.r.(*Dict).Get("name")
		return v, nil
	})
	lib.Builtin("agent_config", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, throwValue(Str("agent_config: requires agent and prompt"))
		}
		a := args[0]
		if a.k != KindDict {
			return Nil, throwValue(Str("agent_config: first argument must be an agent"))
		}
		d := a.r.(*Dict)
		if dictString(d, "_type") != "agent" {
			return Nil, throwValue(Str("agent_config: first argument must be an agent (created with agent())"))
		}
		opts := NewDict(4)
		for _, k := range []string{"provider", "model", "thinking", "tools", "max_iterations", "tool_format",
			"structural_experiment", "context_callback", "context_filter", "tool_retries", "tool_backoff_ms"} {
			if v, ok := d.Get(k); ok {
				opts.Set(k, v)
			}
		}
		out := NewDict(3)
		out.Set("prompt", args[1])
		sys, _ := d.Get("system")
		out.Set("system", sys)
		out.Set("options", DictValue(opts))
		return DictValue(out), nil
	})
}
