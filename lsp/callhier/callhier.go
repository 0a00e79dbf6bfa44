// Package callhier answers call hierarchy requests over one file's tree,
// for both languages: which of the file's callables a name denotes, which
// callables one of them calls, and which call it. A language supplies its
// callables (Harn's functions and pipelines, Leia's functions) and the
// resolution definition uses, so the hierarchy and go-to-definition agree
// on what a called name denotes. Both grammars spell a call the same way:
// a call_expression whose function field is an identifier.
package callhier

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
)

// Callable is a callable of the file and the node its calls are read from.
type Callable struct {
	features.Callable
	Node *sitter.Node
}

// Resolver returns the span of the declaration the name at an offset
// denotes, and whether it denotes one.
type Resolver func(off int) (diagnostics.Span, bool)

// maxDepth bounds the walk of a callable's syntax.
const maxDepth = 256

// Prepare returns the callable the name at offset denotes, if it is one
// of cs.
func Prepare(cs []Callable, resolve Resolver, offset int) []features.Callable {
	decl, ok := resolve(offset)
	if !ok {
		return nil
	}
	for _, c := range cs {
		if c.SelectionSpan == decl {
			return []features.Callable{c.Callable}
		}
	}
	return nil
}

// Outgoing returns the callables of cs that c calls, grouped by callee in
// order of first call.
func Outgoing(cs []Callable, resolve Resolver, c features.Callable) []features.Call {
	for _, k := range cs {
		if k.SelectionSpan == c.SelectionSpan {
			return calls(k.Node, resolve, cs)
		}
	}
	return nil
}

// Incoming returns the callables of cs that call c, each with the spans
// of its calls.
func Incoming(cs []Callable, resolve Resolver, c features.Callable) []features.Call {
	var target []Callable
	for _, k := range cs {
		if k.SelectionSpan == c.SelectionSpan {
			target = []Callable{k}
		}
	}
	if target == nil {
		return nil
	}
	var out []features.Call
	for _, k := range cs {
		if got := calls(k.Node, resolve, target); len(got) > 0 {
			out = append(out, features.Call{Other: k.Callable, Spans: got[0].Spans})
		}
	}
	return out
}

// calls returns the calls within n of names that resolve to one of cs,
// grouped by callee in order of first call.
func calls(n *sitter.Node, resolve Resolver, cs []Callable) []features.Call {
	index := map[diagnostics.Span]int{}
	for i, c := range cs {
		index[c.SelectionSpan] = i
	}
	var out []features.Call
	at := map[int]int{}
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if n == nil || depth > maxDepth {
			return
		}
		if n.Kind() == "call_expression" {
			if fn := n.ChildByFieldName("function"); fn != nil && fn.Kind() == "identifier" {
				if decl, ok := resolve(int(fn.StartByte())); ok {
					if i, ok := index[decl]; ok {
						sp := diagnostics.Span{Start: int(fn.StartByte()), End: int(fn.EndByte())}
						if j, ok := at[i]; ok {
							out[j].Spans = append(out[j].Spans, sp)
						} else {
							at[i] = len(out)
							out = append(out, features.Call{Other: cs[i].Callable, Spans: []diagnostics.Span{sp}})
						}
					}
				}
			}
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i), depth+1)
		}
	}
	walk(n, 0)
	return out
}
