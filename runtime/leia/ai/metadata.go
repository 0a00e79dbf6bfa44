package ai

import (
	"encoding/json"
	"strings"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Small readers and builders shared by the provider-free metadata
// families (workflows, planning graphs, retrieval, outcomes, envelopes,
// trace events, report contracts). Option tables are read the way
// upstream Leia reads them: a string option counts only when it is a
// non-empty string, a boolean option is its truthiness when present, an
// integer option only when it is an integer.

// Bounds on deep copies of script tables into result tables: nesting
// depth and tables copied per copy. Past either bound tables are shared
// rather than copied, so a hostile (cyclic, or widely shared) table
// never makes a copy recurse without bound or grow exponentially.
const (
	maxCloneDepth  = 64
	maxCloneTables = 1 << 14
)

// optString is t[key] when it is a non-empty string, else fallback.
func optString(t leia.Value, key, fallback string) string {
	if v := Field(t, key); v.Kind() == leia.KindString && v.AsString() != "" {
		return v.AsString()
	}
	return fallback
}

// optBool is t[key]'s truthiness when present, else fallback.
func optBool(t leia.Value, key string, fallback bool) bool {
	v := Field(t, key)
	if v.IsNil() {
		return fallback
	}
	return v.Truthy()
}

// optInt is t[key] when it is an integer, else fallback.
func optInt(t leia.Value, key string, fallback int64) int64 {
	if v := Field(t, key); v.Kind() == leia.KindInt {
		return v.AsInt()
	}
	return fallback
}

// text is a value as upstream's Str() reads it: strings as they are,
// numbers formatted, booleans "true"/"false", anything else "".
func text(v leia.Value) string {
	if v.Kind() == leia.KindBool {
		if v.AsBool() {
			return "true"
		}
		return "false"
	}
	return Str(v)
}

// jsonText is a value as JSON text (strings as they are); the encoding
// sorts object keys, so equal tables give equal text.
func jsonText(v leia.Value) string {
	if v.Kind() == leia.KindString {
		return v.AsString()
	}
	b, err := json.Marshal(ToGo(v))
	if err != nil {
		return text(v)
	}
	return string(b)
}

// deepClone copies a value; tables are copied level by level up to
// maxCloneDepth (a table met again on the current path is shared, not
// copied, so cycles end).
func deepClone(v leia.Value) leia.Value {
	c := cloner{onPath: map[*leia.Table]bool{}}
	return c.clone(v, 0)
}

type cloner struct {
	onPath map[*leia.Table]bool
	tables int
}

func (c *cloner) clone(v leia.Value, depth int) leia.Value {
	t := v.Table()
	if t == nil || depth >= maxCloneDepth || c.onPath[t] || c.tables >= maxCloneTables {
		return v
	}
	c.tables++
	c.onPath[t] = true
	defer delete(c.onPath, t)
	out := leia.NewTable(t.Len(), t.HashLen())
	t.Iter(func(k, val leia.Value) bool {
		out.Set(k, c.clone(val, depth+1))
		return true
	})
	return leia.TableValue(out)
}

// setFirst sets dst[key] to a deep copy of the first non-nil of
// tables[i][key].
func setFirst(dst *leia.Table, key string, tables ...leia.Value) {
	for _, t := range tables {
		if v := Field(t, key); !v.IsNil() {
			dst.SetStr(key, deepClone(v))
			return
		}
	}
}

// setEach is setFirst for several keys in order.
func setEach(dst *leia.Table, keys []string, tables ...leia.Value) {
	for _, k := range keys {
		setFirst(dst, k, tables...)
	}
}

// setIfAbsent sets dst[key] from the first table holding it, unless
// dst already has a value there.
func setIfAbsent(dst *leia.Table, key string, tables ...leia.Value) {
	if dst.GetStr(key).IsNil() {
		setFirst(dst, key, tables...)
	}
}

// newList is an empty list table.
func newList() *leia.Table { return leia.NewTable(0, 0) }

// appendTo appends v to a list table.
func appendTo(list *leia.Table, v leia.Value) { list.Append(v) }

// stringItems are a list's non-empty string items; a single string is
// a one-item list.
func stringItems(v leia.Value) []string {
	if v.Kind() == leia.KindString {
		if v.AsString() == "" {
			return nil
		}
		return []string{v.AsString()}
	}
	var out []string
	for _, it := range Items(v) {
		if it.Kind() == leia.KindString && it.AsString() != "" {
			out = append(out, it.AsString())
		}
	}
	return out
}

// optTable returns args[i] as an options table: nil when absent, an
// error (Lua's wording) when present but not a table.
func optTable(args []leia.Value, i int, fname, what string) (leia.Value, error) {
	v := leia.Arg(args, i)
	if v.IsNil() && i >= len(args) {
		return leia.TableValue(leia.NewTable(0, 0)), nil
	}
	if v.Table() == nil {
		return leia.Nil, leia.ArgError(i, fname, what+" table expected")
	}
	return v, nil
}

// needTable returns args[i] when it is a table, else the upstream
// "bad argument" error naming what was expected.
func needTable(args []leia.Value, i int, fname, what string) (leia.Value, error) {
	v := leia.Arg(args, i)
	if v.Table() == nil {
		return leia.Nil, leia.ArgError(i, fname, what+" expected")
	}
	return v, nil
}

// aliases registers one function under several names.
func aliases(m map[string]leia.NativeFunc, fn leia.NativeFunc, names ...string) {
	for _, n := range names {
		m[n] = fn
	}
}

// camel is snake_case in lowerCamelCase (upstream registers both).
// Every word after the first starts with its first byte upper-cased
// (ASCII names; a byte that is no lower-case letter is kept); the
// underscores go. Every run spells a few hundred names, so a name
// without an underscore is returned as it is and the others are built
// in one allocation.
func camel(name string) string {
	if strings.IndexByte(name, '_') < 0 {
		return name
	}
	b := make([]byte, 0, len(name))
	upper := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_':
			upper = true
		case upper:
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			b = append(b, c)
			upper = false
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// tableAndOptions is the native name(src, opts) of the llm module for
// a Go function of two tables: src, which must be a table (what names it
// in the error), and opts, an optional options table.
func tableAndOptions(name, what string, f func(src, opts leia.Value) leia.Value) leia.NativeFunc {
	return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		src, err := needTable(a, 0, "llm."+name, what)
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm."+name, "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(f(src, opts)), nil
	}
}

// withCamel registers fn under each name and its camelCase spelling.
func withCamel(m map[string]leia.NativeFunc, fn leia.NativeFunc, names ...string) {
	for _, n := range names {
		m[n] = fn
		m[camel(n)] = fn
	}
}
