package agents

import (
	_ "embed"
	"strings"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

const code = "LEIA3003"

//go:embed doc.go
var doc string

// Rule is the agents rule.
var Rule = &analysis.Rule{
	Name:  "agents",
	Doc:   analysis.ExtractDoc(doc, "agents"),
	Codes: []string{code},
	Run:   run,
}

// metadata are agent fields that send nothing to a model by themselves.
var metadata = map[string]bool{"name": true, "params": true, "description": true, "output": true, "validator": true, "on_validator_error": true}

func run(p *analysis.Pass) {
	for _, a := range p.Facts.Agents {
		switch n := a.Node.(type) {
		case *ast.AgentExpr:
			if n.Form == ast.FormCurrent {
				current(p, n)
			}
		case *ast.CallExpr:
			if len(n.Args) > 0 {
				name(p, n.Args[0])
			}
			if len(n.Args) > 1 {
				function(p, n.Args[1], "config")
			}
			if len(n.Args) > 2 {
				if _, isNil := n.Args[2].(*ast.NilLit); !isNil {
					function(p, n.Args[2], "flow")
				}
			}
		}
	}
}

func current(p *analysis.Pass, n *ast.AgentExpr) {
	cfg := n.Config
	if cfg == nil {
		return
	}
	for _, f := range cfg.Fields {
		if f.Kind == ast.FieldPositional || f.Kind == ast.FieldComputed {
			return
		}
	}
	head := ast.Span{Start: n.Start, End: min(n.End, n.Start+len("agent"))}
	if f := cfg.Lookup("name"); f == nil {
		d := p.Diag(diagnostics.SourceInvariant, code, head, "agent dialect requires string field name")
		d.Help = `add name: "the_agent" (it names the agent in traces and when it is used as a tool)`
		p.Report(d)
	} else {
		name(p, f.Value)
	}
	runnable := false
	for _, key := range []string{"config", "flow"} {
		if f := cfg.Lookup(key); f != nil {
			runnable = true
			function(p, f.Value, key)
		}
	}
	for _, f := range cfg.Fields {
		if !metadata[f.Name] && f.Name != "config" && f.Name != "flow" {
			runnable = true
		}
	}
	if !runnable {
		d := p.Diag(diagnostics.SourceInvariant, code, head, "agent has nothing to run: give it a config function, a flow, or request fields")
		d.Help = "add config: func(question) { return {model: ..., user: question}, nil }, or request fields such as model and instructions"
		p.Report(d)
	}
}

func name(p *analysis.Pass, e ast.Expr) {
	switch v := e.(type) {
	case *ast.StringLit:
		if s, ok := v.Value(); ok && strings.TrimSpace(s) == "" {
			p.Report(p.Diag(diagnostics.SourceInvariant, code, v.Span, "agent name must not be empty"))
		}
	case *ast.IntLit, *ast.FloatLit, *ast.BoolLit, *ast.NilLit, *ast.TableExpr, *ast.ListExpr, *ast.FuncLit:
		d := p.Diag(diagnostics.SourceInvariant, code, e.Pos(), "agent name must be a string")
		d.Help = `write the name as a string: name: "reviewer"`
		p.Report(d)
	}
}

func function(p *analysis.Pass, e ast.Expr, what string) {
	switch p.Facts.KindOf(e) {
	case semantic.LiteralValue, semantic.TableValue, semantic.ToolValue, semantic.AgentValue:
		d := p.Diag(diagnostics.SourceInvariant, code, e.Pos(), "agent %s must be a function", what)
		if what == "config" {
			d.Help = "config: func(args) { return {request fields}, nil }"
		} else {
			d.Help = "flow: func(args) { ... llm.turn(...) ... }"
		}
		p.Report(d)
	}
}
