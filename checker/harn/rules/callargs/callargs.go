package callargs

import (
	_ "embed"

	"strconv"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/internal/suggest"
	"github.com/harnlang/harn-check/lang/harn/builtins"
	"github.com/harnlang/harn-check/lang/harn/types"
)

const (
	codeCount = "HARN-STD-003"
	codeType  = "HARN-TYP-006"
)

//go:embed doc.go
var doc string

// Rule is the callargs rule.
var Rule = &analysis.Rule{
	Name:  "callargs",
	Doc:   analysis.ExtractDoc(doc, "callargs"),
	Codes: []string{codeCount, codeType},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, c := range p.Facts.Calls {
		check(p, c)
	}
	// A policy passed to a helper whose site uses it is judged here too.
	for _, pp := range p.Facts.PolicyPasses {
		if d, bad := backendProblem(p, pp.Policy, "the policy passed to "+pp.Callee, backendSpan(pp.Arg)); bad {
			p.Report(d)
		}
	}
}

func check(p *analysis.Pass, c analysis.Call) {
	spread := false
	for _, a := range c.Node.Args {
		if _, ok := a.(*ast.Spread); ok {
			spread = true
		}
	}
	required, max := 0, len(c.Sig.Params)
	for _, prm := range c.Sig.Params {
		if !prm.Optional {
			required++
		}
	}
	if c.Sig.Variadic {
		max = -1
	}
	n := len(c.Node.Args)
	if !spread && (n < required || (max >= 0 && n > max)) {
		want := ""
		switch {
		case max < 0:
			want = plural(required, "at least %d argument")
		case required == max:
			want = plural(required, "%d argument")
		default:
			want = plural(max, "%d to %d argument", required)
		}
		d := p.Diag(diagnostics.SourceType, codeCount, c.Node.Span, "%s takes %s, but %d %s given", c.Name, want, n, were(n))
		if c.DeclSpan != nil {
			d.Related = []diagnostics.Related{{Span: analysis.Span(*c.DeclSpan), Message: c.Name + " declared here"}}
		}
		d.Help = "pass " + want + " (" + paramList(c.Sig) + ")"
		p.Report(d)
		return
	}
	if spread {
		return
	}
	if strings.HasPrefix(c.Name, "llm.") {
		// Evaluation-site arguments are judged by the site rules
		// (HARN-TYP-030, 033, 035, 036), except the policy's shape.
		checkPolicy(p, c)
		return
	}
	for i, at := range c.Args {
		if i >= len(c.Sig.Params) || at == nil {
			break
		}
		pt := c.Sig.Params[i].Type
		if c.Builtin && (c.Method || builtins.Lookup(c.Name) != nil) && !types.IsBasic(at, types.Nil) {
			// The standard library takes nil for a missing value almost
			// everywhere; only a certain nil is reported.
			at = types.StripNil(at)
		}
		if types.IsGradual(at) || analysis.ContainsGradual(at) {
			continue
		}
		if _, isFn := types.Unalias(at).(*types.Func); isFn {
			continue
		}
		if types.Assignable(at, pt) {
			continue
		}
		// Upstream Harn's words; a literal argument is named by its type.
		d := p.Diag(diagnostics.SourceType, codeType, c.Node.Args[i].Pos(), "Argument %d ('%s'): expected %s, got %s", i+1, c.Sig.Params[i].Name, types.Describe(pt), types.Describe(types.Widen(at)))
		if c.DeclSpan != nil {
			d.Related = []diagnostics.Related{{Span: analysis.Span(*c.DeclSpan), Message: c.Name + " declared here"}}
		}
		d.Help = "pass a value of type " + types.Describe(pt) + " as " + c.Sig.Params[i].Name + " of " + c.Name
		p.Report(d)
	}
}

func were(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

func plural(n int, format string, args ...any) string {
	s := format
	if n != 1 {
		s += "s"
	}
	return sprintf(s, append(args, n)...)
}

func paramList(f *types.Func) string {
	out := ""
	for i, prm := range f.Params {
		if i > 0 {
			out += ", "
		}
		out += prm.Name
		if prm.Optional {
			out += "?"
		}
		out += ": " + types.Describe(prm.Type)
	}
	return out
}

// checkPolicy compares a record-typed policy argument of an evaluation
// call with EvaluationPolicy field by field: the runtime refuses unknown
// fields, and a missing provider or model leaves no route to check.
func checkPolicy(p *analysis.Pass, c analysis.Call) {
	if len(c.Node.Args) < 4 || len(c.Args) < 4 || c.Args[3] == nil {
		return
	}
	if checkBackend(p, c) {
		return
	}
	rec, ok := types.Unalias(c.Args[3]).(*types.Record)
	if !ok || rec.Open {
		return
	}
	want, ok := types.Unalias(stdlib.Predicate().Types["EvaluationPolicy"]).(*types.Record)
	if !ok {
		return
	}
	arg := c.Node.Args[3]
	var names []string
	for _, f := range want.Fields {
		names = append(names, f.Name)
	}
	for _, f := range rec.Fields {
		if _, ok := want.Lookup(f.Name); !ok {
			d := p.Diag(diagnostics.SourceType, codeType, arg.Pos(), "the policy of %s has an unknown field %s; EvaluationPolicy has %s", c.Name, f.Name, strings.Join(names, ", "))
			d.Help = "remove or rename the field; the evaluator refuses policies with unknown fields"
			p.Report(d)
			return
		}
	}
	for _, f := range want.Fields {
		if _, ok := rec.Lookup(f.Name); !ok && !f.Optional {
			d := p.Diag(diagnostics.SourceType, codeType, arg.Pos(), "the policy of %s lacks the required field %s", c.Name, f.Name)
			d.Help = "an EvaluationPolicy needs backend, provider, model and threshold"
			p.Report(d)
			return
		}
	}
	if !types.Assignable(rec, want) && !analysis.ContainsGradual(rec) {
		d := p.Diag(diagnostics.SourceType, codeType, arg.Pos(), "the policy of %s has type %s, which is not assignable to EvaluationPolicy", c.Name, types.Describe(rec))
		d.Help = "backend is \"structured_llm\" or \"native_decision\", provider and model are strings, threshold a float"
		p.Report(d)
	}
}

// checkBackend reports a constant policy whose backend is not one of
// EvaluationPolicy's backends, suggesting the nearest one. A record
// literal's string field is typed string, not its literal, so the record
// comparison alone lets `backend: "magic"` through to run time.
func checkBackend(p *analysis.Pass, c analysis.Call) bool {
	var site *analysis.Site
	for _, s := range p.Facts.Sites {
		if s.Call == c.Node {
			site = s
			break
		}
	}
	if site == nil {
		return false
	}
	if d, bad := backendProblem(p, site.Policy, "the policy of "+c.Name, backendSpan(c.Node.Args[3])); bad {
		p.Report(d)
		site.Reject(codeType)
		return true
	}
	return false
}

// backendProblem judges a constant policy's backend: one that is not
// among EvaluationPolicy's backends is reported, the nearest offered.
func backendProblem(p *analysis.Pass, pol analysis.Policy, what string, span ast.Span) (diagnostics.Diagnostic, bool) {
	if !pol.Const {
		return diagnostics.Diagnostic{}, false
	}
	backend, ok := pol.String("backend")
	if !ok {
		return diagnostics.Diagnostic{}, false
	}
	allowed := Backends()
	for _, b := range allowed {
		if b == backend {
			return diagnostics.Diagnostic{}, false
		}
	}
	quoted := make([]string, len(allowed))
	for i, b := range allowed {
		quoted[i] = strconv.Quote(b)
	}
	d := p.Diag(diagnostics.SourceType, codeType, span, "%s has backend %q; the evaluator accepts only %s", what, backend, strings.Join(quoted, " or "))
	// The set is closed and small: the nearest backend is always offered.
	if near := suggest.Nearest(backend, allowed, len(backend)+len(allowed[0])+len(allowed[len(allowed)-1])); near != "" {
		d.Help = "did you mean `" + near + "`? backend is " + strings.Join(quoted, " or ")
	} else {
		d.Help = "use backend " + strings.Join(quoted, " or ")
	}
	return d, true
}

// Backends lists the backends EvaluationPolicy accepts, read from its
// declared type in std/predicate (the one owner of that union).
func Backends() []string {
	want, ok := types.Unalias(stdlib.Predicate().Types["EvaluationPolicy"]).(*types.Record)
	if !ok {
		return nil
	}
	f, ok := want.Lookup("backend")
	if !ok {
		return nil
	}
	var out []string
	add := func(t types.Type) {
		if l, ok := types.Unalias(t).(*types.Literal); ok {
			if s, ok := l.Value.(string); ok {
				out = append(out, s)
			}
		}
	}
	if u, ok := types.Unalias(f.Type).(*types.Union); ok {
		for _, m := range u.Members {
			add(m)
		}
	} else {
		add(f.Type)
	}
	return out
}

// backendSpan narrows a policy written inline to its backend entry.
func backendSpan(arg ast.Expr) ast.Span {
	if d, ok := arg.(*ast.DictLit); ok {
		for _, en := range d.Entries {
			if en.Name != nil && en.Name.Name == "backend" && en.Value != nil {
				return en.Span
			}
		}
	}
	return arg.Pos()
}
