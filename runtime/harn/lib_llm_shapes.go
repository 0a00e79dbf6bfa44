package harn

import (
	"github.com/harnlang/harn-check/runtime/llm"
)

// llm_completion and llm_stream: two more shapes of the one model turn
// (llmTurn), not a second stack; and the transcript llm_call's result
// carries. llm_completion(prefix, suffix?, system?,
// options?) asks for the text between prefix and suffix; llm_stream
// (prompt, system?, options?) returns a channel of the answer's text
// pieces, closed after the last.

func installLlmShapes(lib *Library) {
	lib.Builtin("llm_completion", func(c *Call, args []Value) (Value, error) {
		prefix := Display(Arg(args, 0))
		suffix := ""
		if s := Arg(args, 1); s.k != KindNil {
			suffix = Display(s)
		}
		r := buildLLMRequest([]Value{Str(prefix), Arg(args, 2), Arg(args, 3)})
		r.completion = &llm.Completion{Prefix: prefix, Suffix: suffix}
		defer takeAppliedExperiment(c) // no transcript records it
		return llmTurn(c, r)
	})
	lib.Builtin("llm_stream", func(c *Call, args []Value) (Value, error) {
		r := buildLLMRequest(args)
		var pieces []Value
		r.onStream = func(ev llm.StreamEvent) {
			if ev.Text != "" {
				pieces = append(pieces, Str(ev.Text))
			}
		}
		res, err := llmTurn(c, r)
		takeAppliedExperiment(c) // no transcript records it
		if err != nil {
			return Nil, err
		}
		if len(pieces) == 0 {
			// A provider that answered without streaming: the whole text
			// is one piece.
			if t, _ := res.AsDict().Get("text"); t.k == KindString && t.AsString() != "" {
				pieces = append(pieces, t)
			}
		}
		ch := newChannel("llm_stream", max(len(pieces), 1))
		for _, p := range pieces {
			ch.buf = append(ch.buf, p)
		}
		ch.close()
		return Value{k: KindChannel, r: ch}, nil
	})
}

// withTranscript adds to a model call's result the transcript of the
// exchange: the request's messages, the assistant's answer, and an
// internal provider_payload event.
func withTranscript(call func(c *Call, args []Value) (Value, error)) func(c *Call, args []Value) (Value, error) {
	return func(c *Call, args []Value) (Value, error) {
		res, err := call(c, args)
		applied := takeAppliedExperiment(c)
		if err != nil || res.k != KindDict || res.AsDict().Has("transcript") {
			return res, err
		}
		r := buildLLMRequest(args)
		text, _ := res.AsDict().Get("text")
		if text.k == KindNil {
			text = Str("")
		}
		p := transcriptParts{messages: append(append([]Value{}, r.messages...), messageValue("assistant", text))}
		payload := transcriptEvent(c, "provider_payload", "assistant", "internal", "")
		meta := NewDict(4)
		for _, k := range []string{"model", "input_tokens", "output_tokens"} {
			v, _ := res.AsDict().Get(k)
			meta.Set(k, v)
		}
		meta.Set("structural_experiment", applied)
		payload.AsDict().Set("metadata", DictValue(meta))
		p.extra = []Value{payload}
		d := res.AsDict().clone()
		d.Set("transcript", p.build(c))
		return DictValue(d), nil
	}
}

// setResponseBlocks adds a result's answer as typed content blocks, as
// upstream reports them: the text as public output_text, reasoning as a
// private block (also private_reasoning), each tool call as an internal
// tool_call block.
func setResponseBlocks(d *Dict) {
	var blocks []Value
	if t := dictString(d, "text"); t != "" {
		blocks = append(blocks, DictValue(strDict("type", "output_text", "text", t, "visibility", "public")))
	}
	if th := dictString(d, "thinking"); th != "" {
		blocks = append(blocks, DictValue(strDict("type", "reasoning", "text", th, "visibility", "private")))
		d.Set("private_reasoning", Str(th))
	}
	for _, tc := range dictList(d, "tool_calls") {
		if tc.k != KindDict {
			continue
		}
		b := tc.AsDict().clone()
		b.Set("visibility", Str("internal"))
		blocks = append(blocks, DictValue(b))
	}
	d.Set("blocks", NewListValue(blocks))
}
