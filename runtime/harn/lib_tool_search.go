package harn

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/harnlang/harn-check/runtime/llm"
)

// Tool search: tools defined with defer_loading: true are held back until
// the model searches for them. `tool_search: {variant: "bm25" | "regex",
// mode: "client" | "native" | "auto", name, budget_tokens}` (or the
// shorthands "bm25", "regex", true) turns it on.
//
// Client mode (agent_loop): each turn offers the eager tools, the tools
// searches promoted so far, and a synthetic search tool (named
// __harn_tool_search unless `name` says otherwise). Calling it runs the
// strategy in-process over the deferred tools (BM25 over name,
// description and parameter names; or a case-insensitive regex), returns
// {tool_names: [...]} (with a diagnostic when nothing matched), promotes
// the hits for the next turns (evicting the oldest promotions beyond
// budget_tokens, estimated at a token per four bytes of schema JSON) and
// leaves tool_search_query / tool_search_result transcript events tagged
// mode "client".
//
// Native mode (llm_call): the provider searches. A model that has a
// native tool search (Claude Opus/Sonnet 4+ and Haiku 4.5+ in
// Anthropic's shape, GPT 5.4+ in OpenAI's; the mock provider answers for
// either by the model's name) gets the provider's meta-tool first and
// every tool with its defer_loading flag and namespace; a
// `<provider>: {force_native_tool_search: true}` option asserts the
// OpenAI shape for a model name we cannot read. Any other model is an
// error that points at client mode.

// toolSearchConfig is the tool_search option.
type toolSearchConfig struct {
	strategy string // bm25 or regex
	mode     string // auto, client or native
	name     string // the synthetic tool's name
	budget   int64  // promoted-schema token budget; 0: none
}

const defaultSearchToolName = "__harn_tool_search"

// parseToolSearch reads the tool_search option; nil when it is absent or
// off.
func parseToolSearch(opts *Dict) (*toolSearchConfig, error) {
	v, ok := opts.Get("tool_search")
	if !ok {
		return nil, nil
	}
	cfg := &toolSearchConfig{strategy: "bm25", mode: "auto", name: defaultSearchToolName}
	switch v.k {
	case KindNil:
		return nil, nil
	case KindBool:
		if !v.AsBool() {
			return nil, nil
		}
	case KindString:
		cfg.strategy = v.AsString()
	case KindDict:
		d := v.AsDict()
		if s := dictString(d, "variant"); s != "" {
			cfg.strategy = s
		}
		if s := dictString(d, "strategy"); s != "" {
			cfg.strategy = s
		}
		if s := dictString(d, "mode"); s != "" {
			cfg.mode = s
		}
		if s := dictString(d, "name"); s != "" {
			cfg.name = s
		}
		cfg.budget = optInt64(d, "budget_tokens", 0)
	default:
		return nil, throwValue(Str("tool_search: expected a bool, a variant string or a config dict"))
	}
	switch cfg.strategy {
	case "bm25", "regex":
	default:
		return nil, throwValue(Str("tool_search: variant must be \"bm25\" or \"regex\", got \"" + cfg.strategy + "\""))
	}
	switch cfg.mode {
	case "auto", "client", "native":
	default:
		return nil, throwValue(Str("tool_search: mode must be \"auto\", \"client\" or \"native\", got \"" + cfg.mode + "\""))
	}
	return cfg, nil
}

func toolDeferred(t Value) bool { return optBool(t.AsDict(), "defer_loading") }

// clientToolSearch is an agent loop's client-mode search state.
type clientToolSearch struct {
	cfg      *toolSearchConfig
	deferred []Value // the deferred tools, in registry order
	promoted []string
	cost     map[string]int64
}

// newClientToolSearch is the loop's client-mode search, or nil when the
// loop has no tool_search or it resolves to the provider's native one.
func newClientToolSearch(opts *Dict, tools []Value) (*clientToolSearch, error) {
	cfg, err := parseToolSearch(opts)
	if cfg == nil || err != nil {
		return nil, err
	}
	if cfg.mode == "native" || (cfg.mode == "auto" && nativeToolSearchShape(opts) != "") {
		return nil, nil
	}
	s := &clientToolSearch{cfg: cfg, cost: map[string]int64{}}
	for _, t := range tools {
		if toolDeferred(t) {
			s.deferred = append(s.deferred, t)
		}
	}
	return s, nil
}

// visible is a turn's tools: the eager ones, the promoted ones and the
// search tool.
func (s *clientToolSearch) visible(tools []Value) []Value {
	out := make([]Value, 0, len(tools)+1)
	for _, t := range tools {
		if !toolDeferred(t) || containsString(s.promoted, toolName(t)) {
			out = append(out, t)
		}
	}
	return append(out, s.searchTool())
}

func (s *clientToolSearch) searchTool() Value {
	desc := "Search for tools you need. Pass `query` as natural-language keywords (BM25). The tool returns `{ \"tool_names\": [...] }`; only the returned tools will be available to call in the next turn. Cast a wider net if the first search returns nothing useful."
	if s.cfg.strategy == "regex" {
		desc = "Search for tools you need. Pass `query` as a case-insensitive regex (no lookaround, no backreferences). The tool returns `{ \"tool_names\": [...] }`; only the returned tools will be available to call in the next turn."
	}
	q := strDict("type", "string", "description", "Search query (keywords for BM25/semantic, regex for regex variant).")
	props := NewDict(1)
	props.Set("query", DictValue(q))
	return runtimeTool(s.cfg.name, desc, props, "query")
}

// runtimeTool is a tool the runtime itself offers (the search tool,
// load_skill): a closed JSON Schema object of props, the required ones
// named.
func runtimeTool(name, desc string, props *Dict, required ...string) Value {
	params := NewDict(4)
	params.Set("type", Str("object"))
	params.Set("properties", DictValue(props))
	params.Set("required", NewListValue(StrValues(required)))
	params.Set("additionalProperties", Bool(false))
	d := NewDict(3)
	d.Set("name", Str(name))
	d.Set("description", Str(desc))
	d.Set("parameters", DictValue(params))
	return DictValue(d)
}

// searchCorpus is the text a tool is found by: its name, description and
// parameter names (with their descriptions).
func searchCorpus(t Value) string {
	d := t.AsDict()
	parts := []string{toolName(t), dictString(d, "description")}
	params := dictValue(d, "parameters").AsDict()
	if params != nil {
		if p := dictValue(params, "properties").AsDict(); p != nil && dictString(params, "type") == "object" {
			params = p
		}
		for _, k := range params.Keys() {
			if pd := dictValue(params, k).AsDict(); pd != nil && dictString(pd, "description") != "" {
				parts = append(parts, k+": "+dictString(pd, "description"))
			} else {
				parts = append(parts, k)
			}
		}
	}
	return strings.Join(parts, " ")
}

func searchTokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// searchTools ranks tools for a query (at most 20 names) or says why
// none matched.
func searchTools(strategy, query string, tools []Value) ([]string, string) {
	if len(tools) == 0 {
		return nil, "no deferred tools in the search index; declare tools with defer_loading: true to populate it"
	}
	query = strings.TrimSpace(query)
	if query == "" {
		return nil, "empty query; specify search terms or a regex pattern"
	}
	type hit struct {
		name  string
		score float64
	}
	var hits []hit
	if strategy == "regex" {
		re, err := CompileRegex(query, "i")
		if err != nil {
			return nil, "regex compile error: " + err.Error() + ". Use `|` for alternation; backreferences and lookaround are not supported."
		}
		for _, t := range tools {
			if n := len(re.FindAllStringIndex(searchCorpus(t), -1)); n > 0 {
				hits = append(hits, hit{toolName(t), float64(n)})
			}
		}
	} else {
		q := searchTokens(query)
		if len(q) == 0 {
			return nil, "empty query after tokenization; use alphanumeric search terms"
		}
		docs := make([][]string, len(tools))
		total := 0
		for i, t := range tools {
			docs[i] = searchTokens(searchCorpus(t))
			total += len(docs[i])
		}
		n := float64(len(docs))
		avg := math.Max(float64(total)/n, 1e-9)
		df := map[string]float64{}
		for _, term := range q {
			if _, ok := df[term]; ok {
				continue
			}
			for _, d := range docs {
				if containsString(d, term) {
					df[term]++
				}
			}
		}
		const k1, b = 1.5, 0.75
		for i, d := range docs {
			tf := map[string]float64{}
			for _, w := range d {
				tf[w]++
			}
			score := 0.0
			for _, term := range q {
				if df[term] == 0 || tf[term] == 0 {
					continue
				}
				idf := math.Log((n-df[term]+0.5)/(df[term]+0.5) + 1)
				f := tf[term]
				score += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(len(d))/avg))
			}
			if score > 0 {
				hits = append(hits, hit{toolName(tools[i]), score})
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].name < hits[j].name
	})
	if len(hits) > 20 {
		hits = hits[:20]
	}
	if len(hits) == 0 {
		if strategy == "regex" {
			return nil, "no tools matched your regex; widen the alternation or relax quantifiers"
		}
		return nil, "no tools matched your BM25 query; try shorter or more generic terms"
	}
	names := make([]string, len(hits))
	for i, h := range hits {
		names[i] = h.name
	}
	return names, ""
}

// promote makes the named deferred tools visible, oldest promotions
// giving way when the budget is exceeded; it returns the names added.
func (s *clientToolSearch) promote(names []string) []string {
	var added []string
	for _, n := range names {
		if containsString(s.promoted, n) {
			continue
		}
		var tool Value
		for _, t := range s.deferred {
			if toolName(t) == n {
				tool = t
			}
		}
		if tool.k == KindNil {
			continue
		}
		cost := int64(math.Ceil(float64(len(jsonText(fromGo(llm.OpenAITool(turnTool(tool.AsDict())))))) / 4))
		if s.cfg.budget > 0 {
			for s.spent()+cost > s.cfg.budget && len(s.promoted) > 0 {
				delete(s.cost, s.promoted[0])
				s.promoted = s.promoted[1:]
			}
			if cost > s.cfg.budget {
				continue
			}
		}
		s.promoted = append(s.promoted, n)
		s.cost[n] = cost
		added = append(added, n)
	}
	return added
}

func (s *clientToolSearch) spent() int64 {
	var t int64
	for _, c := range s.cost {
		t += c
	}
	return t
}

// searchToolCall runs one call of the loop's search tool.
func (r *loopRun) searchToolCall(id string, args Value) (string, bool, error) {
	s := r.search
	name := "tool_search_tool_" + s.cfg.strategy
	r.calls = addUnique(r.calls, s.cfg.name)
	q := NewDict(5)
	q.Set("id", Str(id))
	q.Set("name", Str(name))
	q.Set("query", args)
	q.Set("strategy", Str(s.cfg.strategy))
	q.Set("mode", Str("client"))
	e := transcriptEvent(r.c, "tool_search_query", "assistant", "internal", "").AsDict()
	e.Set("metadata", DictValue(q))
	r.events = append(r.events, DictValue(e))
	live := q.clone()
	live.Delete("id")
	live.Set("tool_use_id", Str(id))
	if err := publishAgentEvent(r.c, r.cfg.sessionID, "tool_search_query", live); err != nil {
		return "", false, err
	}

	names, diag := searchTools(s.cfg.strategy, dictString(args.AsDict(), "query"), s.deferred)
	added := s.promote(names)
	refs := make([]Value, len(names))
	for i, n := range names {
		refs[i] = DictValue(strDict("tool_name", n))
	}
	res := NewDict(5)
	res.Set("tool_use_id", Str(id))
	res.Set("tool_references", NewListValue(refs))
	res.Set("strategy", Str(s.cfg.strategy))
	res.Set("mode", Str("client"))
	res.Set("promoted", NewListValue(StrValues(added)))
	e = transcriptEvent(r.c, "tool_search_result", "tool", "internal", "").AsDict()
	e.Set("metadata", DictValue(res))
	r.events = append(r.events, DictValue(e))
	live = res.clone()
	live.Delete("tool_references")
	if err := publishAgentEvent(r.c, r.cfg.sessionID, "tool_search_result", live); err != nil {
		return "", false, err
	}

	out := NewDict(2)
	out.Set("tool_names", NewListValue(StrValues(names)))
	if diag != "" {
		out.Set("diagnostic", Str(diag))
	}
	r.successful = addUnique(r.successful, s.cfg.name)
	return jsonText(DictValue(out)), true, nil
}

// claudeVersion reads (major, minor) out of a Claude model name
// (claude-opus-4-1, claude-sonnet-4-5-20250929, claude-3-5-haiku, ...).
func claudeVersion(model string) (int, int, bool) {
	m := strings.ToLower(model)
	i := strings.Index(m, "claude-")
	if i < 0 {
		return 0, 0, false
	}
	var nums []int
	for _, part := range strings.Split(m[i+len("claude-"):], "-") {
		n, err := strconv.Atoi(part)
		if err != nil || len(part) > 2 {
			if len(nums) > 0 {
				break
			}
			continue
		}
		nums = append(nums, n)
		if len(nums) == 2 {
			break
		}
	}
	if len(nums) == 0 {
		return 0, 0, false
	}
	if len(nums) == 1 {
		nums = append(nums, 0)
	}
	return nums[0], nums[1], true
}

// gptVersion reads (major, minor) out of gpt-5.4, gpt-5.4-preview, ...
func gptVersion(model string) (int, int, bool) {
	rest, ok := strings.CutPrefix(strings.ToLower(model), "gpt-")
	if !ok {
		return 0, 0, false
	}
	v, _, _ := strings.Cut(rest, "-")
	maj, min, _ := strings.Cut(v, ".")
	a, err := strconv.Atoi(maj)
	if err != nil {
		return 0, 0, false
	}
	b, _ := strconv.Atoi(min)
	return a, b, true
}

// nativeToolSearchShape is "anthropic" or "openai" when the call's
// provider and model search tools natively, else "".
func nativeToolSearchShape(opts *Dict) string {
	provider := orDefault(dictString(opts, "provider"), "mock")
	model := dictString(opts, "model")
	if o := dictValue(opts, provider).AsDict(); o != nil && optBool(o, "force_native_tool_search") {
		return "openai"
	}
	if provider == "anthropic" || provider == "mock" {
		if maj, min, ok := claudeVersion(model); ok {
			if strings.Contains(strings.ToLower(model), "haiku") {
				if maj > 4 || maj == 4 && min >= 5 {
					return "anthropic"
				}
			} else if maj >= 4 && (strings.Contains(model, "opus") || strings.Contains(model, "sonnet")) {
				return "anthropic"
			}
			return ""
		}
	}
	if provider == "openai" || provider == "mock" {
		if maj, min, ok := gptVersion(model); ok && (maj > 5 || maj == 5 && min >= 4) {
			return "openai"
		}
	}
	return ""
}

// nativeSearchTools is llm_call's tools under native tool search: the
// provider's meta-tool, then every tool in the provider's shape with its
// defer_loading flag and namespace. The bool is false when tool_search
// does not apply natively to the call.
func nativeSearchTools(opts *Dict, tools Value) (Value, bool, error) {
	cfg, err := parseToolSearch(opts)
	if cfg == nil || err != nil || cfg.mode == "client" {
		return tools, false, err
	}
	shape := nativeToolSearchShape(opts)
	if shape == "" {
		if cfg.mode == "native" {
			return tools, false, throwValue(Str("tool_search: provider \"" + orDefault(dictString(opts, "provider"), "mock") +
				"\" does not expose native tool-search for model \"" + dictString(opts, "model") +
				"\". Set `tool_search: { mode: \"client\" }` to use the client-executed fallback, or omit tool_search to ship tools eagerly."))
		}
		return tools, false, nil
	}
	var list []Value
	switch tools.k {
	case KindList:
		list = tools.r.(*List).SharedItems()
	case KindDict:
		list = dictList(tools.AsDict(), "tools")
	}
	deferred := 0
	for _, t := range list {
		if toolDeferred(t) {
			deferred++
		}
	}
	if len(list) > 0 && deferred == len(list) {
		return tools, false, throwValue(Str("tool_search: all tools have defer_loading set. At least one tool must be non-deferred so the model has somewhere to start. (Matches Anthropic's 400 on the same condition.)"))
	}
	out := []Value{Nil}
	var namespaces []string
	for _, t := range list {
		d := t.AsDict()
		if t.k != KindDict || d == nil {
			continue
		}
		var w *Dict
		if shape == "anthropic" {
			tt := turnTool(d)
			w = NewDict(4)
			w.Set("name", Str(tt.Name))
			w.Set("description", Str(tt.Description))
			w.Set("input_schema", fromGo(llm.ToolInputSchema(tt)))
		} else {
			w = fromGo(llm.OpenAITool(turnTool(d))).AsDict()
		}
		if toolDeferred(t) {
			w.Set("defer_loading", Bool(true))
		}
		if ns := dictString(d, "namespace"); ns != "" {
			w.Set("namespace", Str(ns))
			if !containsString(namespaces, ns) {
				namespaces = append(namespaces, ns)
			}
		}
		out = append(out, DictValue(w))
	}
	if shape == "anthropic" {
		out[0] = DictValue(strDict("type", "tool_search_tool_"+cfg.strategy+"_20251119", "name", "tool_search_tool_"+cfg.strategy))
	} else {
		meta := strDict("type", "tool_search", "mode", "hosted")
		if len(namespaces) > 0 {
			sort.Strings(namespaces)
			meta.Set("namespaces", NewListValue(StrValues(namespaces)))
		}
		out[0] = DictValue(meta)
	}
	return NewListValue(out), true, nil
}

// offeredTools is a turn's tools as llm_mock_calls reports them: in the
// OpenAI chat shape the mock speaks ({type: "function", function: {name,
// description, parameters}}); an entry that already names its type (a
// provider's own tool, such as a hosted tool_search) stays as it is.
func offeredTools(tools Value) Value {
	if tools.k != KindList {
		return tools
	}
	items := tools.r.(*List).SharedItems()
	out := make([]Value, 0, len(items))
	for _, t := range items {
		d := t.AsDict()
		if t.k != KindDict || d == nil || d.Has("type") {
			out = append(out, t)
			continue
		}
		out = append(out, fromGo(llm.OpenAITool(turnTool(d))))
	}
	return NewListValue(out)
}
