package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/english"
	"github.com/harnlang/harn-check/internal/sourcefs"
)

// fixFlags are --fix and --unsafe-fixes, shared by check and lint.
type fixFlags struct {
	fix, unsafe bool
}

func (f *fixFlags) register(fs *flagSet) {
	fs.BoolVar(&f.fix, "fix", false, "apply the safe fixes diagnostics carry, rewrite the files and report what is left")
	fs.BoolVar(&f.unsafe, "unsafe-fixes", false, "with --fix, also apply fixes that may change what the program does")
}

// maxFixPasses bounds the check-fix rounds of one --fix run: a fix
// deferred because it overlapped another is applied in a later round.
const maxFixPasses = 10

// errReadOnly is the refusal to rewrite a file without write permission.
var errReadOnly = errors.New("the file is read-only")

// fixOutcome is what a --fix run did.
type fixOutcome struct {
	// fixed counts the applied fixes per file, by code.
	fixed map[string]map[string]int
	// withheld counts the unsafe fixes left (--unsafe-fixes applies them).
	withheld int
	// failed is set when a file could not be rewritten.
	failed bool
}

// reportChecked is how check and lint end: it runs check once (or, with
// --fix, as a fix run that then says what it fixed), renders the report
// and returns the exit status: usage when a file could not be rewritten,
// fail when an error is left.
func reportChecked(e *env, f fixFlags, check func() (*diagnostics.Report, error), render func(*env, io.Writer, *diagnostics.Report, bool) error, color bool) int {
	var report *diagnostics.Report
	var fixed fixOutcome
	var err error
	if f.fix {
		report, fixed, err = fixRun(e, f, check)
	} else {
		report, err = check()
	}
	if err != nil {
		return driverError(e, err)
	}
	if f.fix {
		fixed.say(e, f.unsafe)
	}
	if err := render(e, e.stdout, report, color); err != nil {
		return fail(e, "writing output: %v", err)
	}
	switch {
	case fixed.failed:
		return exitUsage
	case !report.OK():
		return exitFail
	}
	return exitOK
}

// fixRun applies the fixes of the diagnostics check reports, rewriting
// each changed file whole (replaceFile), and checks again until nothing
// more applies, at most maxFixPasses times. It returns the last report,
// which describes the files as they are now. A file that changed on disk
// since it was checked is not rewritten.
func fixRun(e *env, f fixFlags, check func() (*diagnostics.Report, error)) (*diagnostics.Report, fixOutcome, error) {
	out := fixOutcome{fixed: map[string]map[string]int{}}
	refused := map[string]bool{}
	for pass := 0; ; pass++ {
		report, err := check()
		if err != nil || pass == maxFixPasses {
			return report, out, err
		}
		changed := false
		out.withheld = 0
		for _, file := range report.Files {
			if file.Source == nil || refused[file.Path] {
				continue
			}
			res, err := diagnostics.ApplyFixes(file.Source, file.Diagnostics, diagnostics.FixOptions{Unsafe: f.unsafe})
			if err != nil {
				return nil, out, err
			}
			out.withheld += res.Withheld
			if len(res.Applied) == 0 || bytes.Equal(res.Text, file.Source) {
				continue
			}
			path := filepath.FromSlash(file.Path)
			if now, err := sourcefs.Read(path, 0); err != nil || !bytes.Equal(now, file.Source) {
				msgf(e, "%s: not fixed: the file changed while it was checked", file.Path)
				refused[file.Path], out.failed = true, true
				continue
			}
			if err := replaceFile(path, res.Text); err != nil {
				msgf(e, "%s: not fixed: %v", file.Path, unwrapPath(err))
				refused[file.Path], out.failed = true, true
				continue
			}
			counts := out.fixed[file.Path]
			if counts == nil {
				counts = map[string]int{}
				out.fixed[file.Path] = counts
			}
			for _, d := range res.Applied {
				counts[d.Code]++
			}
			changed = true
		}
		if !changed {
			return report, out, nil
		}
	}
}

// say writes what a --fix run did, one line per fixed file and a total,
// on stderr (stdout holds the report).
func (o fixOutcome) say(e *env, unsafe bool) {
	total := 0
	for _, path := range slices.Sorted(maps.Keys(o.fixed)) {
		counts := o.fixed[path]
		var parts []string
		n := 0
		for _, code := range slices.Sorted(maps.Keys(counts)) {
			parts = append(parts, fmt.Sprintf("%s ×%d", code, counts[code]))
			n += counts[code]
		}
		total += n
		fmt.Fprintf(e.stderr, "fixed %s in %s (%s)\n", english.Count(n, "problem", "problems"), path, strings.Join(parts, ", "))
	}
	msg := "nothing to fix"
	if total > 0 {
		msg = fmt.Sprintf("fixed %s in %s", english.Count(total, "problem", "problems"), english.Count(len(o.fixed), "file", "files"))
	}
	if o.withheld > 0 && !unsafe {
		msg += fmt.Sprintf("; %s available with --unsafe-fixes", english.Count(o.withheld, "more fix", "more fixes"))
	}
	fmt.Fprintln(e.stderr, msg)
}

// replaceFile replaces path's content through a temporary file in the
// same folder and a rename, keeping the file's mode, so an interrupted
// write never leaves a half-written file. A file without write
// permission is refused (errReadOnly): the rename would replace it.
func replaceFile(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	if info.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("%w (%s)", errReadOnly, info.Mode().Perm())
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(name)
		return err
	}
	if err := tmp.Sync(); err != nil {
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
