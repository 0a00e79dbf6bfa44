package toollists

import (
	_ "embed"
	"fmt"
	"sort"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/checker/leia/rules/names"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

const code = "LEIA3001"

//go:embed doc.go
var doc string

// Rule is the toollists rule.
var Rule = &analysis.Rule{
	Name:  "toollists",
	Doc:   analysis.ExtractDoc(doc, "toollists"),
	Codes: []string{code},
	Run:   run,
}

// list is what an owner's tools and capabilities are, statically.
type list struct {
	toolsField *ast.TableField
	// tools are the listed tools; static is set when every element is a
	// known tool or agent.
	tools  []*semantic.Tool
	static bool
	// caps is the literal capabilities list; capsField nil when absent,
	// capsStatic false when it is not all string literals.
	capsField  *ast.TableField
	caps       []semantic.Capability
	capsStatic bool
}

func run(p *analysis.Pass) {
	var defaults *semantic.Owner
	var defaultsList *list
	for _, o := range p.Facts.Owners {
		l := examine(p, o)
		switch o.Kind {
		case semantic.OwnerDefaults:
			if defaults == nil && o.TopLevel {
				defaults, defaultsList = o, l
			}
			checkCaps(p, o.Label, l.tools, l.static && l.toolsField != nil, l.capsField, l.caps, l.capsStatic)
		case semantic.OwnerAgent:
			tools, toolsStatic := l.tools, l.static && l.toolsField != nil
			capsField, caps, capsStatic := l.capsField, l.caps, l.capsStatic
			if defaults != nil && defaults.Node.Pos().Start < o.Node.Pos().Start {
				if l.toolsField == nil {
					tools, toolsStatic = defaultsList.tools, defaultsList.static && defaultsList.toolsField != nil
				}
				if l.capsField == nil {
					capsField, caps, capsStatic = defaultsList.capsField, defaultsList.caps, defaultsList.capsStatic
				}
			}
			at := (*ast.Span)(nil)
			if capsField != l.capsField {
				// Inherited: report at the agent, pointing at the defaults.
				sp := ownerSpan(o)
				at = &sp
			}
			checkCapsAt(p, o.Label, tools, toolsStatic, capsField, caps, capsStatic, at)
		default:
			checkCaps(p, o.Label, l.tools, l.static && l.toolsField != nil, l.capsField, l.caps, l.capsStatic)
		}
	}
}

// examine reports the problems of an owner's tools list and returns what
// is statically known about it.
func examine(p *analysis.Pass, o *semantic.Owner) *list {
	l := &list{static: true}
	if o.Table == nil {
		return l
	}
	for _, key := range []string{"capabilities", "caps"} {
		if f := o.Table.Lookup(key); f != nil {
			l.capsField = f
			l.caps, l.capsStatic = semantic.StringList(f.Value)
			break
		}
	}
	f := o.Table.Lookup("tools")
	if f == nil {
		return l
	}
	l.toolsField = f
	elems, ok := f.Value.(*ast.ListExpr)
	if !ok {
		l.static = false
		return l
	}
	seen := map[string]bool{}
	for _, el := range elems.Elems {
		id, isIdent := el.(*ast.Ident)
		if isIdent {
			if seen[id.Name] {
				d := p.Diag(diagnostics.SourceInvariant, code, id.Span, "%s tools list includes duplicate tool %q", o.Label, id.Name)
				d.Help = "list each tool once"
				d.Fixes = append(d.Fixes, removeElement(p, elems, el))
				p.Report(d)
				continue
			}
			seen[id.Name] = true
			if p.Facts.Uses[id] == nil && p.Facts.Globals[id] == nil {
				d := p.Diag(diagnostics.SourceInvariant, code, id.Span, "%s tools list references undeclared tool or agent %q", o.Label, id.Name)
				if s := names.Suggest(id.Name, toolNames(p)); s != "" {
					d.Message += fmt.Sprintf("; did you mean %s?", s)
					d.Fixes = append(d.Fixes, diagnostics.Fix{Title: "Replace with " + s,
						Edits: []diagnostics.TextEdit{{Span: analysis.Span(id.Span), NewText: s}}})
				} else {
					d.Help = "declare the tool (name := tool { name: ..., fn: ... }) before listing it"
				}
				p.Report(d)
				l.static = false
				continue
			}
		}
		switch p.Facts.KindOf(el) {
		case semantic.ToolValue:
			if t := p.Facts.ToolOf(el); t != nil {
				l.tools = append(l.tools, t)
				if !t.RequiresKnown {
					l.static = false
				}
			} else {
				l.static = false
			}
		case semantic.AgentValue:
			// An agent listed as a tool requires nothing by itself.
		case semantic.LiteralValue, semantic.TableValue:
			d := p.Diag(diagnostics.SourceInvariant, code, el.Pos(), "%s tools list includes %s, which is not a tool or agent", o.Label, p.Text(el.Pos()))
			d.Help = "list tool values (tool { ... }, llm.tool(...)) or agents"
			p.Report(d)
			l.static = false
		default:
			l.static = false
		}
	}
	return l
}

// removeElement deletes el (and the separator after it) from a list.
func removeElement(p *analysis.Pass, l *ast.ListExpr, el ast.Expr) diagnostics.Fix {
	start, end := el.Pos().Start, el.Pos().End
	for i, e := range l.Elems {
		if e == el && i > 0 {
			start = l.Elems[i-1].Pos().End
			break
		}
	}
	return diagnostics.Fix{Title: "Remove the duplicate", Edits: []diagnostics.TextEdit{{Span: diagnostics.Span{Start: start, End: end}, NewText: ""}}}
}

// toolNames lists the names bound to tools and agents, for suggestions.
func toolNames(p *analysis.Pass) []string {
	seen := map[string]bool{}
	var out []string
	for _, b := range p.Facts.Bindings {
		if seen[b.Name] || b.Ident == nil {
			continue
		}
		if b.Kind != semantic.ToolDecl && b.Kind != semantic.AgentDecl {
			if b.Value == nil {
				continue
			}
			switch p.Facts.KindOf(b.Value) {
			case semantic.ToolValue, semantic.AgentValue:
			default:
				continue
			}
		}
		seen[b.Name] = true
		out = append(out, b.Name)
	}
	sort.Strings(out)
	return out
}

// ownerSpan is where to report about an owner: the name of a legacy
// agent, else the first line of the construct.
func ownerSpan(o *semantic.Owner) ast.Span {
	if d, ok := o.Node.(*ast.AgentDecl); ok && d.Name != nil {
		return d.Name.Span
	}
	sp := o.Node.Pos()
	return ast.Span{Start: sp.Start, End: min(sp.End, sp.Start+5)}
}

// checkCaps reports every capability the tools require that caps does
// not allow, once each, when both lists are static.
func checkCaps(p *analysis.Pass, owner string, tools []*semantic.Tool, toolsStatic bool, capsField *ast.TableField, caps []semantic.Capability, capsStatic bool) {
	checkCapsAt(p, owner, tools, toolsStatic, capsField, caps, capsStatic, nil)
}

// checkCapsAt is checkCaps reporting at at (when not nil) instead of the
// capabilities list, which then is a related span.
func checkCapsAt(p *analysis.Pass, owner string, tools []*semantic.Tool, toolsStatic bool, capsField *ast.TableField, caps []semantic.Capability, capsStatic bool, at *ast.Span) {
	if !toolsStatic || capsField == nil || !capsStatic {
		return
	}
	allowed := map[string]bool{}
	for _, c := range caps {
		switch c.Name {
		case "all", "cap.all", "*":
			return
		}
		allowed[c.Name] = true
	}
	reported := map[string]bool{}
	for _, t := range tools {
		for _, req := range t.Requires {
			switch req.Name {
			case "", "none", "cap.none":
				continue
			}
			if allowed[req.Name] || reported[req.Name] {
				continue
			}
			reported[req.Name] = true
			span := capsField.Value.Pos()
			if at != nil {
				span = *at
			}
			d := p.Diag(diagnostics.SourceInvariant, code, span, "%s capabilities missing required capability %q", owner, req.Name)
			if at != nil {
				d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(capsField.Value.Pos()), Message: "capabilities taken from agent defaults here"})
			}
			tool := "a listed tool"
			if t.NameKnown {
				tool = "tool " + t.Name
			}
			d.Related = append(d.Related, diagnostics.Related{Span: analysis.Span(req.Span), Message: tool + " requires it"})
			d.Help = fmt.Sprintf("add %q to the capabilities, or remove the tool that needs it", req.Name)
			p.Report(d)
		}
	}
}
