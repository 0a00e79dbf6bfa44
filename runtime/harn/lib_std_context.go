package harn

import "strings"

// std/context: structured prompt context. section and context_attach
// make named sections (an attachment's body starts with its path),
// context groups them, context_render joins them ("[name]" then the
// body, cut to the section's max_chars) with the context's separator,
// and prompt_compose wraps a task and its rendered context into
// {prompt, system, rendered_context}.

// ctxSection builds a section dict.
func ctxSection(name string, body Value, opts Value, extra ...any) Value {
	d := wfDict(append([]any{"_type", Str("context_section"), "name", Str(name), "content", body}, extra...)...)
	if o := wfCeiling(opts); o != nil {
		for _, k := range o.Keys() {
			v, _ := o.Get(k)
			d.Set(k, v)
		}
	}
	return DictValue(d)
}

// ctxRender renders a context, a section list or a single section.
func ctxRender(v Value, opts *Dict) string {
	sep := "\n\n"
	var sections []Value
	switch {
	case v.k == KindList:
		sections = listItems(v)
	case v.k == KindDict && OptStr(v.r.(*Dict), "_type") == "context_section":
		sections = []Value{v}
	case v.k == KindDict:
		d := v.r.(*Dict)
		sections = dictList(d, "sections")
		if s, ok := d.Get("separator"); ok && s.k == KindString {
			sep = s.AsString()
		}
	case v.k == KindString:
		return v.AsString()
	}
	if opts != nil {
		if s, ok := opts.Get("separator"); ok && s.k == KindString {
			sep = s.AsString()
		}
	}
	var parts []string
	for _, s := range sections {
		sd := s.AsDict()
		if sd == nil {
			if s.k != KindNil {
				parts = append(parts, Display(s))
			}
			continue
		}
		body := ""
		if c, ok := sd.Get("content"); ok && c.k != KindNil {
			body = Display(c)
		}
		if p := OptStr(sd, "path"); p != "" {
			body = "Path: " + p + "\n" + body
		}
		if n := OptInt(sd, "max_chars"); n != nil && *n >= 0 && int64(len([]rune(body))) > *n {
			body = string([]rune(body)[:*n])
		}
		parts = append(parts, "["+OptStr(sd, "name")+"]\n"+body)
	}
	return strings.Join(parts, sep)
}

func installStdContext(lib *Library) {
	lib.StdModule("std/context", map[string]func(c *Call, args []Value) (Value, error){
		"section": func(c *Call, args []Value) (Value, error) {
			return ctxSection(Display(Arg(args, 0)), Arg(args, 1), Arg(args, 2)), nil
		},
		"context_attach": func(c *Call, args []Value) (Value, error) {
			return ctxSection(Display(Arg(args, 0)), Arg(args, 2), Arg(args, 3), "path", Str(Display(Arg(args, 1)))), nil
		},
		"context": func(c *Call, args []Value) (Value, error) {
			d := NewDict(3)
			if o := wfCeiling(Arg(args, 1)); o != nil {
				d = o.clone()
			}
			d.Set("_type", Str("context"))
			d.Set("sections", NewListValue(listItems(Arg(args, 0))))
			return DictValue(d), nil
		},
		"context_render": func(c *Call, args []Value) (Value, error) {
			return Str(ctxRender(Arg(args, 0), wfCeiling(Arg(args, 1)))), nil
		},
		"prompt_compose": func(c *Call, args []Value) (Value, error) {
			opts := wfCeiling(Arg(args, 2))
			if opts == nil {
				opts = NewDict(0)
			}
			label := OptStr(opts, "task_label")
			if label == "" {
				label = "Task"
			}
			rendered := ctxRender(Arg(args, 1), nil)
			prompt := "<workflow_task>\n<label>" + label + "</label>\n<instructions>\n" + Display(Arg(args, 0)) +
				"\n</instructions>\n</workflow_task>"
			if rendered != "" {
				prompt = rendered + "\n\n" + prompt
			}
			system, _ := opts.Get("system")
			return DictValue(wfDict("prompt", Str(prompt), "system", system, "rendered_context", Str(rendered))), nil
		},
	})
}
