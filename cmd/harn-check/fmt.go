package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/format"
	"github.com/harnlang/harn-check/grammar/tsutil"
	"github.com/harnlang/harn-check/internal/english"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/sourcefs"
)

func fmtCommand() *command {
	return &command{
		name: "fmt", args: "PATH...", summary: "format .harn and .leia files (--check, --diff, --write)",
		about: `Without a mode flag the formatted text goes to stdout; --write rewrites the
files that change, --check lists them and exits 1, --diff prints a unified
diff. Folders are walked as for check; - reads stdin (--lang leia for Leia). A
file with syntax errors is never rewritten: its diagnostics go to stderr and
the exit status is 1.`,
		suggestFor: []string{"format"},
		setup: func(fs *flagSet) action {
			var f fmtFlags
			f.register(fs)
			return func(e *env, paths []string) int { return runFmt(e, paths, f) }
		},
	}
}

// fmtFlags are the flags of fmt.
type fmtFlags struct {
	check, diff, write bool
	allowEmpty         bool
	lang               string
	out                outputFlags
}

func (f *fmtFlags) register(fs *flagSet) {
	fs.BoolVar(&f.check, "check", false, "list the files that are not formatted and exit 1 if there are any; write nothing")
	fs.BoolVar(&f.diff, "diff", false, "print a unified diff of the changes instead of the formatted text")
	fs.BoolVar(&f.write, "write", false, "rewrite the files that are not formatted")
	fs.StringVar(&f.lang, "lang", "harn", "the `language` of stdin (-): harn or leia")
	registerAllowEmpty(fs, &f.allowEmpty)
	f.out.register(fs)
}

// runFmt formats the files under paths (- is stdin).
func runFmt(e *env, paths []string, f fmtFlags) int {
	if len(paths) == 0 {
		return fail(e, "no files given (usage: harn-check fmt [--check] [--diff] [--write] PATH... ; - reads stdin)")
	}
	if f.check && f.write {
		return fail(e, "--check and --write cannot be combined (--check never writes)")
	}
	// A machine format (--json, --format sarif|github) is the one thing
	// on stdout: the document, every file in it; what a text run prints
	// there (the files --check lists, what --write changed) goes to
	// stderr, and formatted text or a diff cannot share stdout with it.
	machine := f.out.json || f.out.format != "text"
	terminal := e.stderrTerminal
	if machine {
		terminal = e.isTerminal
	}
	render, color, err := f.out.resolveFor(e, terminal)
	if err != nil {
		return fail(e, "%v", err)
	}
	if machine && (f.diff || !f.check && !f.write) {
		return fail(e, "--format %s prints a report on stdout: use it with --check or --write, not with formatted text or --diff", f.out.format)
	}
	r := &fmtRun{e: e, check: f.check, diff: f.diff, write: f.write, machine: machine, report: &diagnostics.Report{Files: []diagnostics.File{}}, list: e.stdout}
	if machine {
		r.list = e.stderr
	}
	status := exitOK
	var files []string
	for _, p := range paths {
		if p == "-" {
			if f.write {
				return fail(e, "--write needs files, not stdin")
			}
			l, ok := formatters["."+f.lang]
			if !ok {
				return fail(e, "unknown --lang %q (want harn or leia)", f.lang)
			}
			src, err := io.ReadAll(e.stdin)
			if err != nil {
				return fail(e, "reading stdin: %v", err)
			}
			status = max(status, r.file("<stdin>", "x"+l.Ext, src, true))
			continue
		}
		found, err := driver.Discover([]string{p}, driver.DiscoverOptions{Extensions: checks.Extensions(), AllowEmpty: f.allowEmpty})
		if err != nil {
			return driverError(e, err)
		}
		for _, f := range found {
			if f.Err != nil {
				// A pipe, device or link out of the folder is never read,
				// let alone rewritten.
				msgf(e, "%s: skipped: %s", f.Path, sourcefs.Reason(f.Err))
				continue
			}
			files = append(files, f.Path)
		}
	}
	for _, path := range files {
		src, err := sourcefs.Read(path, 0)
		if err != nil {
			msgf(e, "%s: cannot read: %s", path, sourcefs.Reason(err))
			status = max(status, exitUsage)
			continue
		}
		status = max(status, r.file(filepath.ToSlash(path), path, src, false))
	}
	if r.write && len(files) > 0 {
		fmt.Fprintf(r.list, "%s reformatted, %s left unchanged", english.Count(r.changed, "file", "files"), english.Count(r.unchanged, "file", "files"))
		if n := len(files) - r.changed - r.unchanged; n > 0 {
			fmt.Fprintf(r.list, ", %d not formatted (see the errors)", n)
		}
		fmt.Fprintln(r.list)
	}
	switch {
	case machine:
		if err := render(e, e.stdout, r.report, color); err != nil {
			return fail(e, "writing output: %v", err)
		}
	case len(r.report.Files) > 0:
		// Text: only the files with diagnostics, on stderr.
		var bad []diagnostics.File
		for _, f := range r.report.Files {
			if len(f.Diagnostics) > 0 {
				bad = append(bad, f)
			}
		}
		if len(bad) > 0 {
			if err := render(e, e.stderr, &diagnostics.Report{Files: bad}, color); err != nil {
				return fail(e, "writing output: %v", err)
			}
		}
	}
	return status
}

// fmtRun carries the mode of one fmt command.
type fmtRun struct {
	e                  *env
	check, diff, write bool
	// machine is a --json/--format sarif|github run.
	machine bool
	report  *diagnostics.Report
	// list receives the files --check lists and --write changed.
	list io.Writer
	// changed and unchanged count the files --write saw.
	changed, unchanged int
	// projects memoises the harn.toml settings of each folder.
	projects map[string]driver.Project
}

// project returns the settings of the project the file at path is in
// (stdin's is the working directory's).
func (r *fmtRun) project(path string) driver.Project {
	dir := filepath.Dir(path)
	if p, ok := r.projects[dir]; ok {
		return p
	}
	if r.projects == nil {
		r.projects = map[string]driver.Project{}
	}
	p := driver.ProjectFor(nil, dir)
	r.projects[dir] = p
	return p
}

// file formats one file (name is what messages call it, path decides the
// language) and returns its exit status.
func (r *fmtRun) file(name, path string, src []byte, stdin bool) int {
	l, ok := formatters[filepath.Ext(path)]
	if !ok {
		msgf(r.e, "%s: not a .harn or .leia file", name)
		return exitUsage
	}
	// Brackets nested far past the nesting limit are refused before the
	// formatter parses them (a million levels took it 30 s and 1.5 GB).
	if depth, at, over := tsutil.BracketDepthOver(src, limits.PrescanDepth(0)); over {
		r.report.Files = append(r.report.Files, diagnostics.File{Path: name, Source: src,
			Diagnostics: []diagnostics.Diagnostic{limits.BracketDiagnostic(name, diagnostics.SourceParser, at, depth, 0)}})
		return exitFail
	}
	proj := r.project(path)
	if proj.Invalid != nil {
		// Its [fmt] table may say how to format: not formatted until it
		// can be read.
		r.report.Files = append(r.report.Files, diagnostics.File{Path: name, Source: src,
			Diagnostics: []diagnostics.Diagnostic{proj.Invalid.Diagnostic(name)}})
		return exitFail
	}
	out, err := l.Format(src, format.Options{LineWidth: proj.LineWidth()})
	if errors.Is(err, format.ErrSyntax) {
		// Never rewritten; the syntax diagnostics say why.
		var diags []diagnostics.Diagnostic
		if dl, ok := checks.ForPath(path); ok && dl.Parse != nil {
			_, diags = dl.Parse(driver.Request{Path: name, Source: src}, false)
		}
		if len(diags) == 0 {
			msgf(r.e, "%s: %v", name, err)
		}
		r.report.Files = append(r.report.Files, diagnostics.File{Path: name, Source: src, Diagnostics: diags})
		return exitFail
	}
	if err == nil {
		err = l.Verify(src, out)
	}
	if err != nil {
		msgf(r.e, "%s: %v; the file is left as it is", name, err)
		return exitUsage
	}
	changed := !bytes.Equal(src, out)
	r.report.Files = append(r.report.Files, diagnostics.File{Path: name, Source: src, Diagnostics: []diagnostics.Diagnostic{}})
	if changed && (r.check || r.write) {
		code, what := "not_formatted", "not formatted"
		if r.write {
			code, what = "reformatted", "reformatted"
		}
		r.report.Warnings = append(r.report.Warnings, diagnostics.ToolMessage{Code: code, Message: name + ": " + what})
	}
	if r.diff && changed {
		fmt.Fprint(r.e.stdout, format.UnifiedDiff(name, name+" (formatted)", src, out))
	}
	switch {
	case r.check:
		if changed {
			if !r.diff {
				fmt.Fprintln(r.list, name)
			}
			return exitFail
		}
	case r.write:
		if !changed {
			r.unchanged++
			break
		}
		if err := replaceFile(path, out); err != nil {
			msgf(r.e, "%s: %v", name, err)
			return exitUsage
		}
		r.changed++
		fmt.Fprintf(r.list, "reformatted %s\n", name)
	case !r.diff:
		r.e.stdout.Write(out)
	}
	return exitOK
}
