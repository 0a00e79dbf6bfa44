package unnarrowed

import (
	_ "embed"

	"fmt"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lang/harn/types"
)

const code = "HARN-TYP-034"

//go:embed doc.go
var doc string

// Rule is the unnarrowed rule.
var Rule = &analysis.Rule{
	Name:  "unnarrowed",
	Doc:   analysis.ExtractDoc(doc, "unnarrowed"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, r := range p.Facts.Reads {
		if stdlib.IsRequestAnswer(r.Recv) {
			answer(p, r)
			continue
		}
		if !stdlib.IsOutcome(r.Recv) {
			continue
		}
		recv := types.StripNil(r.Recv)
		x := "o"
		if r.X != nil {
			x = p.Text(r.X.Pos())
		}
		if r.Dynamic {
			d := p.Diag(diagnostics.SourceType, code, r.Span, "a dynamic index into an evaluation outcome cannot be checked; read its fields by name after narrowing")
			d.Help = scaffold(x, recv, "")
			p.Report(d)
			continue
		}
		_, pres := types.FieldOf(recv, r.Field, false)
		if pres == types.FieldAll {
			continue
		}
		have := kindsWith(recv, r.Field)
		var msg string
		if len(have) == 0 {
			msg = fmt.Sprintf("no variant of %s has a field %s (outcomes it can still be: %s)", x, r.Field, strings.Join(kinds(recv), ", "))
		} else {
			msg = fmt.Sprintf("%s.%s is read before %s is narrowed: only the %s variant%s ha%s %s", x, r.Field, x, strings.Join(have, ", "), plural(len(have)), verb(len(have)), r.Field)
		}
		d := p.Diag(diagnostics.SourceType, code, r.Span, "%s", msg)
		d.Help = scaffold(x, recv, r.Field)
		if fix, ok := wrapFix(p, r, x, have); ok {
			d.Fixes = []diagnostics.Fix{fix}
		}
		p.Report(d)
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func verb(n int) string {
	if n == 1 {
		return "s"
	}
	return "ve"
}

func kinds(t types.Type) []string {
	var out []string
	tags, _ := types.TagValues(t, "kind")
	for _, l := range tags {
		out = append(out, fmt.Sprintf("%q", l.Value))
	}
	return out
}

func kindsWith(t types.Type, field string) []string {
	var out []string
	for _, m := range types.Members(t) {
		if _, p := types.FieldOf(m, field, false); p != types.FieldAll {
			continue
		}
		if kt, p := types.FieldOf(m, "kind", false); p == types.FieldAll {
			if l, ok := types.Unalias(kt).(*types.Literal); ok {
				out = append(out, fmt.Sprintf("%q", l.Value))
			}
		}
	}
	return out
}

// wrapFix wraps the statement holding the read in a match on the kind,
// with the read in the arm of the first variant that has the field and a
// catch-all arm to fill in.
func wrapFix(p *analysis.Pass, r analysis.Read, x string, have []string) (diagnostics.Fix, bool) {
	st := r.Stmt
	if len(have) == 0 || st.End <= st.Start || st.End > len(p.Src) || !isIdent(x) {
		return diagnostics.Fix{}, false
	}
	lineStart := st.Start
	for lineStart > 0 && p.Src[lineStart-1] != '\n' && p.Src[lineStart-1] != '\r' {
		lineStart--
	}
	indent := string(p.Src[lineStart:st.Start])
	if strings.TrimLeft(indent, " \t") != "" {
		return diagnostics.Fix{}, false
	}
	body := strings.ReplaceAll(p.Text(st), "\n", "\n    ")
	var b strings.Builder
	fmt.Fprintf(&b, "match %s.kind {\n%s  %s -> {\n%s    %s\n%s  }\n%s  _ -> { }\n%s}", x, indent, have[0], indent, body, indent, indent, indent)
	return diagnostics.Fix{
		Title: fmt.Sprintf("Wrap in match %s.kind", x),
		Edits: []diagnostics.TextEdit{{Span: analysis.Span(st), NewText: b.String()}},
	}, true
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z') && !(r >= 'A' && r <= 'Z') && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// scaffold suggests the match that narrows x before the read.
func scaffold(x string, t types.Type, field string) string {
	arm := `"answered"`
	if have := kindsWith(t, field); field != "" && len(have) > 0 {
		arm = have[0]
	} else if ks := kinds(t); len(ks) > 0 {
		arm = ks[0]
	}
	return fmt.Sprintf("narrow first: match %s.kind { %s -> { ... %s.%s ... } _ -> { ... } }", x, arm, x, field)
}

// answer reports a read of a field only some kinds of answer have (an
// evaluate_request answer's choice, level or verdict) before the answer's
// kind is matched. A field no answer has is the properties rule's.
func answer(p *analysis.Pass, r analysis.Read) {
	if r.Dynamic {
		return
	}
	recv := types.StripNil(r.Recv)
	if _, pres := types.FieldOf(recv, r.Field, false); pres == types.FieldAll {
		return
	}
	have := kindsWith(recv, r.Field)
	if len(have) == 0 {
		return
	}
	x := "a"
	if r.X != nil {
		x = p.Text(r.X.Pos())
	}
	d := p.Diag(diagnostics.SourceType, code, r.Span, "%s.%s is read before the answer %s is narrowed: only the %s answer%s ha%s %s", x, r.Field, x, strings.Join(have, ", "), plural(len(have)), verb(len(have)), r.Field)
	d.Help = fmt.Sprintf("runtime vocabulary answers are the generic EvaluationAnswer union; narrow first: match %s.kind { %s -> { ... %s.%s ... } _ -> { ... } }", x, have[0], x, r.Field)
	if fix, ok := wrapFix(p, r, x, have); ok {
		d.Fixes = []diagnostics.Fix{fix}
	}
	p.Report(d)
}
