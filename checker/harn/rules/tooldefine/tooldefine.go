package tooldefine

import (
	_ "embed"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/tooldef"
)

const code = "HARN-STD-004"

//go:embed doc.go
var doc string

// Rule is the tooldefine rule.
var Rule = &analysis.Rule{
	Name:  "tooldefine",
	Doc:   analysis.ExtractDoc(doc, "tooldefine"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, c := range p.Facts.Calls {
		if c.Name != "tool_define" || !c.Builtin || c.Node == nil || len(c.Node.Args) != 4 {
			continue
		}
		cfg, ok := ast.Unparen(c.Node.Args[3]).(*ast.DictLit)
		if !ok {
			continue
		}
		fields, entries, ok := literalEntries(cfg)
		if !ok {
			continue
		}
		name := "?"
		if s, ok := ast.Unparen(c.Node.Args[1]).(*ast.StringLit); ok {
			if v, ok := s.Value(); ok {
				name = v
			}
		}
		msg, key := tooldef.Problem(name, func(key string) tooldef.Field { return fields[key] })
		if msg != "" {
			span := cfg.Span
			if at := entries[key]; at != nil {
				span = at.Span
			}
			d := p.Diag(diagnostics.SourceType, code, span, "tool_define: %s", msg)
			d.Help = "pick one executor: a handler (executor \"harn\"), host_bridge + host_capability, mcp_server + mcp_server, or provider_native"
			p.Report(d)
		}
	}
}

// literalEntries reads a config literal whose keys are all written out
// (a spread or computed key makes its content uncertain): what each
// value is known to be, and the entry that holds it.
func literalEntries(d *ast.DictLit) (map[string]tooldef.Field, map[string]*ast.DictEntry, bool) {
	fields, entries := map[string]tooldef.Field{}, map[string]*ast.DictEntry{}
	for _, en := range d.Entries {
		key := ""
		switch {
		case en.Spread || en.Computed != nil:
			return nil, nil, false
		case en.Name != nil:
			key = en.Name.Name
		case en.StringKey != nil:
			k, ok := en.StringKey.Value()
			if !ok {
				return nil, nil, false
			}
			key = k
		}
		f := tooldef.Field{Present: true, Set: true}
		switch v := ast.Unparen(en.Value).(type) {
		case *ast.StringLit:
			f.Str, f.IsString = v.Value()
			f.Known = f.IsString
		case *ast.NilLit:
			f = tooldef.Field{Present: true}
		}
		fields[key], entries[key] = f, en
	}
	return fields, entries, true
}
