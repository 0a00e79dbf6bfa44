package main

import (
	"fmt"
	"strings"

	framework "github.com/harnlang/harn-check/checker/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/language"
)

// listFlag is a flag that may be given several times, each value a
// comma-separated list (--select a,b --select c).
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, framework.ParseList([]string{s})...)
	return nil
}

func lintCommand() *command {
	return &command{
		name: "lint", args: "PATH...", summary: "run the lint rules over .harn and .leia files",
		about: `Parses and infers as check does, then runs the lint rules instead of the
checks: the rules on by default, or those --select, --extend-select and
--ignore choose (a rule's name such as unused-variable, its code such as
HARN-LNT-032, a code prefix, or ALL). Reports syntax errors and the lint
rules' findings; type errors are check's. --list prints the rules. Exit
status: 0 without error diagnostics, 1 with some, 2 for a usage error.`,
		setup: func(fs *flagSet) action {
			var out outputFlags
			out.register(fs)
			var cache cacheFlags
			cache.register(fs)
			registerShard(fs, &cache.shard, shardLintHelp)
			var sel, extend, ignore listFlag
			fs.Var(&sel, "select", "lint `rules` to run instead of the default ones (names, codes or ALL, comma-separated; repeatable)")
			fs.Var(&extend, "extend-select", "lint `rules` to run besides the selected ones, such as the rules off by default")
			fs.Var(&ignore, "ignore", "lint `rules` not to run")
			var fix fixFlags
			fix.register(fs)
			list := fs.Bool("list", false, "print the lint rules, their codes and whether they are on by default, and exit")
			return func(e *env, paths []string) int {
				render, color, err := out.resolve(e)
				if err != nil {
					return fail(e, "%v", err)
				}
				var entries []string
				for _, l := range []listFlag{sel, extend, ignore} {
					entries = append(entries, l...)
				}
				if unknown := language.UnknownLint(languages, entries); len(unknown) > 0 {
					return fail(e, "%v", framework.UnknownError(unknown))
				}
				if *list {
					printLintRules(e)
					return exitOK
				}
				if len(paths) == 0 {
					return fail(e, "no paths given (usage: harn-check lint [FLAGS] PATH...)")
				}
				if fix.unsafe && !fix.fix {
					return fail(e, "--unsafe-fixes goes with --fix")
				}
				check := func() (*diagnostics.Report, error) {
					opts := checkOptions(e, cache)
					opts.Lint = &driver.LintSelection{Select: sel, Extend: extend, Ignore: ignore}
					// Lint prints no manifests, in any format.
					opts.NoManifests = true
					defer workerProcessors(e, &opts)()
					report, err := checks.CheckPaths(paths, opts)
					if err != nil {
						return nil, err
					}
					for i := range report.Files {
						report.Files[i].Diagnostics = lintFindings(report.Files[i].Diagnostics)
					}
					return report, nil
				}
				return reportChecked(e, fix, check, render, color)
			}
		},
	}
}

// lintFindings keeps what lint reports of a file's diagnostics: the lint
// rules' findings, syntax errors, and why a file was not read or checked
// (its IO, setup and limit diagnostics). Type errors and the evaluation
// contract are check's to report, as upstream's `harn lint` leaves them
// to `harn check`.
func lintFindings(ds []diagnostics.Diagnostic) []diagnostics.Diagnostic {
	var out []diagnostics.Diagnostic
	for _, d := range ds {
		switch {
		case d.Source == diagnostics.SourceLint, d.Source == diagnostics.SourceLexer, d.Source == diagnostics.SourceParser,
			d.Source == diagnostics.SourceIO, d.Source == diagnostics.SourceSetup, strings.HasPrefix(d.Code, "HARN-LIM-"):
			out = append(out, d)
		}
	}
	return out
}

// printLintRules writes one line per lint rule: code, name, default and
// title.
func printLintRules(e *env) {
	for _, l := range languages {
		if l.Lint == nil {
			continue
		}
		for _, r := range l.Lint.Rules() {
			def := "on"
			if r.OptIn {
				def = "off"
			}
			fmt.Fprintf(e.stdout, "%-13s %-30s %-4s %s\n", strings.Join(r.Codes, ","), r.Name, def, r.Title)
		}
	}
}
