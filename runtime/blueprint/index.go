package blueprint

import (
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/pelletier/go-toml/v2/unstable"
)

// index maps dotted key paths ("stages.a.output.validator",
// "graph.stages[0].output.validator.file") to byte spans of the key and
// of its value in the TOML text.
type index struct {
	keys, values map[string]diagnostics.Span
}

func (ix *index) key(path string) diagnostics.Span {
	if ix == nil {
		return diagnostics.Span{}
	}
	if s, ok := ix.keys[path]; ok {
		return s
	}
	// Fall back to the nearest enclosing key that was written.
	for i := strings.LastIndexAny(path, ".["); i > 0; i = strings.LastIndexAny(path[:i], ".[") {
		if s, ok := ix.keys[path[:i]]; ok {
			return s
		}
	}
	return diagnostics.Span{}
}

func (ix *index) value(path string) diagnostics.Span {
	if ix != nil {
		if s, ok := ix.values[path]; ok {
			return s
		}
	}
	return ix.key(path)
}

func span(r unstable.Range) diagnostics.Span {
	return diagnostics.Span{Start: int(r.Offset), End: int(r.Offset + r.Length)}
}

// buildIndex walks the expressions of a document that already decoded
// without error.
func buildIndex(data []byte) *index {
	ix := &index{keys: map[string]diagnostics.Span{}, values: map[string]diagnostics.Span{}}
	arrays := map[string]int{}
	var p unstable.Parser
	p.Reset(data)
	var table string
	// resolve turns key parts into a path, adding the current element
	// index after each array-of-tables prefix.
	resolve := func(prefix string, parts []string, indexLast bool) string {
		path := prefix
		for i, part := range parts {
			if path != "" {
				path += "."
			}
			path += part
			if n := arrays[path]; n > 0 && (i < len(parts)-1 || indexLast) {
				path += fmt.Sprintf("[%d]", n-1)
			}
		}
		return path
	}
	keyOf := func(n *unstable.Node) ([]string, diagnostics.Span) {
		var parts []string
		var s diagnostics.Span
		it := n.Key()
		first := true
		for it.Next() {
			k := it.Node()
			parts = append(parts, string(k.Data))
			if first {
				s = span(k.Raw)
				first = false
			}
			s.End = int(k.Raw.Offset + k.Raw.Length)
		}
		return parts, s
	}
	var keyval func(prefix string, n *unstable.Node)
	keyval = func(prefix string, n *unstable.Node) {
		parts, ks := keyOf(n)
		path := resolve(prefix, parts, true)
		ix.keys[path] = ks
		v := n.Value()
		if v.Kind == unstable.InlineTable {
			children := v.Children()
			for children.Next() {
				c := children.Node()
				if c.Kind == unstable.KeyValue {
					keyval(path, c)
				}
			}
			return
		}
		ix.values[path] = span(v.Raw)
	}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			parts, ks := keyOf(e)
			table = resolve("", parts, true)
			if _, ok := ix.keys[table]; !ok {
				ix.keys[table] = ks
			}
		case unstable.ArrayTable:
			parts, ks := keyOf(e)
			base := resolve("", parts, false)
			arrays[base]++
			table = fmt.Sprintf("%s[%d]", base, arrays[base]-1)
			ix.keys[table] = ks
		case unstable.KeyValue:
			keyval(table, e)
		}
	}
	return ix
}
