// Package nodetypes summarises the public structure of each node type of
// a prepared grammar (its fields, children and subtypes) and renders it
// as tree-sitter's node-types.json.
//
// The summary also tells the table builder which fields a hidden rule
// passes on to its parent. The package does no IO; its output is sorted,
// so it is deterministic.
package nodetypes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/harnlang/harn-check/grammar/generate/ir"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

type symbol = prepare.Symbol

// childType is a child as it appears: a symbol, or an alias.
type childType struct {
	aliased bool
	sym     symbol
	alias   prepare.Alias
}

func (a childType) compare(b childType) int {
	if a.aliased != b.aliased {
		if !a.aliased {
			return -1
		}
		return 1
	}
	if !a.aliased {
		return a.sym.Compare(b.sym)
	}
	return a.alias.Compare(&b.alias)
}

type quantity struct{ exists, required, multiple bool }

var (
	zero = quantity{}
	one  = quantity{exists: true, required: true}
)

func (q *quantity) append(o quantity) {
	if o.exists {
		if q.exists || o.multiple {
			q.multiple = true
		}
		if o.required {
			q.required = true
		}
		q.exists = true
	}
}

func (q *quantity) union(o quantity) bool {
	changed := false
	if !q.exists && o.exists {
		q.exists, changed = true, true
	}
	if q.required && !o.required {
		q.required, changed = false, true
	}
	if !q.multiple && o.multiple {
		q.multiple, changed = true, true
	}
	return changed
}

type fieldInfo struct {
	q     quantity
	types []childType
}

func newFieldInfo() *fieldInfo { return &fieldInfo{q: one} }

// VariableInfo is the public structure of one non-terminal.
type VariableInfo struct {
	fields        map[string]*fieldInfo
	children      fieldInfo
	withoutFields fieldInfo
	multiStep     bool
}

// FieldNames returns the fields this rule's nodes can carry, sorted.
func (v *VariableInfo) FieldNames() []string {
	var out []string
	for f := range v.fields {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

func extendSorted(list *[]childType, values ...childType) bool {
	changed := false
	for _, v := range values {
		i := sort.Search(len(*list), func(i int) bool { return (*list)[i].compare(v) >= 0 })
		if i < len(*list) && (*list)[i].compare(v) == 0 {
			continue
		}
		*list = append(*list, childType{})
		copy((*list)[i+1:], (*list)[i:])
		(*list)[i] = v
		changed = true
	}
	return changed
}

type analyzer struct {
	g   *prepare.Grammar
	syn *prepare.SyntaxGrammar
}

func (a *analyzer) kindOf(c childType) ir.VariableKind {
	if c.aliased {
		return c.alias.Kind()
	}
	s := c.sym
	switch {
	case a.syn.IsSupertype(s):
		return ir.Named
	case a.syn.IsInline(s):
		return ir.Hidden
	}
	switch s.Kind {
	case prepare.NonTerminal:
		return a.syn.Variables[s.Index].Kind
	case prepare.Terminal:
		return a.g.Lexical.Variables[s.Index].Kind
	case prepare.External:
		return a.syn.Externals[s.Index].Kind
	}
	return ir.Hidden
}

func visible(k ir.VariableKind) bool { return k == ir.Named || k == ir.Anonymous }

// Infos computes the structure summary of every non-terminal.
func Infos(g *prepare.Grammar) ([]*VariableInfo, error) {
	a := &analyzer{g: g, syn: g.Syntax}
	syn := g.Syntax
	result := make([]*VariableInfo, len(syn.Variables))
	for i := range result {
		result[i] = &VariableInfo{fields: map[string]*fieldInfo{}, children: fieldInfo{q: one}, withoutFields: fieldInfo{q: one}}
	}
	allInitialized := false
	for changed := true; changed; {
		changed = false
		for i, v := range syn.Variables {
			info := result[i]
			for _, p := range v.Productions {
				fieldQ := map[string]*quantity{}
				getQ := func(f string) *quantity {
					q := fieldQ[f]
					if q == nil {
						q = &quantity{}
						fieldQ[f] = q
					}
					return q
				}
				childrenQ, withoutQ := zero, zero
				uninitialized := false
				if len(p.Steps) > 1 {
					info.multiStep = true
				}
				for _, st := range p.Steps {
					sym := st.Symbol
					ct := childType{sym: sym}
					if st.Alias != nil {
						ct = childType{aliased: true, alias: *st.Alias}
					} else if d, ok := g.DefaultAliases[sym]; ok {
						ct = childType{aliased: true, alias: d}
					}
					hidden := !visible(a.kindOf(ct)) && !syn.IsSupertype(sym)
					if extendSorted(&info.children.types, ct) {
						changed = true
					}
					if !hidden {
						childrenQ.append(one)
					}
					if st.Field != "" {
						fi := info.fields[st.Field]
						if fi == nil {
							fi = newFieldInfo()
							info.fields[st.Field] = fi
						}
						if extendSorted(&fi.types, ct) {
							changed = true
						}
						fq := getQ(st.Field)
						if hidden && sym.Kind == prepare.NonTerminal {
							ci := result[sym.Index]
							if extendSorted(&fi.types, ci.children.types...) {
								changed = true
							}
							fq.append(ci.children.q)
						} else {
							fq.append(one)
						}
					} else if a.kindOf(ct) == ir.Named {
						withoutQ.append(one)
						if extendSorted(&info.withoutFields.types, ct) {
							changed = true
						}
					}
					if hidden && sym.Kind == prepare.NonTerminal {
						ci := result[sym.Index]
						if ci.multiStep {
							info.multiStep = true
						}
						for _, f := range sortedFieldNames(ci.fields) {
							cf := ci.fields[f]
							getQ(f).append(cf.q)
							fi := info.fields[f]
							if fi == nil {
								fi = newFieldInfo()
								info.fields[f] = fi
							}
							if extendSorted(&fi.types, cf.types...) {
								changed = true
							}
						}
						childrenQ.append(ci.children.q)
						if extendSorted(&info.children.types, ci.children.types...) {
							changed = true
						}
						if st.Field == "" && len(ci.withoutFields.types) > 0 {
							withoutQ.append(ci.withoutFields.q)
							if extendSorted(&info.withoutFields.types, ci.withoutFields.types...) {
								changed = true
							}
						}
					}
					if sym.Index >= i && !allInitialized {
						uninitialized = true
					}
				}
				if !uninitialized {
					if info.children.q.union(childrenQ) {
						changed = true
					}
					if info.withoutFields.q.union(withoutQ) {
						changed = true
					}
					for _, f := range sortedFieldNames(info.fields) {
						q := zero
						if fq := fieldQ[f]; fq != nil {
							q = *fq
						}
						if info.fields[f].q.union(q) {
							changed = true
						}
					}
				}
			}
		}
		allInitialized = true
	}
	for _, s := range syn.Supertypes {
		if s.Kind == prepare.NonTerminal && result[s.Index].multiStep {
			return nil, fmt.Errorf("grammar: rule `%s`: a supertype must always have a single visible child, but it can have several", syn.Variables[s.Index].Name)
		}
	}
	keepVisible := func(list []childType) []childType {
		var out []childType
		for _, c := range list {
			if visible(a.kindOf(c)) {
				out = append(out, c)
			}
		}
		return out
	}
	for _, s := range syn.Supertypes {
		if s.Kind == prepare.NonTerminal {
			result[s.Index].children.types = keepVisible(result[s.Index].children.types)
		}
	}
	for _, info := range result {
		for f, fi := range info.fields {
			fi.types = keepVisible(fi.types)
			if len(fi.types) == 0 {
				delete(info.fields, f)
			}
		}
		info.withoutFields.types = keepVisible(info.withoutFields.types)
	}
	return result, nil
}

func sortedFieldNames(m map[string]*fieldInfo) []string {
	var out []string
	for f := range m {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// nodeType is a (type, named) pair.
type nodeType struct {
	Type  string `json:"type"`
	Named bool   `json:"named"`
}

func lessNodeType(a, b nodeType) bool {
	if a.Type != b.Type {
		return a.Type < b.Type
	}
	return !a.Named && b.Named
}

type fieldJSON struct {
	Multiple bool       `json:"multiple"`
	Required bool       `json:"required"`
	Types    []nodeType `json:"types"`
}

type nodeInfo struct {
	Type     string
	Named    bool
	Root     bool
	Extra    bool
	Fields   map[string]*fieldJSON // nil: absent
	Children *fieldJSON
	Subtypes []nodeType
	HasSub   bool
}

type aliasSet struct {
	list []*prepare.Alias // nil entry = unaliased; sorted, None first
}

func (s *aliasSet) add(a *prepare.Alias) {
	i := sort.Search(len(s.list), func(i int) bool { return s.list[i].Compare(a) >= 0 })
	if i < len(s.list) && s.list[i].Compare(a) == 0 {
		return
	}
	s.list = append(s.list, nil)
	copy(s.list[i+1:], s.list[i:])
	s.list[i] = a
}

func aliasesBySymbol(g *prepare.Grammar) map[symbol]*aliasSet {
	out := map[symbol]*aliasSet{}
	get := func(s symbol) *aliasSet {
		x := out[s]
		if x == nil {
			x = &aliasSet{}
			out[s] = x
		}
		return x
	}
	for s, a := range g.DefaultAliases {
		a := a
		get(s).add(&a)
	}
	for _, e := range g.Syntax.Extras {
		if _, ok := g.DefaultAliases[e]; !ok {
			get(e).add(nil)
		}
	}
	for _, v := range g.Syntax.Variables {
		for _, p := range v.Productions {
			for _, st := range p.Steps {
				a := st.Alias
				if a == nil {
					if d, ok := g.DefaultAliases[st.Symbol]; ok {
						a = &d
					}
				}
				get(st.Symbol).add(a)
			}
		}
	}
	out[prepare.NonTerm(0)] = &aliasSet{list: []*prepare.Alias{nil}}
	return out
}

// JSON renders node-types.json as the tree-sitter CLI (0.25) does.
func JSON(g *prepare.Grammar) ([]byte, error) {
	infos, err := Infos(g)
	if err != nil {
		return nil, err
	}
	syn := g.Syntax
	toNode := func(c childType) nodeType {
		if c.aliased {
			return nodeType{c.alias.Value, c.alias.Named}
		}
		if d, ok := g.DefaultAliases[c.sym]; ok {
			return nodeType{d.Value, d.Named}
		}
		switch c.sym.Kind {
		case prepare.NonTerminal:
			v := syn.Variables[c.sym.Index]
			return nodeType{v.Name, v.Kind != ir.Anonymous}
		case prepare.Terminal:
			v := g.Lexical.Variables[c.sym.Index]
			return nodeType{v.Name, v.Kind != ir.Anonymous}
		}
		e := syn.Externals[c.sym.Index]
		return nodeType{e.Name, e.Kind != ir.Anonymous}
	}
	sortDedup := func(list []nodeType) []nodeType {
		sort.Slice(list, func(i, j int) bool { return lessNodeType(list[i], list[j]) })
		var out []nodeType
		for i, x := range list {
			if i == 0 || x != list[i-1] {
				out = append(out, x)
			}
		}
		return out
	}
	populate := func(j *fieldJSON, fi *fieldInfo) {
		if len(fi.types) == 0 {
			j.Required = false
			return
		}
		j.Multiple = j.Multiple || fi.q.multiple
		j.Required = j.Required && fi.q.required
		for _, c := range fi.types {
			j.Types = append(j.Types, toNode(c))
		}
		j.Types = sortDedup(j.Types)
	}
	aliases := aliasesBySymbol(g)
	symbolName := func(s symbol) string {
		switch s.Kind {
		case prepare.NonTerminal:
			return syn.Variables[s.Index].Name
		case prepare.Terminal:
			return g.Lexical.Variables[s.Index].Name
		}
		return syn.Externals[s.Index].Name
	}
	extraNames := map[string]bool{}
	for _, e := range syn.Extras {
		if set := aliases[e]; set != nil {
			for _, a := range set.list {
				if a == nil {
					extraNames[symbolName(e)] = true
				} else {
					extraNames[a.Value] = true
				}
			}
		}
	}

	byName := map[string]*nodeInfo{}
	type subtypeEntry struct {
		super nodeType
		subs  []nodeType
	}
	var subtypeMap []subtypeEntry
	for i, info := range infos {
		sym := prepare.NonTerm(i)
		v := syn.Variables[i]
		if syn.IsSupertype(sym) {
			n := byName[v.Name]
			if n == nil {
				n = &nodeInfo{Type: v.Name, Named: true, Extra: extraNames[v.Name]}
				byName[v.Name] = n
			}
			var subs []nodeType
			for _, c := range info.children.types {
				subs = append(subs, toNode(c))
			}
			subs = sortDedup(subs)
			subtypeMap = append(subtypeMap, subtypeEntry{nodeType{n.Type, true}, subs})
			n.Subtypes, n.HasSub = subs, true
			continue
		}
		if syn.IsInline(sym) {
			continue
		}
		set := aliases[sym]
		if set == nil {
			continue
		}
		for _, a := range set.list {
			var kind string
			var named bool
			switch {
			case a != nil:
				kind, named = a.Value, a.Named
			case visible(v.Kind):
				kind, named = v.Name, v.Kind == ir.Named
			default:
				continue
			}
			n, existed := byName[kind]
			if !existed {
				n = &nodeInfo{Type: kind, Named: named, Root: i == 0, Extra: extraNames[kind], Fields: map[string]*fieldJSON{}}
				byName[kind] = n
			}
			if n.Fields == nil {
				n.Fields = map[string]*fieldJSON{}
			}
			for _, f := range sortedFieldNames(info.fields) {
				fj := n.Fields[f]
				if fj == nil {
					fj = &fieldJSON{Required: true}
					if existed {
						fj.Required = false
					}
					n.Fields[f] = fj
				}
				populate(fj, info.fields[f])
			}
			for f, fj := range n.Fields {
				if _, ok := info.fields[f]; !ok {
					fj.Required = false
				}
			}
			if n.Children == nil {
				n.Children = &fieldJSON{Required: true}
			}
			populate(n.Children, &info.withoutFields)
		}
	}

	// Process nested supertypes from the innermost out.
	depth := map[string]int{}
	var depthOf func(k string, seen map[string]bool) int
	subsOf := map[string][]nodeType{}
	for _, e := range subtypeMap {
		subsOf[e.super.Type] = e.subs
	}
	depthOf = func(k string, seen map[string]bool) int {
		if d, ok := depth[k]; ok {
			return d
		}
		if seen[k] {
			return 0
		}
		seen[k] = true
		d := 0
		for _, s := range subsOf[k] {
			if _, isSuper := subsOf[s.Type]; isSuper {
				d = max(d, depthOf(s.Type, seen)+1)
			}
		}
		depth[k] = d
		return d
	}
	for _, e := range subtypeMap {
		depthOf(e.super.Type, map[string]bool{})
	}
	sort.SliceStable(subtypeMap, func(i, j int) bool {
		di, dj := depth[subtypeMap[i].super.Type], depth[subtypeMap[j].super.Type]
		if di != dj {
			return di < dj
		}
		return subtypeMap[i].super.Type < subtypeMap[j].super.Type
	})
	processSupertypes := func(f *fieldJSON) {
		for _, e := range subtypeMap {
			if !containsNode(f.Types, e.super) {
				continue
			}
			var kept []nodeType
			for _, t := range f.Types {
				if !containsNode(e.subs, t) {
					kept = append(kept, t)
				}
			}
			f.Types = kept
		}
	}
	for _, n := range byName {
		if n.Children != nil && len(n.Children.Types) == 0 {
			n.Children = nil
		}
		if n.Children != nil {
			processSupertypes(n.Children)
		}
		for _, f := range n.Fields {
			processSupertypes(f)
		}
	}

	var anonymous []*nodeInfo
	addToken := func(name string, kind ir.VariableKind) {
		switch kind {
		case ir.Named:
			n := byName[name]
			if n == nil {
				n = &nodeInfo{Type: name, Named: true, Extra: extraNames[name]}
				byName[name] = n
			}
			if n.Children != nil {
				n.Children.Required = false
			}
			for _, f := range n.Fields {
				f.Required = false
			}
		case ir.Anonymous:
			anonymous = append(anonymous, &nodeInfo{Type: name, Extra: extraNames[name]})
		}
	}
	for i, v := range g.Lexical.Variables {
		if set := aliases[prepare.Term(i)]; set != nil {
			for _, a := range set.list {
				if a == nil {
					addToken(v.Name, v.Kind)
				} else {
					addToken(a.Value, a.Kind())
				}
			}
		}
	}
	for i, e := range syn.Externals {
		if set := aliases[prepare.Ext(i)]; set != nil {
			for _, a := range set.list {
				if a == nil {
					addToken(e.Name, e.Kind)
				} else {
					addToken(a.Value, a.Kind())
				}
			}
		}
	}

	var result []*nodeInfo
	for _, n := range byName {
		result = append(result, n)
	}
	result = append(result, anonymous...)
	sort.SliceStable(result, func(i, j int) bool {
		a, b := result[i], result[j]
		if a.HasSub != b.HasSub {
			return a.HasSub
		}
		al, bl := a.Children == nil && a.Fields == nil, b.Children == nil && b.Fields == nil
		if al != bl {
			return !al
		}
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		if a.Named != b.Named {
			return !a.Named
		}
		if a.Root != b.Root {
			return !a.Root
		}
		return !a.Extra && b.Extra
	})
	var buf bytes.Buffer
	buf.WriteString("[")
	var prev []byte
	first := true
	for _, n := range result {
		enc := encodeNode(n)
		if bytes.Equal(enc, prev) {
			continue
		}
		prev = enc
		if !first {
			buf.WriteString(",")
		}
		first = false
		buf.WriteString("\n  ")
		buf.Write(enc)
	}
	if !first {
		buf.WriteString("\n")
	}
	buf.WriteString("]")
	return buf.Bytes(), nil
}

func containsNode(list []nodeType, t nodeType) bool {
	for _, x := range list {
		if x == t {
			return true
		}
	}
	return false
}

// encodeNode writes one entry with serde's pretty layout at depth one.
func encodeNode(n *nodeInfo) []byte {
	w := &prettyWriter{}
	w.open("{")
	w.key("type")
	w.value(n.Type)
	w.key("named")
	w.value(n.Named)
	if n.Root {
		w.key("root")
		w.value(true)
	}
	if n.Extra {
		w.key("extra")
		w.value(true)
	}
	if n.Fields != nil {
		w.key("fields")
		if len(n.Fields) == 0 {
			w.raw("{}")
		} else {
			w.open("{")
			for _, f := range sortedKeys(n.Fields) {
				w.key(f)
				w.field(n.Fields[f])
			}
			w.close("}")
		}
	}
	if n.Children != nil {
		w.key("children")
		w.field(n.Children)
	}
	if n.HasSub {
		w.key("subtypes")
		w.types(n.Subtypes)
	}
	w.close("}")
	return w.buf.Bytes()
}

func sortedKeys(m map[string]*fieldJSON) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// prettyWriter writes JSON with two-space indentation starting at depth 1.
type prettyWriter struct {
	buf   bytes.Buffer
	depth int
	count []int
}

func (w *prettyWriter) indent() {
	w.buf.WriteString("\n")
	for i := 0; i <= w.depth; i++ {
		w.buf.WriteString("  ")
	}
}

func (w *prettyWriter) open(s string) {
	w.buf.WriteString(s)
	w.depth++
	w.count = append(w.count, 0)
}

func (w *prettyWriter) close(s string) {
	w.depth--
	w.count = w.count[:len(w.count)-1]
	w.indent()
	w.buf.WriteString(s)
}

func (w *prettyWriter) item() {
	if w.count[len(w.count)-1] > 0 {
		w.buf.WriteString(",")
	}
	w.count[len(w.count)-1]++
	w.indent()
}

func (w *prettyWriter) key(k string) {
	w.item()
	b, _ := json.Marshal(k)
	w.buf.Write(b)
	w.buf.WriteString(": ")
}

func (w *prettyWriter) raw(s string) { w.buf.WriteString(s) }

func (w *prettyWriter) value(v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	w.buf.Write(bytes.TrimRight(b.Bytes(), "\n"))
}

func (w *prettyWriter) field(f *fieldJSON) {
	w.open("{")
	w.key("multiple")
	w.value(f.Multiple)
	w.key("required")
	w.value(f.Required)
	w.key("types")
	w.types(f.Types)
	w.close("}")
}

func (w *prettyWriter) types(list []nodeType) {
	if len(list) == 0 {
		w.raw("[]")
		return
	}
	w.open("[")
	for _, t := range list {
		w.item()
		w.open("{")
		w.key("type")
		w.value(t.Type)
		w.key("named")
		w.value(t.Named)
		w.close("}")
	}
	w.close("]")
}

// Child is a possible child of a node: a symbol, or an alias.
type Child struct {
	Aliased bool
	Symbol  prepare.Symbol
	Alias   prepare.Alias
}

// Subtypes returns, for each supertype, its visible children in order
// (the ABI-15 supertype map).
func Subtypes(g *prepare.Grammar, infos []*VariableInfo) map[prepare.Symbol][]Child {
	out := map[prepare.Symbol][]Child{}
	for _, s := range g.Syntax.Supertypes {
		if s.Kind != prepare.NonTerminal {
			continue
		}
		var list []Child
		for _, c := range infos[s.Index].children.types {
			list = append(list, Child{Aliased: c.aliased, Symbol: c.sym, Alias: c.alias})
		}
		out[s] = list
	}
	return out
}
