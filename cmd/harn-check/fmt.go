package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/format"
	"github.com/harnlang/harn-check/grammar/tsutil"
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
	render, color, err := f.out.resolveFor(e, e.stderrTerminal)
	if err != nil {
		return fail(e, "%v", err)
	}
	r := &fmtRun{e: e, check: f.check, diff: f.diff, write: f.write, report: &diagnostics.Report{}}
	status := exitOK
	var files []string
	for _, p := range paths {
		if p == "-" {
			if f.write {
				return fail(e, "--write needs files, not stdin")
			}
			l, ok := format.ForExt("." + f.lang)
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
		found, err := driver.Discover([]string{p}, driver.DiscoverOptions{AllowEmpty: f.allowEmpty})
		if err != nil {
			return driverError(e, err)
		}
		for _, f := range found {
			if f.Err != nil {
				// A pipe, device or link out of the folder is never read,
				// let alone rewritten.
				fmt.Fprintf(e.stderr, "harn-check: %s: skipped: %s\n", f.Path, sourcefs.Reason(f.Err))
				continue
			}
			files = append(files, f.Path)
		}
	}
	for _, path := range files {
		src, err := sourcefs.Read(path, 0)
		if err != nil {
			fmt.Fprintf(e.stderr, "harn-check: %s: cannot read: %s\n", path, sourcefs.Reason(err))
			status = max(status, exitUsage)
			continue
		}
		status = max(status, r.file(filepath.ToSlash(path), path, src, false))
	}
	if len(r.report.Files) > 0 {
		if err := render(e, e.stderr, r.report, color); err != nil {
			return fail(e, "writing output: %v", err)
		}
	}
	return status
}

// fmtRun carries the mode of one fmt command.
type fmtRun struct {
	e                  *env
	check, diff, write bool
	report             *diagnostics.Report
}

// file formats one file (name is what messages call it, path decides the
// language) and returns its exit status.
func (r *fmtRun) file(name, path string, src []byte, stdin bool) int {
	l, ok := format.ForPath(path)
	if !ok {
		fmt.Fprintf(r.e.stderr, "harn-check: %s: not a .harn or .leia file\n", name)
		return exitUsage
	}
	// Brackets nested far past the nesting limit are refused before the
	// formatter parses them (a million levels took it 30 s and 1.5 GB).
	if depth, at := tsutil.BracketDepth(src); depth > limits.PrescanDepth(0) {
		r.report.Files = append(r.report.Files, diagnostics.File{Path: name, Source: src,
			Diagnostics: []diagnostics.Diagnostic{limits.BracketDiagnostic(name, diagnostics.SourceParser, at, depth, 0)}})
		return exitFail
	}
	out, err := l.Format(src, format.Options{})
	if errors.Is(err, format.ErrSyntax) {
		// Never rewritten; the syntax diagnostics say why.
		var diags []diagnostics.Diagnostic
		if dl, ok := driver.Lookup(path); ok && dl.Parse != nil {
			_, diags = dl.Parse(driver.Request{Path: name, Source: src}, false)
		}
		if len(diags) == 0 {
			fmt.Fprintf(r.e.stderr, "harn-check: %s: %v\n", name, err)
		}
		r.report.Files = append(r.report.Files, diagnostics.File{Path: name, Source: src, Diagnostics: diags})
		return exitFail
	}
	if err == nil {
		err = l.Verify(src, out)
	}
	if err != nil {
		fmt.Fprintf(r.e.stderr, "harn-check: %s: %v; the file is left as it is\n", name, err)
		return exitUsage
	}
	changed := !bytes.Equal(src, out)
	if r.diff && changed {
		fmt.Fprint(r.e.stdout, format.UnifiedDiff(name, name+" (formatted)", src, out))
	}
	switch {
	case r.check:
		if changed {
			if !r.diff {
				fmt.Fprintln(r.e.stdout, name)
			}
			return exitFail
		}
	case r.write:
		if changed {
			if err := writeFormatted(path, out); err != nil {
				fmt.Fprintf(r.e.stderr, "harn-check: %s: %v\n", name, err)
				return exitUsage
			}
		}
	case !r.diff:
		r.e.stdout.Write(out)
	}
	return exitOK
}

// writeFormatted replaces path's content through a temporary file in the same
// directory and a rename, keeping the file's mode, so an interrupted write
// never leaves a truncated file.
func writeFormatted(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".fmt-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(name)
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Chmod(name, info.Mode().Perm()); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}
