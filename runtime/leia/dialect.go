package leia

import (
	"fmt"
	"sort"
	"strings"
)

// Dialects are the tagged forms tag`text`, tag!`text`, tag { fields } and
// tag! { fields }. Every tag resolves through one registry per
// interpreter: the data dialects (json, jsonl, ini, env, headers,
// duration) are registered by the standard library, and the AI dialect
// (model, tool, turn, agent, prompt ...) is registered by the llm layer.
//
// A handler's error is recoverable: the plain form returns nil and an
// error table {kind, message}; the bang form raises it. A *Error (or a
// ScriptError) is always raised.

// DialectOptions describe one use of a dialect.
type DialectOptions struct {
	// FailFast is the bang form (tag!`...`, tag! {...}).
	FailFast bool
	// Legacy marks the GScript-era declaration forms (tool name() {},
	// agent name() {} flow {}, agent defaults {}, budget {} {}).
	Legacy bool
	// Extra holds form-specific values (a legacy budget's body function,
	// ...).
	Extra *Table
}

// Dialect implements one tag.
type Dialect struct {
	Name string
	// Doc is a one-line description for listings.
	Doc string
	// Text evaluates the string form after interpolation.
	Text func(t *Thread, text string, opts DialectOptions) (Value, error)
	// Block evaluates the field-block form.
	Block func(t *Thread, fields *Table, opts DialectOptions) (Value, error)
	// BlockResults, when set, evaluates the field-block form to several
	// results (turn { ... } gives result, err as llm.turn does); it takes
	// precedence over Block. An error is handled as Block's.
	BlockResults func(t *Thread, fields *Table, opts DialectOptions) ([]Value, error)
	// Interpolate builds the text from the literal pieces (len(values)+1
	// of them) and the interpolated values; nil joins tostring(value).
	Interpolate func(t *Thread, pieces []string, values []Value) (string, error)
	// Encode is the reverse direction, dialect.eval(tag, value, {mode:
	// "encode"}): a value to the dialect's text.
	Encode func(t *Thread, v Value, opts DialectOptions) (Value, error)
}

// RegisterDialect adds or replaces a tag's implementation.
func (in *Interp) RegisterDialect(d Dialect) { in.dialects[d.Name] = d }

// DialectNames lists the registered tags, sorted.
func (in *Interp) DialectNames() []string {
	names := make([]string, 0, len(in.dialects))
	for n := range in.dialects {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// aiTags need the llm layer; without it they fail with the upstream
// message.
var aiTags = map[string]bool{"model": true, "models": true, "tool": true, "turn": true, "agent": true, "agent_defaults": true, "budget": true, "messages": true, "prompt": true}

func (th *Thread) dialect(tag string, pos int32) Dialect {
	d, ok := th.in.dialects[tag]
	if !ok {
		if aiTags[tag] {
			panic(th.runtimeError(pos, "%s dialect requires llm stdlib", tag))
		}
		panic(th.runtimeError(pos, "unknown dialect '%s'", tag))
	}
	return d
}

// dialectResult turns a handler's outcome into the form's results.
func (th *Thread) dialectResult(tag string, v Value, err error, opts DialectOptions, pos int32) []Value {
	if err == nil {
		return th.Ret1(v)
	}
	if _, ok := err.(*Error); ok || opts.FailFast {
		panic(th.wrapNativeError(err, &Native{Name: tag}, pos))
	}
	if _, ok := err.(*scriptError); ok {
		panic(th.wrapNativeError(err, &Native{Name: tag}, pos))
	}
	return th.Ret2(Nil, ErrorTable("dialect", fmt.Sprintf("%s: %s", tag, err.Error())))
}

func (th *Thread) evalDialectText(tag string, pieces []string, values []Value, opts DialectOptions, pos int32) []Value {
	d := th.dialect(tag, pos)
	var text string
	if d.Interpolate != nil {
		s, err := d.Interpolate(th, pieces, values)
		if err != nil {
			return th.dialectResult(tag, Nil, err, opts, pos)
		}
		text = s
	} else {
		var b strings.Builder
		for i, p := range pieces {
			b.WriteString(p)
			if i < len(values) {
				b.WriteString(th.tostring(values[i], pos))
			}
		}
		text = b.String()
	}
	if d.Text == nil {
		panic(th.runtimeError(pos, "%s dialect has no string form", tag))
	}
	th.current().callPos = pos
	v, err := d.Text(th, text, opts)
	return th.dialectResult(tag, v, err, opts, pos)
}

func (th *Thread) evalDialectEncode(tag string, v Value, opts DialectOptions, pos int32) []Value {
	d := th.dialect(tag, pos)
	if d.Encode == nil {
		panic(th.runtimeError(pos, "%s dialect cannot encode", tag))
	}
	out, err := d.Encode(th, v, opts)
	return th.dialectResult(tag, out, err, opts, pos)
}

func (th *Thread) evalDialectBlock(tag string, fields *Table, opts DialectOptions, pos int32) []Value {
	d := th.dialect(tag, pos)
	if d.BlockResults != nil {
		th.current().callPos = pos
		vals, err := d.BlockResults(th, fields, opts)
		if err != nil {
			return th.dialectResult(tag, Nil, err, opts, pos)
		}
		return vals
	}
	if d.Block == nil {
		panic(th.runtimeError(pos, "%s dialect requires a field block", tag))
	}
	th.current().callPos = pos
	v, err := d.Block(th, fields, opts)
	return th.dialectResult(tag, v, err, opts, pos)
}

// ErrorTable builds the recoverable error shape {kind, message}.
func ErrorTable(kind, message string) Value {
	t := NewTable(0, 2)
	t.SetStr("kind", String(kind))
	t.SetStr("message", String(message))
	return TableValue(t)
}
