package ai

import (
	"fmt"
	"sort"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Value helpers shared by every helper family (the part-3 families use
// them too): building tables, reading fields, error values, and the one
// conversion between Leia values and the plain Go values of runtime/llm.

// Bounds on converting a Leia value to Go: nesting depth and the number
// of nodes visited (a table that shares one subtable many times is walked
// once per reference; the budget keeps that linear in what is produced).
const (
	maxConvertDepth = 100
	maxConvertNodes = 1 << 20
)

// T builds a table from alternating keys and values: T("kind",
// "validation", "message", msg). Values may be leia.Values or Go values
// (converted with leia.FromGo); nil values are skipped.
func T(kv ...any) leia.Value {
	t := leia.NewTable(0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		k, _ := kv[i].(string)
		v := toValue(kv[i+1])
		if v.IsNil() {
			continue
		}
		t.SetStr(k, v)
	}
	return leia.TableValue(t)
}

func toValue(x any) leia.Value {
	if v, ok := x.(leia.Value); ok {
		return v
	}
	return leia.FromGo(x)
}

// List builds a list from values.
func List(vals ...leia.Value) leia.Value { return leia.TableValue(leia.NewList(vals...)) }

// StringList builds a list of strings.
func StringList(ss []string) leia.Value {
	vals := make([]leia.Value, len(ss))
	for i, s := range ss {
		vals[i] = leia.String(s)
	}
	return List(vals...)
}

// ErrorValue is the recoverable error shape {kind, message}.
func ErrorValue(kind, message string) leia.Value { return leia.ErrorTable(kind, message) }

// ErrorWith is ErrorValue with more fields (alternating keys and values).
func ErrorWith(kind, message string, kv ...any) leia.Value {
	e := ErrorValue(kind, message)
	extra := T(kv...).Table()
	extra.Iter(func(k, v leia.Value) bool {
		e.Table().Set(k, v)
		return true
	})
	return e
}

// Field reads t[name] without metamethods (nil when t is not a table).
func Field(t leia.Value, name string) leia.Value {
	if tt := t.Table(); tt != nil {
		return tt.GetStr(name)
	}
	return leia.Nil
}

// Str is a string field or value as Go text: strings as they are,
// numbers formatted, anything else "".
func Str(v leia.Value) string {
	switch v.Kind() {
	case leia.KindString:
		return v.AsString()
	case leia.KindInt, leia.KindFloat:
		return leia.FormatNumber(v)
	}
	return ""
}

// StrField is Str(Field(t, name)).
func StrField(t leia.Value, name string) string { return Str(Field(t, name)) }

// IntOf reads a number as an integer (floats truncate; others 0).
func IntOf(v leia.Value) int64 {
	switch v.Kind() {
	case leia.KindInt:
		return v.AsInt()
	case leia.KindFloat:
		f := v.AsFloat()
		if f != f || f > 9e18 || f < -9e18 {
			return 0
		}
		return int64(f)
	}
	return 0
}

// Items returns the list part of a table value (t[1], t[2], ... up to
// its length), or nil.
func Items(v leia.Value) []leia.Value {
	t := v.Table()
	if t == nil {
		return nil
	}
	n := t.Len()
	out := make([]leia.Value, 0, n)
	for i := 1; i <= n; i++ {
		out = append(out, t.GetInt(int64(i)))
	}
	return out
}

// Strings returns the string items of a list value.
func Strings(v leia.Value) []string {
	var out []string
	for _, it := range Items(v) {
		if s := Str(it); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Keys returns a table's string keys in insertion order.
func Keys(v leia.Value) []string {
	t := v.Table()
	if t == nil {
		return nil
	}
	var keys []string
	t.Iter(func(k, _ leia.Value) bool {
		if k.Kind() == leia.KindString {
			keys = append(keys, k.AsString())
		}
		return true
	})
	return keys
}

// Clone copies a table one level deep (nil for non-tables).
func Clone(v leia.Value) *leia.Table {
	t := v.Table()
	out := leia.NewTable(t.Len(), 8)
	if t == nil {
		return out
	}
	t.Iter(func(k, val leia.Value) bool {
		out.Set(k, val)
		return true
	})
	return out
}

// Merge copies src's non-nil entries over dst's (a new table).
func Merge(dst, src leia.Value) *leia.Table {
	out := Clone(dst)
	if t := src.Table(); t != nil {
		t.Iter(func(k, val leia.Value) bool {
			if !val.IsNil() {
				out.Set(k, val)
			}
			return true
		})
	}
	return out
}

// ToGo converts a Leia value to the plain Go value runtime/llm carries:
// nil, bool, int64, float64, string; a table with a list part becomes
// []any (its list items), another table map[string]any (keys as text).
// Functions and other host values become a descriptive string; a table
// met again inside itself becomes "<cycle>"; nesting and size are
// bounded.
func ToGo(v leia.Value) any {
	c := converter{onPath: map[*leia.Table]bool{}}
	return c.toGo(v, 0)
}

type converter struct {
	onPath map[*leia.Table]bool
	nodes  int
}

func (c *converter) toGo(v leia.Value, depth int) any {
	c.nodes++
	if depth > maxConvertDepth || c.nodes > maxConvertNodes {
		return nil
	}
	switch v.Kind() {
	case leia.KindNil:
		return nil
	case leia.KindBool:
		return v.AsBool()
	case leia.KindInt:
		return v.AsInt()
	case leia.KindFloat:
		return v.AsFloat()
	case leia.KindString:
		return v.AsString()
	case leia.KindTable:
		t := v.Table()
		if c.onPath[t] {
			return "<cycle>"
		}
		c.onPath[t] = true
		defer delete(c.onPath, t)
		if n := t.Len(); n > 0 {
			out := make([]any, n)
			for i := 1; i <= n; i++ {
				out[i-1] = c.toGo(t.GetInt(int64(i)), depth+1)
			}
			return out
		}
		out := map[string]any{}
		t.Iter(func(k, val leia.Value) bool {
			key := Str(k)
			if k.Kind() == leia.KindBool {
				key = fmt.Sprint(k.AsBool())
			}
			if key != "" {
				out[key] = c.toGo(val, depth+1)
			}
			return true
		})
		return out
	case leia.KindFunction, leia.KindNative:
		return "<function>"
	}
	return "<" + v.TypeName() + ">"
}

// FromGo converts a plain Go value (as runtime/llm and encoding/json give
// them) to a Leia value; maps become tables with keys in sorted order.
func FromGo(x any) leia.Value { return fromGo(x, 0) }

func fromGo(x any, depth int) leia.Value {
	if depth > maxConvertDepth {
		return leia.Nil
	}
	switch x := x.(type) {
	case []any:
		vals := make([]leia.Value, len(x))
		for i, e := range x {
			vals[i] = fromGo(e, depth+1)
		}
		return List(vals...)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t := leia.NewTable(0, len(x))
		for _, k := range keys {
			t.SetStr(k, fromGo(x[k], depth+1))
		}
		return leia.TableValue(t)
	}
	return leia.FromGo(x)
}
