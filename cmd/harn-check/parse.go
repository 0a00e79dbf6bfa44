package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/sourcefs"
)

func parseCommand() *command {
	return &command{
		name: "parse", args: "FILE...", summary: "print the syntax tree of files",
		about: "The tree goes to stdout, syntax errors to stderr; exit 1 if there are any.",
		setup: func(fs *flagSet) action {
			sexp := fs.Bool("sexp", false, "print the tree as one S-expression per file")
			var out outputFlags
			out.register(fs)
			var lim limits.Limits
			lim.Register(fs.FlagSet)
			return func(e *env, files []string) int { return runParse(e, files, *sexp, out, lim) }
		},
	}
}

func runParse(e *env, files []string, sexp bool, out outputFlags, lim limits.Limits) int {
	// The tree goes to stdout, the diagnostics to stderr.
	render, color, err := out.resolveFor(e, e.stderrTerminal)
	if err != nil {
		return fail(e, "%v", err)
	}
	if len(files) == 0 {
		return fail(e, "no files given (usage: harn-check parse [--sexp] FILE...)")
	}
	report := &diagnostics.Report{}
	for _, path := range files {
		if info, err := os.Stat(path); err == nil && info.IsDir() {
			return fail(e, "%s: is a folder; parse takes files (harn-check check walks folders)", path)
		}
		lang, ok := checks.ForPath(path)
		if !ok || lang.Parse == nil {
			return fail(e, "%s: no parser for %q files is available in this build", path, filepath.Ext(path))
		}
		src, err := sourcefs.Read(path, lim.FileSize)
		if err != nil {
			return fail(e, "%s: cannot read: %s", path, sourcefs.Reason(err))
		}
		if binary, why := sourcefs.Binary(src); binary {
			return fail(e, "%s: the file is binary, not source text (%s)", path, why)
		}
		tree, diags := lang.Parse(driver.Request{Path: filepath.ToSlash(path), Source: src, Limits: lim}, sexp)
		fmt.Fprintln(e.stdout, tree)
		report.Files = append(report.Files, diagnostics.File{Path: filepath.ToSlash(path), Source: src, Diagnostics: diags})
	}
	if s := report.Summarize(); s.Diagnostics > 0 {
		if err := render(e, e.stderr, report, color); err != nil {
			return fail(e, "writing output: %v", err)
		}
	}
	if !report.OK() {
		return exitFail
	}
	return exitOK
}
