package harn

import (
	"cmp"
	"sort"
	"strconv"
	"strings"
)

// Structural prompt experiments: a model call's structural_experiment
// option (a spec string such as "prompt_order_permutation(seed: 42)", a
// spec dict {name, label?, args?} or {transform, label?, name?, args?},
// or a closure; HARN_STRUCTURAL_EXPERIMENT when the option is absent)
// rewrites the request's messages and system prompt just before it is
// sent. The built-in experiments act on the latest user message whose
// content is a string: prompt_order_permutation reorders its
// blank-line-separated sections by a seeded score, doubled_prompt
// repeats it at the front and the back, chain_of_draft asks for a
// <draft> scratchpad, inverted_system swaps it with the system prompt. A
// transform closure receives {messages, system, iteration, label, name,
// args} and returns nil, a message list, or a dict {messages?, system?,
// label?, name?, metadata?}. What was applied ({label, name, args,
// metadata}) is recorded in the provider_payload event of the call's
// transcript. The std/experiments module builds the specs.

const structuralExperimentEnv = "HARN_STRUCTURAL_EXPERIMENT"

var builtinExperiments = map[string]bool{
	"prompt_order_permutation": true, "doubled_prompt": true, "chain_of_draft": true, "inverted_system": true,
}

type structuralExperiment struct {
	label, name string
	args        *Dict
	transform   Value // a closure, or Nil for a built-in
}

func experimentErr(msg string) error { return throwValue(Str("structural_experiment: " + msg)) }

// parseStructuralExperiment reads the option; nil when none applies.
func parseStructuralExperiment(c *Call, opts *Dict) (*structuralExperiment, error) {
	v, ok := opts.Get("structural_experiment")
	if !ok {
		spec, _ := c.th.in.host.LookupEnv(structuralExperimentEnv)
		return parseExperimentSpec(spec)
	}
	switch v.k {
	case KindNil:
		return nil, nil
	case KindBool:
		if !v.AsBool() {
			return nil, nil
		}
	case KindString:
		return parseExperimentSpec(v.AsString())
	case KindDict:
		return parseExperimentDict(v.r.(*Dict))
	case KindClosure:
		return &structuralExperiment{label: "custom", name: "custom", args: NewDict(0), transform: v}, nil
	}
	return nil, experimentErr("expected string, dict, closure, nil, or false; got " + v.TypeName())
}

func parseExperimentDict(d *Dict) (*structuralExperiment, error) {
	text := func(key string) string {
		if s := OptStr(d, key); strings.TrimSpace(s) != "" {
			return s
		}
		return ""
	}
	label, name := text("label"), cmp.Or(text("name"), text("experiment"))
	args := NewDict(2)
	if a, ok := d.Get("args"); ok && a.k == KindDict {
		args = a.r.(*Dict).clone()
	} else if !ok {
		for _, k := range d.Keys() {
			switch k {
			case "label", "name", "experiment", "transform", "handler":
				continue
			}
			v, _ := d.Get(k)
			args.Set(k, v)
		}
	}
	for _, k := range []string{"transform", "handler"} {
		if t, ok := d.Get(k); ok && t.k == KindClosure {
			if name == "" {
				name = "custom"
			}
			if label == "" {
				label = name
			}
			return &structuralExperiment{label: label, name: name, args: args, transform: t}, nil
		}
	}
	if name == "" {
		return nil, experimentErr("dict form requires `name` or `transform`")
	}
	return builtinExperiment(name, label, args)
}

func builtinExperiment(name, label string, args *Dict) (*structuralExperiment, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, nil
	}
	if !builtinExperiments[name] {
		return nil, throwValue(Str("unknown structural experiment `" + name + "`"))
	}
	if label == "" {
		label = name
	}
	return &structuralExperiment{label: label, name: name, args: args}, nil
}

// parseExperimentSpec reads `name` or `name(key: value, ...)`, values
// being true/false/nil, numbers or JSON strings.
func parseExperimentSpec(spec string) (*structuralExperiment, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	name, args := spec, NewDict(2)
	if open := strings.IndexByte(spec, '('); open >= 0 {
		end := strings.LastIndexByte(spec, ')')
		if end < 0 {
			return nil, experimentErr("missing closing `)`")
		}
		if end < open {
			return nil, experimentErr("invalid argument list")
		}
		name = spec[:open]
		for _, item := range splitOutsideQuotes(spec[open+1:end], ',') {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			k, v, ok := strings.Cut(item, ":")
			if !ok {
				return nil, experimentErr("expected `name: value`, got `" + item + "`")
			}
			if k = strings.TrimSpace(k); k == "" {
				return nil, experimentErr("empty argument name")
			}
			val, err := experimentScalar(strings.TrimSpace(v))
			if err != nil {
				return nil, err
			}
			args.Set(k, val)
		}
	}
	return builtinExperiment(name, spec, args)
}

func splitOutsideQuotes(s string, sep byte) []string {
	var out []string
	start, quoted, escaped := 0, false, false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case escaped:
			escaped = false
		case ch == '\\' && quoted:
			escaped = true
		case ch == '"':
			quoted = !quoted
		case ch == sep && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func experimentScalar(s string) (Value, error) {
	switch strings.ToLower(s) {
	case "true":
		return Bool(true), nil
	case "false":
		return Bool(false), nil
	case "nil", "null":
		return Nil, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return Int(n), nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return Float(f), nil
	}
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		v, err := ParseJSON(s)
		if err != nil {
			return Nil, experimentErr("invalid string literal `" + s + "`: " + err.Error())
		}
		return v, nil
	}
	return Nil, experimentErr("unsupported argument value `" + s + "`")
}

// latestStringUserMessage is the index of the last user message whose
// content is a string, or -1.
func latestStringUserMessage(messages []Value) int {
	for i := len(messages) - 1; i >= 0; i-- {
		if m := messages[i]; m.k == KindDict {
			d := m.r.(*Dict)
			if content, ok := d.Get("content"); ok && content.k == KindString && dictString(d, "role") == "user" {
				return i
			}
		}
	}
	return -1
}

// withContent is a copy of message m with its content replaced.
func withContent(m Value, content string) Value {
	d := m.r.(*Dict).clone()
	d.Set("content", Str(content))
	return DictValue(d)
}

// permuteScore is a seeded 64-bit mix of a section's index.
func permuteScore(seed int64, idx int) uint64 {
	v := uint64(seed) ^ (uint64(idx)+1)*0x9E3779B97F4A7C15
	v = v*6364136223846793005 + 1
	return v ^ v>>33
}

func (x *structuralExperiment) applyBuiltin(messages []Value, system Value) ([]Value, Value) {
	i := latestStringUserMessage(messages)
	if i < 0 {
		return messages, system
	}
	messages = append([]Value(nil), messages...)
	content := messages[i].r.(*Dict)
	text, _ := content.Get("content")
	body := text.AsString()
	switch x.name {
	case "prompt_order_permutation":
		seed := int64(0)
		if s, ok := x.args.Get("seed"); ok && s.k == KindInt {
			seed = s.AsInt()
		}
		var sections []string
		for _, s := range strings.Split(body, "\n\n") {
			if s = strings.TrimSpace(s); s != "" {
				sections = append(sections, s)
			}
		}
		if len(sections) > 1 {
			order := make([]int, len(sections))
			for j := range order {
				order[j] = j
			}
			sort.SliceStable(order, func(a, b int) bool {
				return permuteScore(seed, order[a]) < permuteScore(seed, order[b])
			})
			out := make([]string, len(order))
			for j, k := range order {
				out[j] = sections[k]
			}
			if strings.Join(out, "\n\n") == body {
				out = append(out[1:], out[0])
			}
			messages[i] = withContent(messages[i], strings.Join(out, "\n\n"))
		}
	case "doubled_prompt":
		original := messages[i]
		messages = append(append([]Value{original}, messages...), original)
	case "chain_of_draft":
		messages[i] = withContent(messages[i], body+"\n\nBefore the final answer, write a terse scratch draft inside <draft>...</draft>. After the draft block, give the final answer outside those tags.")
	case "inverted_system":
		if system.k != KindNil {
			messages[i] = withContent(messages[i], Display(system))
			system = Str(body)
		}
	}
	return messages, system
}

// apply rewrites r's messages and system and returns what was applied.
func (x *structuralExperiment) apply(c *Call, r *llmRequest) (Value, error) {
	metadata := DictValue(x.args.clone())
	if x.transform.k == KindNil {
		r.messages, r.system = x.applyBuiltin(r.messages, r.system)
	} else {
		ctx := NewDict(6)
		ctx.Set("messages", NewListValue(append([]Value(nil), r.messages...)))
		ctx.Set("system", r.system)
		ctx.Set("iteration", Nil)
		ctx.Set("label", Str(x.label))
		ctx.Set("name", Str(x.name))
		ctx.Set("args", DictValue(x.args.clone()))
		out, err := c.Invoke(x.transform, DictValue(ctx))
		if err != nil {
			return Nil, err
		}
		switch out.k {
		case KindNil:
			metadata = DictValue(NewDict(0))
		case KindList:
			r.messages = append([]Value(nil), out.r.(*List).SharedItems()...)
			metadata = DictValue(NewDict(0))
		case KindDict:
			d := out.r.(*Dict)
			if ms, ok := d.Get("messages"); ok && ms.k == KindList {
				r.messages = append([]Value(nil), ms.r.(*List).SharedItems()...)
			} else if ok && ms.k != KindNil {
				return Nil, experimentErr("transform: `messages` must be a list")
			}
			if s, ok := d.Get("system"); ok {
				r.system = Nil
				if s.k != KindNil {
					r.system = Str(Display(s))
				}
			}
			m := NewDict(3)
			m.Set("label", Str(orDefault(strings.TrimSpace(OptStr(d, "label")), x.label)))
			m.Set("name", Str(orDefault(strings.TrimSpace(OptStr(d, "name")), x.name)))
			if details, ok := d.Get("metadata"); ok {
				m.Set("details", details)
			}
			metadata = DictValue(m)
		default:
			return Nil, experimentErr("transform must return nil, a message list, or a dict")
		}
	}
	applied := NewDict(4)
	applied.Set("label", Str(x.label))
	applied.Set("name", Str(x.name))
	applied.Set("args", DictValue(x.args.clone()))
	applied.Set("metadata", metadata)
	return DictValue(applied), nil
}

// applyStructuralExperiment applies r's experiment, if any, and keeps
// what was applied for the call's transcript (takeAppliedExperiment).
func applyStructuralExperiment(c *Call, r *llmRequest) error {
	x, err := parseStructuralExperiment(c, r.opts)
	if err != nil || x == nil {
		return err
	}
	applied, err := x.apply(c, r)
	if err != nil {
		return err
	}
	st := llmOf(c)
	st.mu.Lock()
	if st.applied == nil {
		st.applied = map[*Call]Value{}
	}
	st.applied[c] = applied
	st.mu.Unlock()
	return nil
}

// takeAppliedExperiment is the experiment the call's last turn applied
// (Nil when none), forgotten once read.
func takeAppliedExperiment(c *Call) Value {
	st := llmOf(c)
	st.mu.Lock()
	defer st.mu.Unlock()
	v, ok := st.applied[c]
	if !ok {
		return Nil
	}
	delete(st.applied, c)
	return v
}

// stdExperiments is the std/experiments module: experiment specs and
// message-list helpers for transforms.
func stdExperiments() map[string]func(c *Call, args []Value) (Value, error) {
	spec := func(name string) func(c *Call, args []Value) (Value, error) {
		return func(c *Call, args []Value) (Value, error) {
			d := NewDict(2)
			d.Set("name", Str(name))
			a := NewDict(1)
			if o := Arg(args, 0); o.k == KindDict {
				a = o.r.(*Dict).clone()
			}
			d.Set("args", DictValue(a))
			return DictValue(d), nil
		}
	}
	messagesArg := func(fn string, args []Value) ([]Value, error) {
		if m := Arg(args, 0); m.k == KindList {
			return append([]Value(nil), m.r.(*List).SharedItems()...), nil
		}
		return nil, throwValue(Str(fn + ": messages must be a list"))
	}
	return map[string]func(c *Call, args []Value) (Value, error){
		"prompt_order_permutation": spec("prompt_order_permutation"),
		"doubled_prompt":           spec("doubled_prompt"),
		"chain_of_draft":           spec("chain_of_draft"),
		"inverted_system":          spec("inverted_system"),
		"custom": func(c *Call, args []Value) (Value, error) {
			label := Arg(args, 0)
			if label.k != KindString || strings.TrimSpace(label.AsString()) == "" {
				return Nil, throwValue(Str("custom: label must be a non-empty string"))
			}
			if Arg(args, 1).k != KindClosure {
				return Nil, throwValue(Str("custom: transform must be a closure"))
			}
			d := NewDict(4)
			d.Set("label", label)
			d.Set("name", Str("custom"))
			d.Set("transform", args[1])
			a := NewDict(0)
			if o := Arg(args, 2); o.k == KindDict {
				a = o.r.(*Dict).clone()
			}
			d.Set("args", DictValue(a))
			return DictValue(d), nil
		},
		"message": func(c *Call, args []Value) (Value, error) {
			return messageValue(Display(Arg(args, 0)), Arg(args, 1)), nil
		},
		"latest_string_user_message": func(c *Call, args []Value) (Value, error) {
			ms, err := messagesArg("latest_string_user_message", args)
			if err != nil {
				return Nil, err
			}
			i := latestStringUserMessage(ms)
			if i < 0 {
				return Nil, nil
			}
			d := NewDict(2)
			d.Set("index", Int(int64(i)))
			d.Set("message", ms[i])
			return DictValue(d), nil
		},
		"replace_message": func(c *Call, args []Value) (Value, error) {
			ms, err := messagesArg("replace_message", args)
			if err != nil {
				return Nil, err
			}
			i := Arg(args, 1)
			if i.k != KindInt || i.AsInt() < 0 || i.AsInt() >= int64(len(ms)) {
				return Nil, throwValue(Str("replace_message: index " + Display(i) + " is out of range for " + strconv.Itoa(len(ms)) + " messages"))
			}
			ms[i.AsInt()] = Arg(args, 2)
			return NewListValue(ms), nil
		},
		"prepend_message": func(c *Call, args []Value) (Value, error) {
			ms, err := messagesArg("prepend_message", args)
			if err != nil {
				return Nil, err
			}
			return NewListValue(append([]Value{Arg(args, 1)}, ms...)), nil
		},
		"append_message": func(c *Call, args []Value) (Value, error) {
			ms, err := messagesArg("append_message", args)
			if err != nil {
				return Nil, err
			}
			return NewListValue(append(ms, Arg(args, 1))), nil
		},
	}
}

func installStructuralExperiments(lib *Library) { lib.StdModule("std/experiments", stdExperiments()) }
