package harn

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Skills in agent_loop. With a `skills:` registry the loop matches skills
// against the latest user message (and `working_files:` against their
// `paths:` globs) before its first turn, and before every turn when
// `skill_match: {sticky: false}`. Matched skills become active: their
// description, when_to_use, scoped tools and prompt join the system
// prompt under "## Active skills", and their `allowed_tools` (tool names,
// `namespace:<tag>`, or "*") narrow the tools the model is offered. Each
// phase leaves transcript events: skill_matched (always, with the ranked
// candidates), skill_activated, skill_deactivated and skill_scope_tools.
// A named session remembers its active skills, so re-entering it keeps
// them without re-matching. The runtime-owned load_skill tool is offered
// whenever the registry has skills (lib_skill_load.go).

// skillMatchConfig is agent_loop's `skill_match:` option.
type skillMatchConfig struct {
	strategy string
	topN     int
	sticky   bool
}

// activeSkill is what an active skill contributes to a turn.
type activeSkill struct {
	name, description, whenToUse, prompt string
	allowedTools                         []string
}

func activeSkillOf(entry Value) activeSkill {
	d := entry.AsDict()
	if entry.k != KindDict || d == nil {
		return activeSkill{}
	}
	return activeSkill{
		name:         OptStr(d, "name"),
		description:  OptStr(d, "description"),
		whenToUse:    OptStr(d, "when_to_use"),
		prompt:       OptStr(d, "prompt"),
		allowedTools: stringList(dictValue(d, "allowed_tools")),
	}
}

func dictValue(d *Dict, key string) Value {
	v, _ := d.Get(key)
	return v
}

// skillDisabledForModel reports a skill its author keeps away from the
// model (`disable-model-invocation: true`).
func skillDisabledForModel(entry Value) bool {
	d := entry.AsDict()
	if entry.k != KindDict || d == nil {
		return false
	}
	for _, k := range []string{"disable-model-invocation", "disable_model_invocation"} {
		if v, ok := d.Get(k); ok {
			return v.k == KindBool && v.AsBool()
		}
	}
	return false
}

// loopSkills is the skill state of one agent_loop run.
type loopSkills struct {
	registry     Value
	skills       []Value
	match        skillMatchConfig
	workingFiles []string
	active       []activeSkill
	loaded       []activeSkill
	rehydrated   bool
}

// workflowSkills is the stack of skill options of the workflow nodes
// running now: an agent loop inside one (a sub-agent a tool starts)
// inherits them unless it names its own.
type workflowSkills struct{ stack []*Dict }

func workflowSkillsOf(c *Call) *workflowSkills {
	return c.th.in.State("workflow_skills", func() any { return &workflowSkills{} }).(*workflowSkills)
}

// enterWorkflowSkills makes a workflow's skills and skill_match options
// the default of the agent loops run until the returned func is called.
func enterWorkflowSkills(c *Call, opts *Dict) func() {
	w := workflowSkillsOf(c)
	d := NewDict(2)
	for _, k := range []string{"skills", "skill_match"} {
		if v, ok := opts.Get(k); ok {
			d.Set(k, v)
		}
	}
	c.th.in.mu.Lock()
	w.stack = append(w.stack, d)
	c.th.in.mu.Unlock()
	return func() {
		c.th.in.mu.Lock()
		w.stack = w.stack[:len(w.stack)-1]
		c.th.in.mu.Unlock()
	}
}

func (w *workflowSkills) get(c *Call, key string) (Value, bool) {
	c.th.in.mu.Lock()
	defer c.th.in.mu.Unlock()
	if n := len(w.stack); n > 0 {
		return w.stack[n-1].Get(key)
	}
	return Nil, false
}

// parseLoopSkills reads skills, skill_match and working_files; nil when
// the loop has no skills.
func parseLoopSkills(c *Call, opts *Dict) *loopSkills {
	reg, ok := opts.Get("skills")
	if !ok {
		reg, _ = workflowSkillsOf(c).get(c, "skills")
	}
	var skills []Value
	switch reg.k {
	case KindDict:
		if dictString(reg.AsDict(), "_type") != "skill_registry" {
			return nil
		}
		skills = dictList(reg.AsDict(), "skills")
	case KindList:
		skills = reg.r.(*List).SharedItems()
		reg = newSkillRegistry(skills)
	default:
		return nil
	}
	s := &loopSkills{registry: reg, skills: skills, match: skillMatchConfig{strategy: "metadata", topN: 1, sticky: true}}
	m, ok := opts.Get("skill_match")
	if !ok {
		m, _ = workflowSkillsOf(c).get(c, "skill_match")
	}
	if md := m.AsDict(); m.k == KindDict && md != nil {
		switch st := dictString(md, "strategy"); st {
		case "metadata", "host", "embedding":
			s.match.strategy = st
		}
		if n := optInt64(md, "top_n", 1); n > 1 {
			s.match.topN = int(n)
		}
		if v, ok := md.Get("sticky"); ok {
			s.match.sticky = v.k == KindBool && v.AsBool()
		}
	}
	s.workingFiles = stringList(dictValue(opts, "working_files"))
	return s
}

// skillSessions remembers the active skills of named sessions.
type skillSessions struct{ active map[string][]string }

func skillSessionsOf(c *Call) *skillSessions {
	return c.th.in.State("skill_sessions", func() any { return &skillSessions{active: map[string][]string{}} }).(*skillSessions)
}

// rehydrate restores the skills a named session left active, as the
// current registry defines them.
func (s *loopSkills) rehydrate(c *Call, session string) {
	if session == "" {
		return
	}
	ss := skillSessionsOf(c)
	c.th.in.mu.Lock()
	names := ss.active[session]
	c.th.in.mu.Unlock()
	for _, n := range names {
		if e, ok := s.find(n); ok {
			s.active = append(s.active, activeSkillOf(e))
		}
	}
	s.rehydrated = len(s.active) > 0
}

// remember stores the session's active skills for its next loop.
func (s *loopSkills) remember(c *Call, session string) {
	if session == "" {
		return
	}
	names := make([]string, len(s.active))
	for i, a := range s.active {
		names[i] = a.name
	}
	ss := skillSessionsOf(c)
	c.th.in.mu.Lock()
	ss.active[session] = names
	c.th.in.mu.Unlock()
}

func (s *loopSkills) find(name string) (Value, bool) {
	for _, e := range s.skills {
		if skillName(e) == name {
			return e, true
		}
	}
	return Nil, false
}

// skillCandidate is one skill's match score.
type skillCandidate struct {
	name   string
	score  float64
	reason string
}

// scoreSkills ranks skills for a prompt: term hits in description and
// when_to_use (saturating), the skill's name in the prompt, and working
// files its paths globs match (each counts more than keywords).
func scoreSkills(skills []Value, prompt string, files []string) []skillCandidate {
	terms := promptTerms(prompt)
	lower := strings.ToLower(prompt)
	var out []skillCandidate
	for _, e := range skills {
		d := e.AsDict()
		if e.k != KindDict || d == nil || skillDisabledForModel(e) {
			continue
		}
		name := OptStr(d, "name")
		var score float64
		var reasons []string
		if hits := termHits(terms, OptStr(d, "description")) + termHits(terms, OptStr(d, "when_to_use")); hits > 0 {
			score += float64(hits) / (float64(hits) + 1.5)
			reasons = append(reasons, strconv.Itoa(hits)+" keyword hit(s)")
		}
		if name != "" && strings.Contains(lower, strings.ToLower(name)) {
			score += 2
			reasons = append(reasons, "prompt mentions '"+name+"'")
		}
		paths := 0
		for _, p := range stringList(dictValue(d, "paths")) {
			for _, f := range files {
				if globMatch(p, f) {
					paths++
					break
				}
			}
		}
		if paths > 0 {
			score += 1.5 * float64(paths)
			reasons = append(reasons, strconv.Itoa(paths)+" path glob(s) matched")
		}
		if score > 0 {
			out = append(out, skillCandidate{name, score, strings.Join(reasons, "; ")})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// promptTerms are the prompt's lowercased words longer than two letters.
func promptTerms(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) > 2 {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

func termHits(terms []string, text string) int {
	if text == "" {
		return 0
	}
	lower := strings.ToLower(text)
	n := 0
	for _, t := range terms {
		if strings.Contains(lower, t) {
			n++
		}
	}
	return n
}

// latestUserText is the content of the last user message with text.
func latestUserText(messages []Value) string {
	for i := len(messages) - 1; i >= 0; i-- {
		d := messages[i].AsDict()
		if messages[i].k != KindDict || dictString(d, "role") != "user" {
			continue
		}
		if v, ok := d.Get("content"); ok && v.k == KindString {
			return v.AsString()
		}
	}
	return ""
}

// skillPhase runs the match phase before a turn when it is due: the
// first turn (unless a resumed session brought its skills and matching
// is sticky) and every turn when it is not sticky.
func (r *loopRun) skillPhase() {
	s := r.skills
	if s == nil || len(s.skills) == 0 {
		return
	}
	first := r.iterations == 0
	if !(first || !s.match.sticky) || (first && s.rehydrated && s.match.sticky) {
		return
	}
	iteration := Int(r.iterations)
	ranked := scoreSkills(s.skills, latestUserText(r.messages), s.workingFiles)
	cands := make([]Value, len(ranked))
	for i, c := range ranked {
		cd := NewDict(3)
		cd.Set("name", Str(c.name))
		cd.Set("score", Float(c.score))
		cd.Set("reason", Str(c.reason))
		cands[i] = DictValue(cd)
	}
	meta := NewDict(5)
	meta.Set("strategy", Str(s.match.strategy))
	meta.Set("iteration", iteration)
	meta.Set("reassess", Bool(!first))
	meta.Set("candidates", NewListValue(cands))
	meta.Set("working_files", NewListValue(StrValues(s.workingFiles)))
	r.event("skill_matched", "", meta)

	top := ranked
	if len(top) > s.match.topN {
		top = top[:s.match.topN]
	}
	keep := map[string]bool{}
	same := len(top) == len(s.active)
	for i, c := range top {
		keep[c.name] = true
		same = same && s.active[i].name == c.name
	}
	if same {
		return
	}
	var kept []activeSkill
	for _, a := range s.active {
		if keep[a.name] {
			kept = append(kept, a)
			continue
		}
		m := NewDict(2)
		m.Set("name", Str(a.name))
		m.Set("iteration", iteration)
		r.event("skill_deactivated", a.name, m)
		r.runSkillHook(a.name, "on_deactivate")
	}
	s.active = kept
	for _, c := range top {
		if s.isActive(c.name) {
			continue
		}
		e, ok := s.find(c.name)
		if !ok {
			continue
		}
		a := activeSkillOf(e)
		m := NewDict(7)
		m.Set("name", Str(a.name))
		m.Set("description", Str(a.description))
		m.Set("iteration", iteration)
		m.Set("score", Float(c.score))
		m.Set("reason", Str(c.reason))
		m.Set("allowed_tools", NewListValue(StrValues(a.allowedTools)))
		r.event("skill_activated", a.name, m)
		if len(a.allowedTools) > 0 {
			m := NewDict(2)
			m.Set("name", Str(a.name))
			m.Set("allowed_tools", NewListValue(StrValues(a.allowedTools)))
			r.event("skill_scope_tools", a.name, m)
		}
		r.runSkillHook(a.name, "on_activate")
		s.active = append(s.active, a)
	}
}

func (s *loopSkills) isActive(name string) bool {
	for _, a := range s.active {
		if a.name == name {
			return true
		}
	}
	return false
}

// runSkillHook calls a skill's on_activate / on_deactivate closure; a
// failing hook does not end the loop.
func (r *loopRun) runSkillHook(name, hook string) {
	e, ok := r.skills.find(name)
	if !ok {
		return
	}
	if h, ok := e.AsDict().Get(hook); ok && (h.k == KindClosure || h.k == KindBuiltin) {
		_, _ = r.c.Invoke(h)
	}
}

// promptSkills are the skills a turn's system prompt shows: the matched
// ones, each replaced by its loaded version (with the rendered body)
// when load_skill loaded it, then the other loaded ones.
func (s *loopSkills) promptSkills() []activeSkill {
	out := append([]activeSkill(nil), s.active...)
	for _, l := range s.loaded {
		replaced := false
		for i := range out {
			if out[i].name == l.name {
				out[i], replaced = l, true
			}
		}
		if !replaced {
			out = append(out, l)
		}
	}
	return out
}

// section is the "## Active skills" block; "" when none is active.
func (s *loopSkills) section() string {
	if s == nil {
		return ""
	}
	skills := s.promptSkills()
	if len(skills) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\n## Active skills\n")
	for _, a := range skills {
		b.WriteString("\n### " + a.name + "\n")
		if d := strings.TrimSpace(a.description); d != "" {
			b.WriteString(d + "\n")
		}
		if w := strings.TrimSpace(a.whenToUse); w != "" {
			b.WriteString("When to use: " + w + "\n")
		}
		if len(a.allowedTools) > 0 {
			b.WriteString("Scoped tools: " + strings.Join(a.allowedTools, ", ") + "\n")
		}
		if p := strings.TrimSpace(a.prompt); p != "" {
			b.WriteString("\n" + p + "\n")
		}
	}
	return b.String()
}

// allowed is the union of the active and loaded skills' allowed_tools;
// nil when none narrows the tools (or one allows "*").
func (s *loopSkills) allowed() map[string]bool {
	if s == nil {
		return nil
	}
	set := map[string]bool{}
	for _, a := range append(append([]activeSkill(nil), s.active...), s.loaded...) {
		for _, t := range a.allowedTools {
			if t == "*" {
				return nil
			}
			set[t] = true
		}
	}
	if len(set) == 0 {
		return nil
	}
	return set
}

// scopeTools keeps the tools the active skills allow: by name, or by
// the namespace a `namespace:<tag>` entry names.
func (s *loopSkills) scopeTools(tools []Value) []Value {
	allowed := s.allowed()
	if allowed == nil {
		return tools
	}
	var out []Value
	for _, t := range tools {
		d := t.AsDict()
		if t.k != KindDict || d == nil {
			continue
		}
		if allowed[toolName(t)] || strings.HasPrefix(toolName(t), "__harn_") {
			out = append(out, t)
		} else if ns := dictString(d, "namespace"); ns != "" && allowed["namespace:"+ns] {
			out = append(out, t)
		}
	}
	return out
}

// withSkillSection puts the active-skill block after the caller's system
// prompt (trimmed at its end), or alone when there is none.
func withSkillSection(base Value, section string) Value {
	if section == "" {
		return base
	}
	if base.k == KindNil {
		return Str(strings.TrimLeft(section, " \t\r\n"))
	}
	return Str(strings.TrimRight(Display(base), " \t\r\n") + section)
}
