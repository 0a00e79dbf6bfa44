package tools

import (
	_ "embed"
	"strings"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

const (
	codeContract   = "LEIA3001"
	codeDescriptor = "LEIA3002"
)

//go:embed doc.go
var doc string

// Rule is the tools rule.
var Rule = &analysis.Rule{
	Name:  "tools",
	Doc:   analysis.ExtractDoc(doc, "tools"),
	Codes: []string{codeContract, codeDescriptor},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, t := range p.Facts.Tools {
		if t.Decl != nil {
			legacy(p, t.Decl)
			continue
		}
		descriptor(p, t)
		if t.Fields != nil {
			for _, key := range []string{"requires", "capabilities"} {
				if f := t.Fields.Lookup(key); f != nil {
					if caps, ok := semantic.StringList(f.Value); ok {
						capabilities(p, toolLabel(t), "", caps)
					}
					break
				}
			}
		}
	}
}

func toolLabel(t *semantic.Tool) string {
	if t.NameKnown {
		return "tool " + t.Name
	}
	return "tool"
}

// ValidCapability reports whether c is a capability label a legacy
// requires directive accepts: none, all, or dot-separated names of
// letters, digits and `_` not starting with a digit.
func ValidCapability(c string) bool { return validLabel(c, false) }

// ValidRequiresLabel reports whether c is a capability label of a tool's
// requires: list (tool {} blocks, llm.tool): as ValidCapability, and a
// name may also contain `-` after its first character, as upstream's
// runtime takes any label and its programs write network.web.sec-download.
func ValidRequiresLabel(c string) bool { return validLabel(c, true) }

func validLabel(c string, dash bool) bool {
	if c == "none" || c == "all" {
		return true
	}
	if c == "" {
		return false
	}
	for _, part := range strings.Split(c, ".") {
		if part == "" || !(isLetter(part[0]) || part[0] == '_') {
			return false
		}
		for i := 1; i < len(part); i++ {
			if !(isLetter(part[i]) || part[i] == '_' || part[i] >= '0' && part[i] <= '9' || dash && part[i] == '-') {
				return false
			}
		}
	}
	return true
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// capabilities checks one list of capability labels; directive names the
// directive for messages ("" for a requires: list).
func capabilities(p *analysis.Pass, owner, directive string, caps []semantic.Capability) {
	what := "requires capability"
	if directive != "" {
		what = directive + " capability"
	}
	seen := map[string]bool{}
	var none *semantic.Capability
	for i, c := range caps {
		if valid := ValidCapability(c.Name) || directive == "" && ValidRequiresLabel(c.Name); !valid {
			d := p.Diag(diagnostics.SourceInvariant, codeContract, c.Span, "%s has invalid %s %q", owner, what, c.Name)
			d.Help = "a capability is none, all, or dot-separated names such as docs.read or net.client"
			p.Report(d)
			continue
		}
		if seen[c.Name] {
			d := p.Diag(diagnostics.SourceInvariant, codeContract, c.Span, "%s has duplicate %s %q", owner, what, c.Name)
			d.Help = "list each capability once"
			p.Report(d)
			continue
		}
		seen[c.Name] = true
		if c.Name == "none" {
			none = &caps[i]
		}
	}
	if none != nil && len(seen) > 1 {
		req := "requires"
		if directive != "" {
			req = directive
		}
		d := p.Diag(diagnostics.SourceInvariant, codeContract, none.Span, "%s uses %s none with other capabilities", owner, req)
		d.Help = "none means the tool needs no capability; remove it or the others"
		p.Report(d)
	}
}

func legacy(p *analysis.Pass, t *ast.ToolDecl) {
	if t.Name == nil {
		return
	}
	owner := "tool " + t.Name.Name
	var caps []semantic.Capability
	prefix := "leia"
	found := false
	for _, d := range t.Directives {
		if d.Kind != "requires" {
			continue
		}
		found = true
		prefix = d.Prefix
		if len(d.Args) == 0 {
			caps = append(caps, semantic.Capability{Name: "", Span: d.Span})
		}
		text := p.Text(d.Span)
		from := strings.Index(text, d.Kind) + len(d.Kind)
		for _, a := range d.Args {
			span := d.Span
			if i := strings.Index(text[from:], a); from >= len(d.Kind) && i >= 0 {
				span = ast.Span{Start: d.Start + from + i, End: d.Start + from + i + len(a)}
				from += i + len(a)
			}
			caps = append(caps, semantic.Capability{Name: a, Span: span})
		}
	}
	if !found {
		d := p.Diag(diagnostics.SourceInvariant, codeContract, t.Name.Span, "%s missing //leia:requires directive", owner)
		d.Help = "write //leia:requires followed by the capabilities it needs (or none) on the line directly above the tool"
		p.Report(d)
	} else {
		capabilities(p, owner, prefix+":requires", caps)
	}
	params := map[string]bool{}
	if t.Params != nil {
		for _, id := range t.Params.Names {
			if id != nil && id.Name != "..." {
				params[id.Name] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, pd := range t.ParamDocs {
		span := t.Name.Span
		if pd.Directive != nil {
			span = pd.Directive.Span
		}
		switch {
		case !params[pd.Name]:
			d := p.Diag(diagnostics.SourceInvariant, codeContract, span, "%s has %s:param for unknown parameter %q", owner, pd.Directive.Prefix, pd.Name)
			d.Help = "document one of the tool's parameters, or remove the line"
			p.Report(d)
		case seen[pd.Name]:
			d := p.Diag(diagnostics.SourceInvariant, codeContract, span, "%s has duplicate %s:param for %q", owner, pd.Directive.Prefix, pd.Name)
			d.Help = "document each parameter once"
			p.Report(d)
		}
		seen[pd.Name] = true
	}
}

// descriptor checks the name and function of a table-style tool.
func descriptor(p *analysis.Pass, t *semantic.Tool) {
	var name, fn ast.Expr
	var where ast.Span
	call, isCall := t.Node.(*ast.CallExpr)
	if isCall {
		if len(call.Args) > 0 {
			name = call.Args[0]
		}
		if len(call.Args) > 1 {
			fn = call.Args[1]
		}
		where = call.Span
	} else {
		if t.Fields == nil {
			return
		}
		for _, f := range t.Fields.Fields {
			if f.Kind == ast.FieldPositional || f.Kind == ast.FieldComputed {
				// Entries we cannot name: the runtime decides.
				return
			}
		}
		if f := t.Fields.Lookup("name"); f != nil {
			name = f.Value
		} else {
			d := p.Diag(diagnostics.SourceInvariant, codeDescriptor, t.Node.Pos(), "tool dialect requires string field name")
			d.Help = `add name: "the_tool_name" (the name the model calls it by)`
			p.Report(d)
		}
		if f := t.Fields.Lookup("fn"); f != nil {
			fn = f.Value
		} else {
			d := p.Diag(diagnostics.SourceInvariant, codeDescriptor, t.Node.Pos(), "tool dialect requires function field fn")
			d.Help = "add fn: func(args) { ... return value, nil }"
			p.Report(d)
		}
		where = t.Node.Pos()
	}
	_ = where
	if name != nil {
		switch v := name.(type) {
		case *ast.StringLit:
			if s, ok := v.Value(); ok && strings.TrimSpace(s) == "" {
				p.Report(p.Diag(diagnostics.SourceInvariant, codeDescriptor, v.Span, "tool name must not be empty"))
			}
		default:
			if p.Facts.KindOf(name) != semantic.UnknownValue && p.Facts.KindOf(name) != semantic.LiteralValue || isNonString(name) {
				d := p.Diag(diagnostics.SourceInvariant, codeDescriptor, name.Pos(), "tool name must be a string, not %s", describe(p, name))
				d.Help = `write the name as a string: name: "lookup"`
				p.Report(d)
			}
		}
	}
	if fn != nil {
		switch k := p.Facts.KindOf(fn); k {
		case semantic.LiteralValue, semantic.TableValue, semantic.ToolValue, semantic.AgentValue:
			d := p.Diag(diagnostics.SourceInvariant, codeDescriptor, fn.Pos(), "tool fn must be a function, not %s", describe(p, fn))
			d.Help = "give the function that runs the tool: fn: func(args) { ... }"
			p.Report(d)
		}
	}
}

// isNonString reports a literal that is not a string.
func isNonString(e ast.Expr) bool {
	switch e.(type) {
	case *ast.IntLit, *ast.FloatLit, *ast.BoolLit, *ast.NilLit, *ast.TableExpr, *ast.ListExpr, *ast.FuncLit:
		return true
	}
	return false
}

func describe(p *analysis.Pass, e ast.Expr) string {
	switch p.Facts.KindOf(e) {
	case semantic.ToolValue:
		return "a tool"
	case semantic.AgentValue:
		return "an agent"
	case semantic.FunctionValue:
		return "a function"
	case semantic.TableValue:
		return "a table"
	}
	switch e.(type) {
	case *ast.StringLit:
		return "a string"
	case *ast.IntLit, *ast.FloatLit:
		return "a number"
	case *ast.BoolLit:
		return "a boolean"
	case *ast.NilLit:
		return "nil"
	}
	return "`" + p.Text(e.Pos()) + "`"
}
