package harn

import (
	"strings"
)

// Compaction keeps an agent's prompt-visible conversation inside a token
// budget: when the estimated tokens pass the threshold, the messages
// before the last keep_last are archived behind a summary. Strategies:
// "truncate" (a deterministic abbreviation), "custom" (compact_callback
// given the archived messages returns {summary} or a string), and the
// model-written ones ("llm", "summarize_middle", "summarize_all",
// "hybrid"), whose summary is one more model turn through agentTurn.

type compactPolicy struct {
	strategy  string
	keepLast  int
	threshold int64
	callback  Value
}

// parseCompactPolicy reads agent_loop's compaction options; nil when the
// loop does not compact (no threshold asked for, or compaction off).
func parseCompactPolicy(opts *Dict) *compactPolicy {
	p := &compactPolicy{strategy: "hybrid", keepLast: 10, threshold: -1}
	if v, ok := opts.Get("compaction"); ok {
		switch v.k {
		case KindBool:
			if !v.AsBool() {
				return nil
			}
		case KindString:
			if v.AsString() == "none" {
				return nil
			}
			p.strategy = v.AsString()
		case KindDict:
			d := v.r.(*Dict)
			if s := dictString(d, "strategy"); s != "" {
				p.strategy = s
			}
			p.keepLast = int(optInt64(d, "keep_last_n", optInt64(d, "keep_last", int64(p.keepLast))))
		}
	}
	if s := dictString(opts, "compact_strategy"); s != "" {
		p.strategy = s
	}
	p.keepLast = int(optInt64(opts, "compact_keep_last", int64(p.keepLast)))
	p.threshold = optInt64(opts, "compact_threshold", -1)
	p.callback, _ = opts.Get("compact_callback")
	if p.threshold < 0 {
		return nil // without a threshold (no model context window here) nothing compacts
	}
	if p.keepLast < 0 {
		p.keepLast = 0
	}
	return p
}

func (p *compactPolicy) engine() string {
	switch p.strategy {
	case "truncate", "custom", "observation_mask":
		return p.strategy
	}
	return "llm"
}

// summarize writes the summary of archived messages by the policy.
func (p *compactPolicy) summarize(c *Call, archived []Value, opts *Dict) (string, error) {
	switch p.engine() {
	case "custom":
		if p.callback.k != KindClosure && p.callback.k != KindBuiltin {
			return "", throwValue(Str("compaction: compact_strategy \"custom\" needs a compact_callback closure"))
		}
		v, err := c.Invoke(p.callback, NewListValue(append([]Value{}, archived...)))
		if err != nil {
			return "", err
		}
		if v.k == KindDict {
			return dictString(v.r.(*Dict), "summary"), nil
		}
		return Display(v), nil
	case "llm":
		var b strings.Builder
		b.WriteString("Summarize this conversation so an agent can continue it. Keep decisions, facts and open work.\n\n")
		for _, m := range archived {
			d := m.AsDict()
			content, _ := dictField(d, "content")
			b.WriteString(dictString(d, "role") + ": " + Display(content) + "\n")
		}
		if opts == nil {
			opts = NewDict(0)
		}
		rep, err := agentTurn(c, turnRequest{messages: []Value{messageValue("user", Str(b.String()))}, opts: opts})
		if err != nil {
			return "", err
		}
		return "[auto-compacted " + itoa(int64(len(archived))) + " older messages]\n" + rep.text, nil
	}
	var lines []string
	for _, m := range archived {
		d := m.AsDict()
		content, _ := dictField(d, "content")
		line := []rune(Display(content))
		if len(line) > 80 {
			line = append(line[:80], []rune("...")...)
		}
		lines = append(lines, dictString(d, "role")+": "+string(line))
	}
	return "[auto-compacted " + itoa(int64(len(archived))) + " older messages]\n" + strings.Join(lines, "\n"), nil
}

// compact splits msgs into archived and kept and summarizes the archived.
func (p *compactPolicy) compact(c *Call, msgs []Value, opts *Dict) (summary string, kept []Value, archived []Value, err error) {
	if len(msgs) <= p.keepLast {
		return "", msgs, nil, nil
	}
	cut := len(msgs) - p.keepLast
	archived, kept = msgs[:cut], append([]Value(nil), msgs[cut:]...)
	summary, err = p.summarize(c, archived, opts)
	return summary, kept, archived, err
}

// maybeCompact compacts the loop's messages when they pass the
// threshold.
func (r *loopRun) maybeCompact() error {
	p := r.cfg.compact
	if p == nil || len(r.messages) <= p.keepLast || estimateTokens(r.promptMessages()) <= p.threshold {
		return nil
	}
	return r.compactNow()
}

// compactNow archives all but the last keep_last messages behind a
// summary and records a compaction event.
func (r *loopRun) compactNow() error {
	p := r.cfg.compact
	if p == nil {
		return nil
	}
	before := estimateTokens(r.promptMessages())
	msgs := r.messages
	if r.summary != "" {
		msgs = r.promptMessages()
	}
	sum, kept, archived, err := p.compact(r.c, msgs, r.cfg.opts)
	if err != nil || len(archived) == 0 {
		return err
	}
	r.messages, r.summary = kept, sum
	r.compactions++
	meta := NewDict(5)
	meta.Set("strategy", Str(p.strategy))
	meta.Set("engine_strategy", Str(p.engine()))
	meta.Set("archived_messages", Int(int64(len(archived))))
	meta.Set("estimated_tokens_before", Int(before))
	meta.Set("estimated_tokens_after", Int(estimateTokens(r.promptMessages())))
	r.event("compaction", "compacted "+itoa(int64(len(archived)))+" messages", meta)
	return nil
}

func installCompaction(lib *Library) {
	lib.Builtin("transcript_auto_compact", func(c *Call, args []Value) (Value, error) {
		ms := Arg(args, 0)
		if ms.k != KindList {
			return Nil, throwValue(Str("transcript_auto_compact: first argument must be a message list"))
		}
		opts := NewDict(0)
		if o := Arg(args, 1); o.k == KindDict {
			opts = o.r.(*Dict)
		}
		p := &compactPolicy{strategy: orDefault(dictString(opts, "compact_strategy"), orDefault(dictString(opts, "strategy"), "llm")),
			keepLast: int(optInt64(opts, "keep_last", optInt64(opts, "compact_keep_last", 6)))}
		p.callback, _ = opts.Get("compact_callback")
		sum, kept, archived, err := p.compact(c, ms.r.(*List).SharedItems(), opts)
		if err != nil {
			return Nil, err
		}
		if len(archived) == 0 {
			return ms, nil
		}
		if !strings.Contains(sum, "auto-compacted") {
			sum = "[auto-compacted " + itoa(int64(len(archived))) + " older messages]\n" + sum
		}
		return NewListValue(append([]Value{messageValue("user", Str(sum))}, kept...)), nil
	})
}

// transcriptCompact is transcript_compact(transcript, options): the
// transcript with all but its last keep_last messages archived behind a
// summary (options.summary as given, else by strategy: "truncate",
// "observation_mask" (long outputs masked to their first lines),
// "custom" or a model-written "llm" one), the archived original kept as
// an asset and a "compaction" event recording the strategy.
func transcriptCompact(c *Call, args []Value) (Value, error) {
	t, err := requireTranscript(args, "transcript_compact")
	if err != nil {
		return Nil, err
	}
	opts := NewDict(0)
	if o := Arg(args, 1); o.k == KindDict {
		opts = o.r.(*Dict)
	}
	p := &compactPolicy{strategy: orDefault(dictString(opts, "strategy"), orDefault(dictString(opts, "compact_strategy"), "truncate")),
		keepLast: int(optInt64(opts, "keep_last", 6))}
	p.callback, _ = opts.Get("compact_callback")
	parts := partsOf(t)
	msgs := parts.messages
	if len(msgs) <= p.keepLast {
		return DictValue(t), nil
	}
	cut := len(msgs) - p.keepLast
	archived, kept := msgs[:cut], append([]Value(nil), msgs[cut:]...)
	summary := dictString(opts, "summary")
	if summary == "" {
		if p.strategy == "observation_mask" {
			var lines []string
			for _, m := range archived {
				d := m.AsDict()
				content, _ := dictField(d, "content")
				text := Display(content)
				if n := strings.Count(text, "\n"); n > 3 {
					first := strings.SplitN(text, "\n", 2)[0]
					text = first + " [... " + itoa(int64(n)) + " lines masked ...]"
				}
				lines = append(lines, dictString(d, "role")+": "+text)
			}
			summary = "[auto-compacted " + itoa(int64(len(archived))) + " older messages; long observations masked]\n" + strings.Join(lines, "\n")
		} else if summary, err = p.summarize(c, archived, opts); err != nil {
			return Nil, err
		}
	}
	before := estimateTokens(msgs)
	original := transcriptParts{messages: msgs, summary: parts.summary, metadata: parts.metadata}.build(c)
	asset := normalizeAsset(c, DictValue(strDict("kind", "transcript", "name", "pre-compaction transcript")))
	asset.r.(*Dict).Set("data", original)
	parts.assets = append(parts.assets, asset)
	parts.messages, parts.summary = kept, summary
	meta := NewDict(5)
	meta.Set("strategy", Str(p.strategy))
	meta.Set("engine_strategy", Str(p.engine()))
	meta.Set("archived_messages", Int(int64(len(archived))))
	meta.Set("estimated_tokens_before", Int(before))
	meta.Set("estimated_tokens_after", Int(estimateTokens(kept)))
	e := transcriptEvent(c, "compaction", "system", "internal", "compacted "+itoa(int64(len(archived)))+" messages").r.(*Dict)
	e.Set("metadata", DictValue(meta))
	parts.extra = append(parts.extra, DictValue(e))
	live := meta.clone()
	live.Delete("engine_strategy")
	live.Set("mode", Str("manual"))
	live.Set("snapshot_asset_id", Nil)
	if id, ok := asset.r.(*Dict).Get("id"); ok {
		live.Set("snapshot_asset_id", id)
	}
	if err := publishAgentEvent(c, parts.id, "transcript_compacted", live); err != nil {
		return Nil, err
	}
	return parts.build(c), nil
}

func installTranscriptCompact(lib *Library) { lib.Builtin("transcript_compact", transcriptCompact) }
