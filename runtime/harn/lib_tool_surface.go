package harn

import (
	"fmt"
	"sort"
	"strings"
)

// tool_surface_validate checks an agent's tool surface before any model
// call: the active tools (a registry, a tool list or provider-native tool
// schemas, narrowed by the capability policy's tool patterns) against
// their schemas, annotations and executors, the policy's argument
// constraints and side-effect ceiling, the approval policy's patterns,
// and the tools the prompt text calls. The report is {valid, diagnostics:
// [{code, severity, message, tool?, field?}]} with upstream Harn's stable
// TOOL_SURFACE_* codes; only error diagnostics make it invalid.

// surfaceToolKinds are the kinds of ToolAnnotations (side-effect levels
// are sideEffectRank's).
var surfaceToolKinds = map[string]bool{
	"read": true, "edit": true, "delete": true, "move": true, "search": true,
	"execute": true, "think": true, "fetch": true, "other": true,
}

// surfaceAnnotations is the part of a tool's annotations the checks read.
type surfaceAnnotations struct {
	kind, sideEffect             string
	emitsArtifacts, inlineResult bool
	resultReaders                []string
	argKeys                      map[string]bool // path_params, required, aliases and their targets
	aliases                      map[string]string
}

type surfaceTool struct {
	name           string
	hasSchema      bool
	paramKeys      map[string]bool
	ann            *surfaceAnnotations
	hasExecutor    bool
	deferLoading   bool
	providerNative bool
}

type surfaceConstraint struct {
	tool   string
	argKey *string
}

type surfacePolicy struct {
	tools       []string
	constraints []surfaceConstraint
	annotations map[string]*surfaceAnnotations
	ceiling     *string
}

type surfaceInput struct {
	tools      []surfaceTool
	policy     *surfacePolicy
	approval   map[string][]string // auto_approve, auto_deny, require_approval
	prompts    []string
	toolSearch bool
}

type surfaceDiag struct {
	code, severity, message string
	tool, field             string
}

func goStrings(x any) ([]string, bool) {
	if x == nil {
		return nil, true
	}
	l, ok := x.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, e := range l {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// parseSurfaceAnnotations reads ToolAnnotations; a field of the wrong type
// or an unknown kind or level makes the whole value unreadable (nil), as
// a failed decode does upstream.
func parseSurfaceAnnotations(x any) *surfaceAnnotations {
	m, ok := x.(map[string]any)
	if !ok {
		return nil
	}
	a := &surfaceAnnotations{kind: "other", sideEffect: "none", argKeys: map[string]bool{}, aliases: map[string]string{}}
	str := func(key string, dst *string, valid func(string) bool) bool {
		v, present := m[key]
		if !present || v == nil {
			return true
		}
		s, ok := v.(string)
		if !ok || !valid(s) {
			return false
		}
		*dst = s
		return true
	}
	flag := func(key string, dst *bool) bool {
		v, present := m[key]
		if !present || v == nil {
			return true
		}
		b, ok := v.(bool)
		*dst = b
		return ok
	}
	if !str("kind", &a.kind, func(s string) bool { return surfaceToolKinds[s] }) ||
		!str("side_effect_level", &a.sideEffect, func(s string) bool { _, ok := sideEffectRank[s]; return ok }) ||
		!flag("emits_artifacts", &a.emitsArtifacts) || !flag("inline_result", &a.inlineResult) {
		return nil
	}
	if a.resultReaders, ok = goStrings(m["result_readers"]); !ok {
		return nil
	}
	if s, present := m["arg_schema"]; present && s != nil {
		sm, ok := s.(map[string]any)
		if !ok {
			return nil
		}
		for _, key := range []string{"path_params", "required"} {
			l, ok := goStrings(sm[key])
			if !ok {
				return nil
			}
			for _, k := range l {
				a.argKeys[k] = true
			}
		}
		if al, present := sm["arg_aliases"]; present && al != nil {
			am, ok := al.(map[string]any)
			if !ok {
				return nil
			}
			for k, v := range am {
				s, ok := v.(string)
				if !ok {
					return nil
				}
				a.aliases[k] = s
				a.argKeys[k], a.argKeys[s] = true, true
			}
		}
	}
	return a
}

// surfaceParamKeys is whether a parameter schema exists and its keys: a
// JSON schema's properties, or the keys of a {name: type} shorthand.
func surfaceParamKeys(x any, present bool) (bool, map[string]bool) {
	keys := map[string]bool{}
	if !present || x == nil {
		return false, keys
	}
	m, _ := x.(map[string]any)
	if props, ok := m["properties"].(map[string]any); ok {
		for k := range props {
			keys[k] = true
		}
	} else {
		for k := range m {
			if k != "type" && k != "required" && k != "description" {
				keys[k] = true
			}
		}
	}
	return true, keys
}

func parseSurfacePolicy(x any) *surfacePolicy {
	m, ok := x.(map[string]any)
	if !ok {
		return nil
	}
	p := &surfacePolicy{annotations: map[string]*surfaceAnnotations{}}
	p.tools, _ = goStrings(m["tools"])
	if l, ok := m["tool_arg_constraints"].([]any); ok {
		for _, e := range l {
			cm, ok := e.(map[string]any)
			if !ok {
				continue
			}
			tool, _ := cm["tool"].(string)
			c := surfaceConstraint{tool: tool}
			if k, ok := cm["arg_key"].(string); ok {
				c.argKey = &k
			}
			p.constraints = append(p.constraints, c)
		}
	}
	if am, ok := m["tool_annotations"].(map[string]any); ok {
		for name, a := range am {
			if ann := parseSurfaceAnnotations(a); ann != nil {
				p.annotations[name] = ann
			}
		}
	}
	if s, ok := m["side_effect_level"].(string); ok {
		p.ceiling = &s
	}
	return p
}

// surfaceVMTools reads a registry, a tool list or a single tool dict.
func surfaceVMTools(x any, policy *surfacePolicy) []surfaceTool {
	var items []any
	switch t := x.(type) {
	case []any:
		items = t
	case map[string]any:
		if l, ok := t["tools"].([]any); ok {
			items = l
		} else {
			items = []any{t}
		}
	}
	var out []surfaceTool
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		name := fmt.Sprint(m["name"])
		if m["name"] == nil || name == "" {
			continue
		}
		params, present := m["parameters"]
		t := surfaceTool{name: name}
		t.hasSchema, t.paramKeys = surfaceParamKeys(params, present)
		if a, ok := m["annotations"]; ok {
			t.ann = parseSurfaceAnnotations(a)
		}
		if t.ann == nil && policy != nil {
			t.ann = policy.annotations[name]
		}
		_, exec := m["executor"].(string)
		_, handler := m["handler"].(closureMarker)
		_, mcp := m["_mcp_server"].(string)
		t.hasExecutor = exec || handler || mcp
		t.deferLoading = m["defer_loading"] == true
		out = append(out, t)
	}
	return out
}

// closureMarker stands for a closure in the Go form of a tool (see
// surfaceGo).
type closureMarker struct{}

// surfaceGo is toGo that keeps closures recognisable.
func surfaceGo(v Value) any {
	switch v.k {
	case KindClosure, KindBuiltin:
		return closureMarker{}
	case KindList:
		items := v.r.(*List).SharedItems()
		out := make([]any, len(items))
		for i, x := range items {
			out[i] = surfaceGo(x)
		}
		return out
	case KindDict:
		d := v.r.(*Dict)
		out := make(map[string]any, d.Len())
		for _, k := range d.Keys() {
			x, _ := d.Get(k)
			out[k] = surfaceGo(x)
		}
		return out
	}
	return toGo(v)
}

func surfaceNativeTools(l []any, policy *surfacePolicy) []surfaceTool {
	var out []surfaceTool
	for _, it := range l {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		fn, _ := m["function"].(map[string]any)
		name, _ := fn["name"].(string)
		if name == "" {
			name, _ = m["name"].(string)
		}
		if name == "" || name == "tool_search" || strings.HasPrefix(name, "tool_search_tool_") {
			continue
		}
		schema, present := fn["parameters"]
		if !present {
			schema, present = m["input_schema"]
		}
		if !present {
			schema, present = m["parameters"]
		}
		t := surfaceTool{name: name, hasExecutor: true, providerNative: true}
		t.hasSchema, t.paramKeys = surfaceParamKeys(schema, present)
		ann, ok := m["annotations"]
		if !ok {
			ann, ok = fn["annotations"]
		}
		if ok {
			t.ann = parseSurfaceAnnotations(ann)
		}
		if t.ann == nil && policy != nil {
			t.ann = policy.annotations[name]
		}
		if d, ok := m["defer_loading"].(bool); ok {
			t.deferLoading = d
		} else if d, ok := fn["defer_loading"].(bool); ok {
			t.deferLoading = d
		}
		out = append(out, t)
	}
	return out
}

// surfaceInputOf reads the surface (a dict of parts, or a registry) and
// options the way upstream does: a part missing from the surface may come
// from the options.
func surfaceInputOf(surface, options Value) surfaceInput {
	var sd, od map[string]any
	if surface.k == KindDict {
		sd, _ = surfaceGo(surface).(map[string]any)
	}
	if options.k == KindDict {
		od, _ = surfaceGo(options).(map[string]any)
	}
	get := func(key string) (any, bool) {
		if v, ok := sd[key]; ok {
			return v, true
		}
		v, ok := od[key]
		return v, ok
	}
	var in surfaceInput
	if p, ok := get("policy"); ok {
		in.policy = parseSurfacePolicy(p)
	}
	if a, ok := get("approval_policy"); ok {
		if am, ok := a.(map[string]any); ok {
			in.approval = map[string][]string{}
			for _, k := range []string{"auto_approve", "auto_deny", "require_approval"} {
				in.approval[k], _ = goStrings(am[k])
			}
		}
	}
	tools, ok := get("tools")
	if !ok && sd != nil {
		if t, _ := sd["_type"].(string); t == "tool_registry" {
			tools, ok = sd, true
		}
	}
	if ok {
		in.tools = surfaceVMTools(tools, in.policy)
	}
	if n, ok := get("native_tools"); ok {
		if l, ok := n.([]any); ok {
			seen := map[string]bool{}
			for _, t := range in.tools {
				seen[t.name] = true
			}
			for _, t := range surfaceNativeTools(l, in.policy) {
				if !seen[t.name] {
					in.tools = append(in.tools, t)
				}
			}
		}
	}
	for _, src := range []Value{surface, options} {
		if src.k != KindDict {
			continue
		}
		d := src.r.(*Dict)
		for _, key := range []string{"system", "prompt"} {
			if v, ok := d.Get(key); ok {
				if s := Display(v); s != "" && v.k != KindNil {
					in.prompts = append(in.prompts, s)
				}
			}
		}
		if v, ok := d.Get("prompts"); ok && v.k == KindList {
			for _, p := range v.r.(*List).SharedItems() {
				if s := Display(p); s != "" {
					in.prompts = append(in.prompts, s)
				}
			}
		}
	}
	if v, ok := get("tool_search"); ok && v != nil && v != false {
		in.toolSearch = true
	}
	return in
}

// validateSurface runs every check, in upstream's order.
func validateSurface(in surfaceInput) []surfaceDiag {
	active := map[string]bool{}
	for _, t := range in.tools {
		if in.policy == nil || len(in.policy.tools) == 0 {
			active[t.name] = true
			continue
		}
		for _, p := range in.policy.tools {
			if globMatches(p, t.name) {
				active[t.name] = true
				break
			}
		}
	}
	var out []surfaceDiag
	warn := func(code, tool, field, format string, a ...any) {
		out = append(out, surfaceDiag{code: code, severity: "warning", message: fmt.Sprintf(format, a...), tool: tool, field: field})
	}
	fail := func(code, tool, field, format string, a ...any) {
		out = append(out, surfaceDiag{code: code, severity: "error", message: fmt.Sprintf(format, a...), tool: tool, field: field})
	}
	for _, t := range in.tools {
		if !active[t.name] {
			continue
		}
		if !t.hasSchema {
			warn("TOOL_SURFACE_MISSING_SCHEMA", t.name, "parameters", "active tool '%s' has no parameter schema", t.name)
		}
		if t.ann == nil {
			warn("TOOL_SURFACE_MISSING_ANNOTATIONS", t.name, "annotations", "active tool '%s' has no ToolAnnotations", t.name)
		} else if t.ann.sideEffect == "none" {
			warn("TOOL_SURFACE_MISSING_SIDE_EFFECT_LEVEL", t.name, "side_effect_level", "active tool '%s' has no side-effect level", t.name)
		}
		if !t.hasExecutor && !t.providerNative {
			warn("TOOL_SURFACE_MISSING_EXECUTOR", t.name, "executor", "active tool '%s' has no declared executor", t.name)
		}
		if a := t.ann; a != nil && a.kind == "execute" && a.emitsArtifacts && !a.inlineResult {
			reader := active["read_command_output"]
			for _, r := range a.resultReaders {
				reader = reader || active[r]
			}
			for _, o := range in.tools {
				reader = reader || active[o.name] && o.ann != nil && (o.ann.kind == "read" || o.ann.kind == "search")
			}
			if !reader {
				fail("TOOL_SURFACE_MISSING_RESULT_READER", t.name, "result_readers", "execute tool '%s' can emit output artifacts but has no active result reader", t.name)
			}
			for _, r := range a.resultReaders {
				if !active[r] {
					warn("TOOL_SURFACE_UNKNOWN_RESULT_READER", t.name, "result_readers", "tool '%s' declares result reader '%s' that is not active", t.name, r)
				}
			}
		}
	}
	if in.policy != nil {
		for _, c := range in.policy.constraints {
			var matched []surfaceTool
			for _, t := range in.tools {
				if active[t.name] && globMatches(c.tool, t.name) {
					matched = append(matched, t)
				}
			}
			if len(matched) == 0 && !strings.Contains(c.tool, "*") {
				warn("TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_TOOL", c.tool, "tool_arg_constraints.tool", "ToolArgConstraint references tool '%s' which is not active", c.tool)
			}
			if c.argKey == nil {
				continue
			}
			for _, t := range matched {
				if !t.paramKeys[*c.argKey] && (t.ann == nil || !t.ann.argKeys[*c.argKey]) {
					warn("TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_KEY", t.name, "tool_arg_constraints."+*c.argKey, "ToolArgConstraint for '%s' targets unknown argument '%s'", t.name, *c.argKey)
				}
			}
		}
	}
	if in.approval != nil {
		for _, key := range []string{"auto_approve", "auto_deny", "require_approval"} {
			field := "approval_policy." + key
			for _, p := range in.approval[key] {
				if strings.Contains(p, "*") {
					continue
				}
				if !active[p] {
					warn("TOOL_SURFACE_APPROVAL_PATTERN_NO_MATCH", "", field, "%s pattern '%s' matches no active tool", field, p)
				}
			}
		}
	}
	out = append(out, surfacePromptDiags(in, active)...)
	if in.policy != nil && in.policy.ceiling != nil {
		ceiling := *in.policy.ceiling
		if _, ok := sideEffectRank[ceiling]; !ok {
			ceiling = "none"
		}
		for _, t := range in.tools {
			if active[t.name] && t.ann != nil && sideEffectRank[t.ann.sideEffect] > sideEffectRank[ceiling] {
				fail("TOOL_SURFACE_SIDE_EFFECT_CEILING_EXCEEDED", t.name, "side_effect_level", "tool '%s' requires side-effect level '%s' but policy ceiling is '%s'", t.name, t.ann.sideEffect, ceiling)
			}
		}
	}
	return out
}

func surfacePromptDiags(in surfaceInput, active map[string]bool) []surfaceDiag {
	known, deferred := map[string]bool{}, map[string]bool{}
	for _, t := range in.tools {
		known[t.name] = true
		deferred[t.name] = deferred[t.name] || t.deferLoading
	}
	var out []surfaceDiag
	add := func(code, tool, field, msg string) {
		out = append(out, surfaceDiag{code: code, severity: "warning", message: msg, tool: tool, field: field})
	}
	for _, text := range in.prompts {
		for _, name := range promptToolReferences(text) {
			if !known[name] && (strings.Contains(name, "_") || strings.HasPrefix(name, "tool") || strings.HasPrefix(name, "run")) {
				add("TOOL_SURFACE_UNKNOWN_PROMPT_TOOL", name, "prompt", "prompt references tool '"+name+"' which is not active")
				continue
			}
			if known[name] && !active[name] {
				add("TOOL_SURFACE_PROMPT_TOOL_NOT_IN_POLICY", name, "prompt", "prompt references tool '"+name+"' outside the active policy")
			}
			if deferred[name] && !in.toolSearch {
				add("TOOL_SURFACE_DEFERRED_TOOL_PROMPT_REFERENCE", name, "prompt", "prompt references deferred tool '"+name+"' but tool_search is not active")
			}
		}
		for _, t := range in.tools {
			if t.ann == nil {
				continue
			}
			aliases := make([]string, 0, len(t.ann.aliases))
			for a := range t.ann.aliases {
				aliases = append(aliases, a)
			}
			sort.Strings(aliases)
			for _, a := range aliases {
				if containsIdentToken(text, a) {
					add("TOOL_SURFACE_DEPRECATED_ARG_ALIAS", t.name, "arg_schema.arg_aliases."+a,
						fmt.Sprintf("prompt mentions alias '%s' for tool '%s'; use canonical argument '%s'", a, t.name, t.ann.aliases[a]))
				}
			}
		}
	}
	return out
}

func asciiIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func containsIdentToken(text, needle string) bool {
	if needle == "" {
		return false
	}
	for i := 0; i+len(needle) <= len(text); i++ {
		if text[i:i+len(needle)] != needle {
			continue
		}
		end := i + len(needle)
		if (i == 0 || !asciiIdentByte(text[i-1])) && (end == len(text) || !asciiIdentByte(text[end])) {
			return true
		}
	}
	return false
}

// promptBindingText drops what a prompt scan ignores: fenced code blocks
// and lines under the harn-tool-surface ignore markers.
func promptBindingText(text string) string {
	var b strings.Builder
	fence, block, next := false, false, false
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "```"):
			fence = !fence
			continue
		case strings.Contains(t, "harn-tool-surface: ignore-start"):
			block = true
			continue
		case strings.Contains(t, "harn-tool-surface: ignore-end"):
			block = false
			continue
		case strings.Contains(t, "harn-tool-surface: ignore-next-line"):
			next = true
			continue
		}
		if fence || block || strings.Contains(t, "harn-tool-surface: ignore-line") || strings.Contains(t, "tool-surface-ignore") {
			continue
		}
		if next {
			next = false
			continue
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

var promptStopwords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "return": true, "function": true, "fn": true,
	"JSON": true, "print": true, "println": true, "contains": true, "len": true, "render": true, "render_prompt": true,
}

// promptToolReferences are the sorted names a prompt calls: `name(` and
// `<tool_call> name`.
func promptToolReferences(text string) []string {
	text = promptBindingText(text)
	names := map[string]bool{}
	for i := 0; i < len(text); {
		if strings.HasPrefix(text[i:], "<tool_call>") {
			i += len("<tool_call>")
			for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
				i++
			}
			start := i
			for i < len(text) && asciiIdentByte(text[i]) {
				i++
			}
			if i > start {
				names[text[start:i]] = true
			}
			continue
		}
		if c := text[i]; c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			start := i
			for i++; i < len(text) && asciiIdentByte(text[i]); i++ {
			}
			j := i
			for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
				j++
			}
			if name := text[start:i]; j < len(text) && text[j] == '(' && !promptStopwords[name] {
				names[name] = true
			}
			continue
		}
		i++
	}
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func surfaceReport(diags []surfaceDiag) Value {
	valid := true
	list := make([]Value, len(diags))
	for i, d := range diags {
		valid = valid && d.severity != "error"
		e := NewDict(5)
		e.Set("code", Str(d.code))
		e.Set("severity", Str(d.severity))
		e.Set("message", Str(d.message))
		if d.tool != "" {
			e.Set("tool", Str(d.tool))
		}
		if d.field != "" {
			e.Set("field", Str(d.field))
		}
		list[i] = DictValue(e)
	}
	r := NewDict(2)
	r.Set("valid", Bool(valid))
	r.Set("diagnostics", NewListValue(list))
	return DictValue(r)
}

func installToolSurface(lib *Library) {
	lib.Builtin("tool_surface_validate", func(c *Call, args []Value) (Value, error) {
		surface := Arg(args, 0)
		if len(args) == 0 {
			b := boundToolsOf(c)
			c.th.in.mu.Lock()
			surface = b.registry
			c.th.in.mu.Unlock()
		}
		return surfaceReport(validateSurface(surfaceInputOf(surface, Arg(args, 1)))), nil
	})
}
