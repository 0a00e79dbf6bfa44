package harn

import "strings"

// Transcripts and conversations: a transcript is a dict value
// {_type: "transcript", version: 2, id, messages, events, assets,
// summary?, metadata?, state?}. Its events are derived from its messages
// (one "message" or "tool_result" event each) followed by the lifecycle
// events (archive, resume, fork, ...) that survive every rebuild. A
// conversation is a plain list of {role, content} messages; the add_*
// builtins extend either form and return the same form.

const transcriptVersion = 2

// newUUID mints a v7 UUID through the uuid_v7 builtin, so ids follow the
// run's clock and random source.
func newUUID(c *Call) string {
	if b, ok := c.th.in.builtin("uuid_v7"); ok {
		if v, err := b.Fn(c, nil); err == nil {
			return v.AsString()
		}
	}
	return "00000000-0000-7000-8000-000000000000"
}

// isTranscript reports whether v is a transcript dict.
func isTranscript(v Value) bool {
	if v.k != KindDict {
		return false
	}
	t, ok := v.r.(*Dict).Get("_type")
	return ok && t.k == KindString && t.AsString() == "transcript"
}

// requireTranscript is the transcript argument of fn, or the error
// upstream throws for anything else.
func requireTranscript(args []Value, fn string) (*Dict, error) {
	if v := Arg(args, 0); isTranscript(v) {
		return v.r.(*Dict), nil
	}
	return nil, throwValue(Str(fn + ": argument must be a transcript"))
}

// dictList is the list under key of d (nil when absent or not a list).
func dictList(d *Dict, key string) []Value {
	if d == nil {
		return nil
	}
	if v, ok := d.Get(key); ok && v.k == KindList {
		return append([]Value(nil), v.r.(*List).SharedItems()...)
	}
	return nil
}

// dictString is the string under key of d ("" when absent or not a
// string).
func dictString(d *Dict, key string) string {
	if d == nil {
		return ""
	}
	if v, ok := d.Get(key); ok && v.k == KindString {
		return v.AsString()
	}
	return ""
}

func strDict(kv ...string) *Dict {
	d := NewDict(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		d.Set(kv[i], Str(kv[i+1]))
	}
	return d
}

// transcriptEvent is one lifecycle event with a single text block.
func transcriptEvent(c *Call, kind, role, visibility, text string) Value {
	e := strDict("id", newUUID(c), "kind", kind, "role", role, "visibility", visibility, "text", text)
	e.Set("blocks", NewListValue([]Value{DictValue(strDict("type", "text", "text", text, "visibility", visibility))}))
	return DictValue(e)
}

func roleVisibility(role string) string {
	if role == "tool_result" {
		return "internal"
	}
	return "public"
}

// messageBlocks normalizes a message's content to typed blocks with a
// visibility each.
func messageBlocks(content Value, role string) []Value {
	vis := roleVisibility(role)
	norm := func(b Value) Value {
		var d *Dict
		if b.k == KindDict {
			d = b.r.(*Dict).clone()
		} else {
			d = strDict("text", Display(b))
		}
		if !d.Has("type") {
			d.Set("type", Str("text"))
		}
		if !d.Has("visibility") {
			d.Set("visibility", Str(vis))
		}
		return DictValue(d)
	}
	switch content.k {
	case KindNil:
		return nil
	case KindList:
		items := content.r.(*List).SharedItems()
		out := make([]Value, len(items))
		for i, b := range items {
			out[i] = norm(b)
		}
		return out
	case KindDict:
		return []Value{norm(content)}
	}
	return []Value{DictValue(strDict("type", "text", "text", Display(content), "visibility", vis))}
}

// blocksText renders blocks as one line: text as is, tool calls and
// assets as <kind:label> tags, reasoning hidden.
func blocksText(blocks []Value) string {
	var parts []string
	for _, b := range blocks {
		if b.k != KindDict {
			continue
		}
		d := b.r.(*Dict)
		kind := "text"
		if t, ok := d.Get("type"); ok {
			kind = Display(t)
		}
		label := func(def string, keys ...string) string {
			for _, k := range keys {
				if v, ok := d.Get(k); ok {
					return Display(v)
				}
			}
			return def
		}
		var text string
		switch kind {
		case "text", "output_text":
			text = label("", "text", "content")
		case "reasoning":
		case "tool_call", "tool_result":
			text = "<" + kind + ":" + label("tool", "name") + ">"
		case "image", "input_image":
			text = "<image:" + label("image", "name", "title", "path", "asset_id") + ">"
		case "file", "document", "attachment":
			text = "<" + kind + ":" + label(kind, "name", "title", "path", "asset_id") + ">"
		default:
			text = "<" + kind + ">"
		}
		if text != "" {
			parts = append(parts, text)
		}
	}
	return strings.Join(parts, " ")
}

// messageEvent is the event a message contributes to its transcript.
func messageEvent(c *Call, m Value) Value {
	var d *Dict
	if m.k == KindDict {
		d = m.r.(*Dict)
	}
	role := "user"
	if r, ok := dictField(d, "role"); ok {
		role = Display(r)
	}
	content, _ := dictField(d, "content")
	blocks := messageBlocks(content, role)
	vis := roleVisibility(role)
	for _, b := range blocks {
		v := vis
		if s := dictString(b.AsDict(), "visibility"); s != "" {
			v = s
		}
		if v == "public" {
			vis = "public"
			break
		}
		if v == "internal" {
			vis = "internal"
		}
	}
	kind := "message"
	if role == "tool_result" {
		kind = "tool_result"
	}
	e := strDict("id", newUUID(c), "kind", kind, "role", role, "visibility", vis, "text", blocksText(blocks))
	e.Set("blocks", NewListValue(blocks))
	return DictValue(e)
}

func dictField(d *Dict, key string) (Value, bool) {
	if d == nil {
		return Nil, false
	}
	return d.Get(key)
}

// transcriptParts are the fields a transcript is rebuilt from.
type transcriptParts struct {
	id       string
	messages []Value
	summary  string
	metadata Value
	extra    []Value // lifecycle events kept after the message events
	assets   []Value
	state    string
}

// build makes the transcript value.
func (p transcriptParts) build(c *Call) Value {
	t := NewDict(9)
	t.Set("_type", Str("transcript"))
	t.Set("version", Int(transcriptVersion))
	id := p.id
	if id == "" {
		id = newUUID(c)
	}
	t.Set("id", Str(id))
	events := make([]Value, 0, len(p.messages)+len(p.extra))
	for _, m := range p.messages {
		events = append(events, messageEvent(c, m))
	}
	events = append(events, p.extra...)
	t.Set("messages", NewListValue(append([]Value{}, p.messages...)))
	t.Set("events", NewListValue(events))
	t.Set("assets", NewListValue(append([]Value{}, p.assets...)))
	if p.summary != "" {
		t.Set("summary", Str(p.summary))
	}
	if p.metadata.k != KindNil {
		t.Set("metadata", p.metadata)
	}
	if p.state != "" {
		t.Set("state", Str(p.state))
	}
	return DictValue(t)
}

// partsOf reads a transcript back into its parts; the events kept are
// the lifecycle ones (not derived from messages).
func partsOf(t *Dict) transcriptParts {
	p := transcriptParts{id: dictString(t, "id"), messages: dictList(t, "messages"),
		summary: dictString(t, "summary"), assets: dictList(t, "assets"), state: dictString(t, "state")}
	if m, ok := t.Get("metadata"); ok {
		p.metadata = m
	}
	for _, e := range dictList(t, "events") {
		if k := dictString(e.AsDict(), "kind"); k != "" && k != "message" && k != "tool_result" {
			p.extra = append(p.extra, e)
		}
	}
	return p
}

// lifecycle rebuilds t with one more lifecycle event and a new state.
func lifecycle(c *Call, args []Value, fn, kind, text, state string) (Value, error) {
	t, err := requireTranscript(args, fn)
	if err != nil {
		return Nil, err
	}
	p := partsOf(t)
	p.extra = append(p.extra, transcriptEvent(c, kind, "system", "internal", text))
	p.state = state
	return p.build(c), nil
}

func messageValue(role string, content Value) Value {
	m := NewDict(2)
	m.Set("role", Str(role))
	m.Set("content", content)
	return DictValue(m)
}

// appendMessage adds msg to a conversation list or a transcript.
func appendMessage(c *Call, target Value, msg Value, fn string) (Value, error) {
	switch {
	case target.k == KindList:
		return NewListValue(append(append([]Value{}, target.r.(*List).SharedItems()...), msg)), nil
	case isTranscript(target):
		p := partsOf(target.r.(*Dict))
		p.messages = append(p.messages, msg)
		return p.build(c), nil
	}
	return Nil, throwValue(Str(fn + ": first argument must be a message list or transcript"))
}

// normalizeAsset gives an asset its type tag, an id, a kind and a
// visibility; a non-dict asset is a path.
func normalizeAsset(c *Call, v Value) Value {
	var d *Dict
	if v.k == KindDict {
		d = v.r.(*Dict).clone()
	} else {
		d = NewDict(5)
		d.Set("storage", DictValue(strDict("path", Display(v))))
	}
	d.Set("_type", Str("transcript_asset"))
	if !d.Has("id") {
		d.Set("id", Str(newUUID(c)))
	}
	if !d.Has("kind") {
		d.Set("kind", Str("blob"))
	}
	if !d.Has("visibility") {
		d.Set("visibility", Str("internal"))
	}
	return DictValue(d)
}

// transcriptStats counts a transcript's messages by role, its tool calls
// and its visible events; anything but a dict counts as empty.
func transcriptStats(v Value) Value {
	var msgs, facing, toolResults, toolCalls, assistant, user, visible int64
	d := v.AsDict()
	if v.k != KindDict {
		d = nil
	}
	for _, m := range dictList(d, "messages") {
		md := m.AsDict()
		if m.k != KindDict {
			continue
		}
		msgs++
		switch dictString(md, "role") {
		case "assistant":
			assistant++
			facing++
		case "user":
			user++
			facing++
		case "tool", "tool_result":
			toolResults++
		}
		toolCalls += int64(len(dictList(md, "tool_calls")))
	}
	for _, e := range dictList(d, "events") {
		if e.k == KindDict && dictString(e.AsDict(), "visibility") == "visible" {
			visible++
		}
	}
	out := NewDict(7)
	out.Set("message_count", Int(msgs))
	out.Set("user_facing_message_count", Int(facing))
	out.Set("tool_result_message_count", Int(toolResults))
	out.Set("tool_call_count", Int(toolCalls))
	out.Set("assistant_message_count", Int(assistant))
	out.Set("user_message_count", Int(user))
	out.Set("visible_event_count", Int(visible))
	return DictValue(out)
}

// renderEvents joins the events of t, one line each; visibleOnly keeps
// the public events with text and leaves the visibility tag out.
func renderEvents(t *Dict, visibleOnly bool) string {
	var lines []string
	for _, e := range dictList(t, "events") {
		if e.k != KindDict {
			continue
		}
		d := e.r.(*Dict)
		role, vis, text := "", "", ""
		if v, ok := d.Get("role"); ok {
			role = Display(v)
		}
		if v, ok := d.Get("visibility"); ok {
			vis = Display(v)
		}
		if v, ok := d.Get("text"); ok {
			text = Display(v)
		}
		if visibleOnly {
			if vis == "public" && text != "" {
				lines = append(lines, role+": "+text)
			}
			continue
		}
		lines = append(lines, "["+vis+"] "+role+": "+text)
	}
	return strings.Join(lines, "\n")
}

func installTranscripts(lib *Library) {
	lib.Builtin("conversation", func(c *Call, args []Value) (Value, error) { return NewListValue(nil), nil })
	lib.Builtin("transcript", func(c *Call, args []Value) (Value, error) {
		return transcriptParts{metadata: Arg(args, 0)}.build(c), nil
	})
	lib.Builtin("transcript_from_messages", func(c *Call, args []Value) (Value, error) {
		switch v := Arg(args, 0); {
		case v.k == KindList:
			return transcriptParts{messages: v.r.(*List).SharedItems()}.build(c), nil
		case isTranscript(v):
			return transcriptParts{messages: dictList(v.r.(*Dict), "messages")}.build(c), nil
		}
		return Nil, throwValue(Str("transcript_from_messages: argument must be a message list or transcript"))
	})
	lib.Builtin("transcript_messages", func(c *Call, args []Value) (Value, error) {
		t, err := requireTranscript(args, "transcript_messages")
		if err != nil {
			return Nil, err
		}
		return NewListValue(dictList(t, "messages")), nil
	})
	lib.Builtin("transcript_assets", func(c *Call, args []Value) (Value, error) {
		t, err := requireTranscript(args, "transcript_assets")
		if err != nil {
			return Nil, err
		}
		return NewListValue(dictList(t, "assets")), nil
	})
	lib.Builtin("transcript_add_asset", func(c *Call, args []Value) (Value, error) {
		t, err := requireTranscript(args, "transcript_add_asset")
		if err != nil {
			return Nil, err
		}
		if len(args) < 2 {
			return Nil, throwValue(Str("transcript_add_asset: missing asset"))
		}
		asset := normalizeAsset(c, args[1])
		id := dictString(asset.AsDict(), "id")
		p := partsOf(t)
		kept := p.assets[:0:0]
		for _, a := range p.assets {
			if dictString(a.AsDict(), "id") != id {
				kept = append(kept, a)
			}
		}
		p.assets = append(kept, asset)
		return p.build(c), nil
	})
	lib.Builtin("transcript_events", func(c *Call, args []Value) (Value, error) {
		t, err := requireTranscript(args, "transcript_events")
		if err != nil {
			return Nil, err
		}
		return NewListValue(dictList(t, "events")), nil
	})
	lib.Builtin("transcript_events_by_kind", func(c *Call, args []Value) (Value, error) {
		kind := Display(Arg(args, 1))
		var out []Value
		if v := Arg(args, 0); v.k == KindDict {
			for _, e := range dictList(v.r.(*Dict), "events") {
				if e.k == KindDict && dictString(e.AsDict(), "kind") == kind {
					out = append(out, e)
				}
			}
		}
		return NewListValue(out), nil
	})
	lib.Builtin("transcript_stats", func(c *Call, args []Value) (Value, error) { return transcriptStats(Arg(args, 0)), nil })
	lib.Builtin("transcript_summary", func(c *Call, args []Value) (Value, error) {
		t, err := requireTranscript(args, "transcript_summary")
		if err != nil {
			return Nil, err
		}
		v, _ := t.Get("summary")
		return v, nil
	})
	lib.Builtin("transcript_id", func(c *Call, args []Value) (Value, error) {
		t, err := requireTranscript(args, "transcript_id")
		if err != nil {
			return Nil, err
		}
		return Str(dictString(t, "id")), nil
	})
	lib.Builtin("transcript_render_visible", func(c *Call, args []Value) (Value, error) {
		t, err := requireTranscript(args, "transcript_render_visible")
		if err != nil {
			return Nil, err
		}
		return Str(renderEvents(t, true)), nil
	})
	lib.Builtin("transcript_render_full", func(c *Call, args []Value) (Value, error) {
		t, err := requireTranscript(args, "transcript_render_full")
		if err != nil {
			return Nil, err
		}
		return Str(renderEvents(t, false)), nil
	})
	lib.Builtin("transcript_export", func(c *Call, args []Value) (Value, error) {
		if !isTranscript(Arg(args, 0)) {
			return Nil, throwValue(Str("transcript_export: argument must be a transcript"))
		}
		var b strings.Builder
		writeJSON(&b, args[0], 0)
		return Str(b.String()), nil
	})
	lib.Builtin("transcript_import", func(c *Call, args []Value) (Value, error) {
		v, err := ParseJSON(Display(Arg(args, 0)))
		if err != nil {
			return Nil, runtimeError("transcript_import: %v", err)
		}
		return v, nil
	})
	lib.Builtin("transcript_fork", func(c *Call, args []Value) (Value, error) {
		t, err := requireTranscript(args, "transcript_fork")
		if err != nil {
			return Nil, err
		}
		p := partsOf(t)
		if o := Arg(args, 1); o.k == KindDict {
			if v, ok := o.r.(*Dict).Get("retain_messages"); ok && !v.Truthy() {
				p.messages = nil
			}
			if v, ok := o.r.(*Dict).Get("retain_summary"); ok && !v.Truthy() {
				p.summary = ""
			}
		}
		p.extra = append(p.extra, transcriptEvent(c, "transcript_fork", "system", "internal", "transcript forked"))
		p.state = "forked"
		return p.build(c), nil
	})
	lib.Builtin("transcript_reset", func(c *Call, args []Value) (Value, error) {
		p := transcriptParts{state: "active"}
		if o := Arg(args, 0); o.k == KindDict {
			p.metadata, _ = o.r.(*Dict).Get("metadata")
		}
		p.extra = []Value{transcriptEvent(c, "transcript_reset", "system", "internal", "transcript reset")}
		return p.build(c), nil
	})
	lib.Builtin("transcript_archive", func(c *Call, args []Value) (Value, error) {
		return lifecycle(c, args, "transcript_archive", "transcript_archive", "transcript archived", "archived")
	})
	lib.Builtin("transcript_abandon", func(c *Call, args []Value) (Value, error) {
		return lifecycle(c, args, "transcript_abandon", "transcript_abandon", "transcript abandoned", "abandoned")
	})
	lib.Builtin("transcript_resume", func(c *Call, args []Value) (Value, error) {
		return lifecycle(c, args, "transcript_resume", "transcript_resume", "transcript resumed", "active")
	})
	lib.Builtin("add_message", func(c *Call, args []Value) (Value, error) {
		content := Arg(args, 2)
		if len(args) < 3 {
			content = Str("")
		}
		return appendMessage(c, Arg(args, 0), messageValue(Display(Arg(args, 1)), content), "add_message")
	})
	for _, role := range []string{"user", "assistant", "system"} {
		role := role
		lib.Builtin("add_"+role, func(c *Call, args []Value) (Value, error) {
			content := Arg(args, 1)
			if len(args) < 2 {
				content = Str("")
			}
			return appendMessage(c, Arg(args, 0), messageValue(role, content), "add_"+role)
		})
	}
	lib.Builtin("add_tool_result", func(c *Call, args []Value) (Value, error) {
		m := strDict("role", "tool_result", "tool_use_id", Display(Arg(args, 1)), "content", Display(Arg(args, 2)))
		return appendMessage(c, Arg(args, 0), DictValue(m), "add_tool_result")
	})
}
