package leia

import (
	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/grammar/leia/binding"
	"github.com/harnlang/harn-check/lang/leia/semantic"
)

// Options configure a check.
type Options struct {
	// Host serves files and compilers the rules need; nil means none.
	Host *analysis.Host
	// Rules restricts the rules run (nil: Rules).
	Rules []*analysis.Rule
	// Parsed, when set, is the file already parsed and lowered (an editor
	// keeps an incrementally reparsed tree). It must be what binding.Parse
	// returns for the same path and src.
	Parsed *Parsed
}

// Parsed is a file's syntax tree and syntax diagnostics, as binding.Parse
// returns them.
type Parsed struct {
	File   *ast.File
	Syntax []diagnostics.Diagnostic
}

// Result is the outcome of checking one file.
type Result struct {
	// Diagnostics are about the checked file, sorted.
	Diagnostics []diagnostics.Diagnostic
	// File is the syntax tree; Facts what the analysis learnt.
	File  *ast.File
	Facts *semantic.Facts
}

// Check checks the file at path with content src.
func Check(path string, src []byte, opts Options) *Result {
	var file *ast.File
	var diags []diagnostics.Diagnostic
	if opts.Parsed != nil {
		file, diags = opts.Parsed.File, append([]diagnostics.Diagnostic(nil), opts.Parsed.Syntax...)
	} else {
		file, diags = binding.Parse(path, src)
	}
	facts := semantic.Compute(file)
	rules := opts.Rules
	if rules == nil {
		rules = Rules
	}
	analysis.RunRules(rules, path, src, file, facts, opts.Host, func(d diagnostics.Diagnostic) { diags = append(diags, d) })
	diagnostics.Sort(diags)
	return &Result{Diagnostics: diags, File: file, Facts: facts}
}

// Checker checks one Leia file with chosen rules and no host (no
// validator is read or compiled): the fixture harness (analysistest) and
// other tests use it. Syntax errors (LEIA1001) are always compared.
var Checker = CheckerWith(nil)

// CheckerWith is Checker with a host serving validators and the go:
// allow-list.
func CheckerWith(host *analysis.Host) analysis.Checker {
	return analysis.Checker{
		Language: "Leia",
		Ext:      ".leia",
		Check: func(path string, src []byte, rules []*analysis.Rule) []diagnostics.Diagnostic {
			opts := Options{Host: host}
			if len(rules) > 0 {
				opts.Rules = rules
			}
			return Check(path, src, opts).Diagnostics
		},
		Always: func(code string) bool { return code == "LEIA1001" },
	}
}
