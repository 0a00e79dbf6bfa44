package harn

import (
	"sort"
	"strings"
)

// Artifacts: typed context items a workflow selects under a policy
// instead of concatenating strings. artifact normalises one (id, kind,
// text or data, provenance fields); artifact_derive links a new one to
// its parent; artifact_select keeps what a context policy allows and
// artifact_context renders the kept ones as text.

// artifactOf normalises an artifact payload.
func artifactOf(c *Call, v Value) *Dict {
	var a *Dict
	if v.k == KindDict {
		a = v.r.(*Dict).clone()
	} else {
		a = wfDict("text", Str(Display(v)))
	}
	a.Set("_type", Str("artifact"))
	if OptStr(a, "id") == "" {
		a.Set("id", Str("artifact_"+newUUID(c)))
	}
	if OptStr(a, "kind") == "" {
		a.Set("kind", Str("artifact"))
	}
	if _, ok := a.Get("lineage"); !ok {
		a.Set("lineage", NewListValue(nil))
	}
	if _, ok := a.Get("freshness"); !ok {
		a.Set("freshness", Str("fresh"))
	}
	if _, ok := a.Get("created_at"); !ok {
		a.Set("created_at", Str(nowRFC3339(c)))
	}
	if _, ok := a.Get("estimated_tokens"); !ok {
		a.Set("estimated_tokens", Int(int64((len(artifactText(a))+3)/4)))
	}
	return a
}

// artifactText is an artifact's text, or its data as JSON.
func artifactText(a *Dict) string {
	if t, ok := a.Get("text"); ok && t.k != KindNil {
		return Display(t)
	}
	if d, ok := a.Get("data"); ok && d.k != KindNil {
		return jsonText(d)
	}
	return ""
}

// nowRFC3339 is the run clock's time as text.
func nowRFC3339(c *Call) string {
	if b, ok := c.th.in.builtin("date_now_iso"); ok {
		if v, err := b.Fn(c, nil); err == nil && v.k == KindString {
			return v.AsString()
		}
	}
	return ""
}

// artifactSelect keeps the artifacts a context policy allows: kinds in
// include_kinds and not in exclude_kinds, highest priority and relevance
// first, within max_artifacts and max_tokens.
func artifactSelect(c *Call, items []Value, policy *Dict) []*Dict {
	var include, exclude []string
	var maxArtifacts, maxTokens int64 = -1, -1
	if policy != nil {
		iv, _ := policy.Get("include_kinds")
		include = wfStringList(iv)
		ev, _ := policy.Get("exclude_kinds")
		exclude = wfStringList(ev)
		if n := OptInt(policy, "max_artifacts"); n != nil {
			maxArtifacts = *n
		}
		if n := OptInt(policy, "max_tokens"); n != nil {
			maxTokens = *n
		}
	}
	var kept []*Dict
	for _, v := range items {
		a := artifactOf(c, v)
		kind := OptStr(a, "kind")
		if len(include) > 0 && !containsString(include, kind) || containsString(exclude, kind) {
			continue
		}
		kept = append(kept, a)
	}
	score := func(a *Dict) float64 {
		s := 0.0
		if v, ok := a.Get("priority"); ok {
			if f, ok := v.Number(); ok {
				s += f * 10
			}
		}
		if v, ok := a.Get("relevance"); ok {
			if f, ok := v.Number(); ok {
				s += f
			}
		}
		return s
	}
	sort.SliceStable(kept, func(i, j int) bool { return score(kept[i]) > score(kept[j]) })
	var out []*Dict
	var tokens int64
	for _, a := range kept {
		if maxArtifacts >= 0 && int64(len(out)) >= maxArtifacts {
			break
		}
		t := int64(0)
		if n := OptInt(a, "estimated_tokens"); n != nil {
			t = *n
		}
		if maxTokens >= 0 && tokens+t > maxTokens && len(out) > 0 {
			continue
		}
		tokens += t
		out = append(out, a)
	}
	return out
}

// artifactContext renders artifacts as context blocks.
func artifactContext(arts []*Dict) string {
	var b strings.Builder
	for i, a := range arts {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("<artifact kind=\"" + OptStr(a, "kind") + "\"")
		if t := OptStr(a, "title"); t != "" {
			b.WriteString(" title=\"" + t + "\"")
		}
		b.WriteString(">\n")
		b.WriteString(artifactText(a))
		b.WriteString("\n</artifact>")
	}
	return b.String()
}

func artifactValues(arts []*Dict) Value {
	out := make([]Value, len(arts))
	for i, a := range arts {
		out[i] = DictValue(a)
	}
	return NewListValue(out)
}

func listItems(v Value) []Value {
	if v.k == KindList {
		return v.r.(*List).SharedItems()
	}
	return nil
}

func installArtifacts(lib *Library) {
	lib.Builtin("artifact", func(c *Call, args []Value) (Value, error) {
		return DictValue(artifactOf(c, Arg(args, 0))), nil
	})
	lib.Builtin("artifact_derive", func(c *Call, args []Value) (Value, error) {
		parent := artifactOf(c, Arg(args, 0))
		d := NewDict(4)
		if t, ok := parent.Get("text"); ok {
			d.Set("text", t)
		}
		for _, k := range []string{"source", "relevance", "title"} {
			if v, ok := parent.Get(k); ok {
				d.Set(k, v)
			}
		}
		if extra := wfCeiling(Arg(args, 2)); extra != nil {
			for _, k := range extra.Keys() {
				v, _ := extra.Get(k)
				d.Set(k, v)
			}
		}
		d.Set("kind", Str(Display(Arg(args, 1))))
		lineage := append(dictList(parent, "lineage"), Str(OptStr(parent, "id")))
		d.Set("lineage", NewListValue(lineage))
		d.Set("parent_id", Str(OptStr(parent, "id")))
		return DictValue(artifactOf(c, DictValue(d))), nil
	})
	lib.Builtin("artifact_select", func(c *Call, args []Value) (Value, error) {
		return artifactValues(artifactSelect(c, listItems(Arg(args, 0)), wfCeiling(Arg(args, 1)))), nil
	})
	lib.Builtin("select_artifacts_adaptive", func(c *Call, args []Value) (Value, error) {
		policy := wfCeiling(Arg(args, 1))
		// Rank first so the duplicate kept is the best-ranked one.
		ranked := artifactSelect(c, listItems(Arg(args, 0)), wfDict("include_kinds", func() Value {
			if policy != nil {
				v, _ := policy.Get("include_kinds")
				return v
			}
			return Nil
		}()))
		seen := map[string]bool{}
		var kept []Value
		limit := int64(-1)
		if policy != nil {
			if n := OptInt(policy, "max_tokens"); n != nil {
				limit = *n
			}
		}
		for _, a := range ranked {
			text := artifactText(a)
			if seen[text] {
				continue
			}
			seen[text] = true
			// Microcompact: an artifact bigger than the whole budget keeps
			// its head, so it can still be selected.
			if limit > 0 && int64(len(text)) > limit*4 {
				a = a.clone()
				a.Set("text", Str(text[:limit*4]))
				a.Set("estimated_tokens", Int(limit))
				a.Set("microcompacted", Bool(true))
			}
			kept = append(kept, DictValue(a))
		}
		return artifactValues(artifactSelect(c, kept, policy)), nil
	})
	lib.Builtin("artifact_context", func(c *Call, args []Value) (Value, error) {
		return Str(artifactContext(artifactSelect(c, listItems(Arg(args, 0)), wfCeiling(Arg(args, 1))))), nil
	})
}
