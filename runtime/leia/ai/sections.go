package ai

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Section generation: llm.sections(config) (alias
// llm.generate_sections) runs one agent request per section descriptor
// in config.sections, in order, through the built-in agent loop (agent
// defaults, model aliases, budgets, output checks and replay as for any
// agent). It returns (generated, nil) with generated.sections = [{name,
// result, value, text, status}] in order, generated.results[name] = the
// agent result and generated.values[name] = its parsed value (result.value
// when an output shape or schema is declared, else the result), or (nil,
// err) on the first failing section.
//
// A section's request is the top-level config without sections and
// evidence, overridden by the section's fields (without name, prompt and
// instructions). When the section gives no messages and the config has
// messages, or either has evidence, or the section has a prompt (prompt,
// else instructions), its messages are: the config's messages (else its
// system and user fields as messages), the config's evidence message,
// the section's evidence message, then the prompt as a user message.
// context and evidence fields left in the request are appended by the
// loop as for any agent (so, as upstream Leia does, a section's own
// evidence is sent once before the prompt and once after it). Sections
// share nothing but these request fields: no section sees another's
// output, and nothing is rendered or cited.

// sectionConfig builds one section's request.
func sectionConfig(top, section leia.Value) *leia.Table {
	cfg := leia.NewTable(0, 12)
	copyExcept := func(src leia.Value, skip ...string) {
		s := map[string]bool{}
		for _, k := range skip {
			s[k] = true
		}
		if t := src.Table(); t != nil {
			t.Iter(func(k, v leia.Value) bool {
				if k.Kind() == leia.KindString && s[k.AsString()] || v.IsNil() {
					return true
				}
				cfg.Set(k, v)
				return true
			})
		}
	}
	copyExcept(top, "sections", "evidence")
	copyExcept(section, "name", "prompt", "instructions")
	if Field(section, "messages").Table() != nil {
		return cfg
	}
	prompt := sectionPrompt(section)
	if Field(top, "messages").Table() == nil && Field(top, "evidence").IsNil() && Field(section, "evidence").IsNil() && prompt == "" {
		return cfg
	}
	var msgs []leia.Value
	if base := Field(top, "messages"); base.Table() != nil {
		msgs = append(msgs, ExpandMessages(base)...)
	} else {
		if s := cfg.GetStr("system"); !s.IsNil() {
			msgs = append(msgs, Message("system", text(s)))
		}
		if u := cfg.GetStr("user"); !u.IsNil() {
			msgs = append(msgs, Message("user", text(u)))
		}
	}
	for _, ev := range []leia.Value{Field(top, "evidence"), Field(section, "evidence")} {
		if m := evidenceMessage(ev); !m.IsNil() {
			msgs = append(msgs, m)
		}
	}
	if prompt != "" {
		msgs = append(msgs, Message("user", prompt))
	}
	cfg.SetStr("messages", List(msgs...))
	return cfg
}

func sectionPrompt(section leia.Value) string {
	if p := Field(section, "prompt"); !p.IsNil() {
		return text(p)
	}
	return text(Field(section, "instructions"))
}

// evidenceMessage is the one message an evidence value stands for: a
// single message (or wrapper), else a user message of its text.
func evidenceMessage(ev leia.Value) leia.Value {
	if ev.IsNil() {
		return leia.Nil
	}
	if ev.Table() != nil {
		if msgs := ContextMessages(ev); len(msgs) == 1 {
			return msgs[0]
		}
	}
	return Message("user", jsonText(ev))
}

// Sections runs llm.sections.
func (rt *Runtime) Sections(t *leia.Thread, top leia.Value) (leia.Value, leia.Value, error) {
	secs := Field(top, "sections")
	if secs.Table() == nil {
		return leia.Nil, ErrorValue("validation", "llm.sections requires a sections table"), nil
	}
	var list []leia.Value
	for _, s := range Items(secs) {
		if s.Table() != nil {
			list = append(list, s)
		}
	}
	if len(list) == 0 {
		return leia.Nil, ErrorValue("validation", "llm.sections requires at least one section"), nil
	}
	ordered, results, values := newList(), leia.NewTable(0, len(list)), leia.NewTable(0, len(list))
	for i, s := range list {
		name := text(Field(s, "name"))
		if name == "" {
			return leia.Nil, ErrorValue("validation", fmt.Sprintf("llm.sections section %d requires name", i+1)), nil
		}
		cfg := sectionConfig(top, s)
		res, e, err := rt.RunAgent(t, leia.TableValue(cfg), &agentMeta{name: name})
		if err != nil {
			return leia.Nil, leia.Nil, err
		}
		if !e.IsNil() {
			rt.Emit(llm.TraceEvent{Type: "section_error", Step: int64(i + 1), Status: "error", ErrorKind: StrField(e, "kind")})
			return leia.Nil, e, nil
		}
		if res.Table() == nil {
			return leia.Nil, ErrorValue("validation", "llm.sections agent result must be a table"), nil
		}
		value := Field(res, "value")
		if value.IsNil() {
			value = res
		}
		rt.Emit(llm.TraceEvent{Type: "section_done", Step: int64(i + 1), Status: StrField(res, "status")})
		entry := leia.NewTable(0, 5)
		entry.SetStr("name", leia.String(name))
		entry.SetStr("result", res)
		entry.SetStr("value", value)
		entry.SetStr("text", Field(res, "text"))
		entry.SetStr("status", Field(res, "status"))
		appendTo(ordered, leia.TableValue(entry))
		results.SetStr(name, res)
		values.SetStr(name, value)
	}
	return T("sections", leia.TableValue(ordered), "results", leia.TableValue(results), "values", leia.TableValue(values)), leia.Nil, nil
}

// sectionsFamily is the llm module's natives from this file (see families).
func sectionsFamily(rt *Runtime) map[string]leia.NativeFunc {
	fn := func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if leia.Arg(a, 0).Table() == nil {
			return nil, fmt.Errorf("bad argument #1 to 'llm.sections' (table expected)")
		}
		return ret2(t)(rt.Sections(t, a[0]))
	}
	return map[string]leia.NativeFunc{"sections": fn, "generate_sections": fn}
}
