package argtypes

import (
	_ "embed"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lang/leia/semantic"
	"github.com/harnlang/harn-check/lang/leia/stdlib"
)

const code = "LEIA4013"

//go:embed doc.go
var doc string

// Rule is the argtypes rule.
var Rule = &analysis.Rule{
	Name:  "argtypes",
	Doc:   analysis.ExtractDoc(doc, "argtypes"),
	Codes: []string{code},
	Run:   run,
}

func run(p *analysis.Pass) {
	for _, c := range p.Facts.Calls {
		e := c.Entry
		if e == nil || e.Kind != stdlib.Function || e.Unknown {
			continue
		}
		for i, arg := range c.Node.Args {
			if i >= len(e.Params) {
				break
			}
			// A last argument that is a call stands for all its results:
			// only the first, at this position, is known.
			par := e.Params[i]
			got := p.Facts.TypeOf(arg)
			if got.Kind == semantic.UnknownKind {
				continue
			}
			if why := mismatch(par, got); why != "" {
				d := p.Diag(diagnostics.SourceType, code, arg.Pos(), "argument %d of %s is %s, want %s%s", i+1, e.Name, describe(got), par.Type, why)
				d.Help = "signature: " + e.Signature()
				p.Report(d)
			}
		}
	}
}

// kindNames describe the kinds in messages.
var kindNames = [...]string{"unknown", "a string", "a number", "a boolean", "nil", "a table", "a function"}

// valueType is an argument's static type (semantic.Facts.TypeOf).
type valueType = semantic.StaticType

func describe(v valueType) string {
	switch {
	case v.Lit && v.Kind == semantic.StringKind:
		return "the string " + strconv.Quote(v.Text)
	case v.Kind == semantic.NumberKind && v.Frac:
		return "a number with a fraction"
	}
	return kindNames[v.Kind]
}

// mismatch says why a value of type got cannot be passed for par ("" when
// it can, or when the checker cannot tell).
func mismatch(par stdlib.Param, got valueType) string {
	t := strings.TrimSpace(par.Type)
	nullable := strings.HasSuffix(t, "?")
	t = strings.TrimSuffix(t, "?")
	if got.Kind == semantic.NilKind {
		if par.Optional || par.Variadic || nullable {
			return ""
		}
	}
	var why string
	for _, alt := range strings.Split(t, "|") {
		r, tracked := accepts(strings.TrimSpace(alt), got)
		if !tracked || r == "" {
			return ""
		}
		why = r
	}
	return why
}

// accepts reports whether a parameter of the simple type want takes got:
// "" when it does, the reason when it does not; tracked is false for
// types the checker does not know (any, channel, file, ...).
func accepts(want string, got valueType) (reason string, tracked bool) {
	switch want {
	case "string":
		switch got.Kind {
		case semantic.StringKind, semantic.NumberKind:
			return "", true
		}
		return " (the runtime raises \"bad argument\")", true
	case "number", "integer":
		switch got.Kind {
		case semantic.NumberKind:
			if want == "integer" && got.Frac {
				return " (it has no integer representation)", true
			}
			return "", true
		case semantic.StringKind:
			if !got.Lit {
				return "", true
			}
			n, ok := parseNumber(got.Text)
			if !ok {
				return " (it does not read as a number)", true
			}
			if want == "integer" && n != float64(int64(n)) {
				return " (it has no integer representation)", true
			}
			return "", true
		}
		return " (the runtime raises \"bad argument\")", true
	case "table":
		if got.Kind == semantic.TableKind {
			return "", true
		}
		return " (the runtime raises \"bad argument\")", true
	case "function":
		if got.Kind == semantic.FunctionKind {
			return "", true
		}
		return " (the runtime raises \"bad argument\")", true
	}
	return "", false
}

func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(s, 0, 64); err == nil {
		return float64(n), true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}
