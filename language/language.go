// Package language defines Language, everything the toolchain knows of
// one language, as one value: its name and file extension, how a file is
// parsed and checked (the driver's facet), how it is formatted, how a
// program runs (the runner's) and what an editor offers for it (the
// language server's).
//
// Each language exports its value (language/harn, language/leia), and
// every binary lists the languages it serves where it is assembled
// (cmd/harn-check, cmd/leia-lsp, a test), the way a go/analysis driver is
// handed its analyzers: no package fills a registry from init, so a test
// passes exactly the languages it needs, fakes included.
//
// Invariants: this package holds the type and its conversions only; it
// knows no language, and no package it imports imports it.
package language

import (
	"context"
	"strings"
	"sync"

	framework "github.com/harnlang/harn-check/checker/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/format"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/runtime/runner"
)

// Language is one language's facets. A nil facet is one the language does
// not offer: a file without Check is reported as not checked
// (HARN-CHK-001), a program without Run cannot run, a document without
// Editor gets no tree and empty editor answers.
type Language struct {
	// Name is the display name ("Harn").
	Name string
	// Extension is the file extension with its dot (".harn").
	Extension string
	// Check analyses one file (driver.Language.Check).
	Check func(req driver.Request) driver.Result
	// Parse prints the syntax tree of a file (driver.Language.Parse).
	Parse func(req driver.Request, sexp bool) (tree string, diags []diagnostics.Diagnostic)
	// Format is the language's formatter (`harn-check fmt`, the editor's
	// formatting requests).
	Format *format.Language
	// Lint describes the language's lint rules to the command line
	// (`harn-check lint --list`, checking --select entries); the check
	// facet runs them (driver.Request.Lint).
	Lint *Lint
	// Run executes a program (runner.Language.Run).
	Run func(ctx context.Context, p runner.Program, env runner.Env) error
	// Editor returns the language's editor facets. It is called when a
	// language server starts, not before (compiling the queries costs
	// time a command-line check should not pay); an error means an
	// embedded query does not fit the compiled grammar, and the server
	// then serves the language without editor features.
	Editor func() (Editor, error)
}

// Lint is what the command line knows of a language's lint rules.
type Lint struct {
	// rules describes the rules, in the language's order, the first time
	// it is called (their titles are read from the rules' docs, which a
	// process running no lint command does not read).
	rules func() []LintRule
	// Unknown returns the selection entries (a rule's name, a code, a
	// code prefix or ALL) that no rule of the language answers to.
	Unknown func(entries []string) []string
}

// LintRule describes one lint rule.
type LintRule struct {
	Name  string
	Codes []string
	// Title is the first line of the rule's documentation.
	Title string
	// OptIn marks a rule that runs only when selected.
	OptIn bool
}

// LintOf describes rules, a language's lint rules in the one rule
// framework (checker/analysis).
func LintOf[P any](rules []*framework.Rule[P]) *Lint {
	l := &Lint{Unknown: func(entries []string) []string {
		_, unknown := framework.Select(rules, nil, entries, nil)
		return unknown
	}}
	l.rules = sync.OnceValue(func() []LintRule {
		var out []LintRule
		for _, r := range rules {
			title, _, _ := strings.Cut(r.Doc.Text(), "\n")
			title = strings.TrimPrefix(title, r.Name+": ")
			out = append(out, LintRule{Name: r.Name, Codes: r.Codes, Title: title, OptIn: r.OptIn})
		}
		return out
	})
	return l
}

// Rules describes the rules, in the language's order (shared: do not
// modify).
func (l *Lint) Rules() []LintRule { return l.rules() }

// UnknownLint returns the selection entries no lint rule of any language
// of ls answers to.
func UnknownLint(ls []Language, entries []string) []string {
	unknown := entries
	for _, l := range ls {
		if l.Lint != nil && len(unknown) > 0 {
			unknown = l.Lint.Unknown(unknown)
		}
	}
	return unknown
}

// Editor is what the language server needs of a language beyond its check.
type Editor struct {
	// Syntax keeps a document's syntax tree, reparsed incrementally; nil
	// for none.
	Syntax cache.Syntax
	// Features answers hover, definition and the other editor requests.
	Features features.Features
}

// Driver returns the language as the driver sees it.
func (l Language) Driver() driver.Language {
	return driver.Language{Name: l.Name, Extension: l.Extension, Check: l.Check, Parse: l.Parse}
}

// Runner returns the language as the runner sees it.
func (l Language) Runner() runner.Language {
	return runner.Language{Name: l.Name, Extension: l.Extension, Run: l.Run}
}

// Drivers returns the driver's view of ls, in order.
func Drivers(ls []Language) driver.Languages {
	out := make(driver.Languages, len(ls))
	for i, l := range ls {
		out[i] = l.Driver()
	}
	return out
}

// Runners returns the runner's view of the languages of ls that run
// programs, in order.
func Runners(ls []Language) runner.Languages {
	var out runner.Languages
	for _, l := range ls {
		if l.Run != nil {
			out = append(out, l.Runner())
		}
	}
	return out
}

// Formatters returns the formatters of the languages of ls that have
// one, by extension.
func Formatters(ls []Language) map[string]*format.Language {
	out := map[string]*format.Language{}
	for _, l := range ls {
		if l.Format != nil {
			out[l.Extension] = l.Format
		}
	}
	return out
}

// Editors starts the editor facets of ls for a language server: what its
// document store needs (every language's check, and the trees of those
// whose editor facet keeps one) and the editor features, by extension. A
// language whose editor facet fails is served without it, after
// failed is told why.
func Editors(ls []Language, failed func(Language, error)) (cache.Languages, map[string]features.Features) {
	langs := cache.Languages{Check: Drivers(ls), Syntax: map[string]cache.Syntax{}}
	feats := map[string]features.Features{}
	for _, l := range ls {
		if l.Editor == nil {
			continue
		}
		e, err := l.Editor()
		if err != nil {
			if failed != nil {
				failed(l, err)
			}
			continue
		}
		if e.Syntax != nil {
			langs.Syntax[l.Extension] = e.Syntax
		}
		if e.Features != nil {
			feats[l.Extension] = e.Features
		}
	}
	return langs, feats
}
