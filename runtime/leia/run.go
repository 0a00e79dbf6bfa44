package leia

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/runner"
)

// Extension prepares an interpreter for a command-line run (the AI layer
// installs its dialects and modules this way, without runtime/leia
// importing it). finish, when not nil, is called with the run's error
// and returns the error to report (it may flush traces or tapes).
type Extension func(in *Interp, p runner.Program, env runner.Env) (finish func(error) error, err error)

// RunProgram compiles and runs a program the way `harn-check run` does,
// without extensions (RunProgramWith).
func RunProgram(ctx context.Context, p runner.Program, env runner.Env) error {
	return RunProgramWith(ctx, p, env)
}

// RunProgramWith compiles and runs a program the way `harn-check run`
// does: the host confines it to its folder and the granted capabilities,
// and the result is nil on success, a *Error for a syntax or runtime
// error (exit status from ExitCode), or another error when the program
// cannot be set up. The extensions prepare the interpreter, in order,
// before the program compiles; their finish functions see the run's
// error, the last extension's first. Package language lists Leia's
// (runtime/leia/ai's RunProgram), nothing registers them.
func RunProgramWith(ctx context.Context, p runner.Program, env runner.Env, exts ...Extension) error {
	dir := filepath.Dir(p.Path)
	h, err := host.New(host.Config{Root: dir, TempDir: env.TempDir, Grants: env.Grants, Seed: env.Seed, Stdin: env.Stdin, Stdout: env.Stdout, Stderr: env.Stderr})
	if err != nil {
		return err
	}
	defer h.Close() // removes the run's private temp dir
	in := New(Options{
		Stdout:    env.Stdout,
		Stderr:    env.Stderr,
		Stdin:     env.Stdin,
		Args:      p.Args,
		Limits:    env.Limits,
		Host:      h,
		Modules:   HostModules(h),
		GoModules: nil,
	})
	var finishers []func(error) error
	for _, e := range exts {
		finish, err := e(in, p, env)
		if err != nil {
			return err
		}
		if finish != nil {
			finishers = append(finishers, finish)
		}
	}
	chunk, err := in.Compile(p.Path, p.Src)
	if err == nil {
		_, err = in.Run(ctx, chunk)
	}
	for i := len(finishers) - 1; i >= 0; i-- {
		err = finishers[i](err)
	}
	return err
}

// HostModules loads required modules through the host: `a.b` is
// a/b.leia under the requiring file's folder or the program's folder,
// subject to the same file-system confinement as the program itself.
func HostModules(h *host.Host) ModuleLoader {
	return func(from, name string) (string, []byte, error) {
		rel := name
		if !strings.HasPrefix(rel, "./") && !strings.HasPrefix(rel, "../") && !strings.Contains(rel, "/") {
			rel = strings.ReplaceAll(rel, ".", "/")
		}
		if i := strings.Index(rel, ":"); i >= 0 {
			rel = rel[:i] + "/" + rel[i+1:]
		}
		dirs := []string{h.Root()}
		if from != "" {
			if abs, err := filepath.Abs(from); err == nil && filepath.Dir(abs) != h.Root() {
				dirs = append([]string{filepath.Dir(abs)}, dirs...)
			}
		}
		var firstErr error
		for _, d := range dirs {
			for _, cand := range []string{rel + ".leia", rel + ".gs", rel, filepath.Join(rel, "init.leia")} {
				p := filepath.Join(d, cand)
				st, err := h.Stat(p)
				if err != nil || st.IsDir() {
					if err != nil && firstErr == nil && !isNotExist(err) {
						firstErr = err
					}
					continue
				}
				src, err := h.ReadFile(p)
				if err != nil {
					return "", nil, err
				}
				return p, src, nil
			}
		}
		if firstErr != nil {
			return "", nil, firstErr
		}
		return "", nil, fmt.Errorf("module '%s' not found: %w", name, errNotExist)
	}
}

// ExitCode is the process exit status for a run's error: 0 for nil, the
// code of os.exit, 1 for any other program failure.
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	if e, ok := err.(*Error); ok {
		return e.ExitCode()
	}
	return 1
}

// ExitCode is the status the CLI exits with: os.exit's code, else 1.
func (e *Error) ExitCode() int {
	if e.Kind == KindExit || e.Kind == KindProcessExit {
		return e.Code
	}
	return 1
}

// Format renders the error for standard error as the CLI prints it:
// "error: file:line:col: message" and one "    at function (file:line:col)"
// line per Leia frame, innermost first.
func (e *Error) Format() string {
	if e.Kind == KindExit || e.Kind == KindProcessExit {
		return ""
	}
	var b strings.Builder
	b.WriteString("error: " + e.Error() + "\n")
	for _, f := range e.Traceback {
		name := f.Function
		switch name {
		case "":
			name = "<function>"
		case "main chunk":
			name = "<top level>"
		}
		if f.Line > 0 {
			fmt.Fprintf(&b, "    at %s (%s:%d:%d)\n", name, f.File, f.Line, f.Col)
		} else {
			fmt.Fprintf(&b, "    at %s\n", name)
		}
	}
	return b.String()
}
