package main

import (
	"errors"
	"io"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/runtime/validator"
)

// runValidate compiles Rhai validator scripts and the blueprints that
// reference them, before any token is spent.
func validateCommand() *command {
	return &command{
		name: "validate", args: "PATH...", summary: "compile Rhai output validators and the blueprints that use them",
		about: "Folders are walked for .rhai scripts and blueprint .toml files; nothing is run.",
		setup: func(fs *flagSet) action {
			var out outputFlags
			out.register(fs)
			allowEmpty := false
			registerAllowEmpty(fs, &allowEmpty)
			return func(e *env, paths []string) int { return runValidate(e, paths, out, allowEmpty) }
		},
	}
}

func runValidate(e *env, paths []string, out outputFlags, allowEmpty bool) int {
	render, color, err := out.resolve(e)
	if err != nil {
		return fail(e, "%v", err)
	}
	if len(paths) == 0 {
		return fail(e, "no paths given (usage: harn-check validate PATH...)")
	}
	if err := requireFiles(paths, []string{".rhai", ".toml"}, allowEmpty); err != nil {
		return driverError(e, err)
	}
	results, err := validator.CheckPaths(paths)
	if err != nil {
		return driverError(e, &driver.UsageError{Msg: err.Error()})
	}
	report := &diagnostics.Report{Files: []diagnostics.File{}}
	for _, r := range results {
		report.Files = append(report.Files, diagnostics.File{Path: r.Path, Source: r.Content, Diagnostics: r.Diagnostics})
	}
	if err := render(e, e.stdout, report, color); err != nil {
		return fail(e, "writing output: %v", err)
	}
	if !report.OK() {
		return exitFail
	}
	return exitOK
}

// runValidateOutput runs one validator on one answer and prints the
// verdict as JSON.
func validateOutputCommand() *command {
	return &command{
		name: "validate-output", summary: "run one validator on one answer and print the verdict",
		about: "The answer is read from --content FILE, else from stdin; the verdict is printed as JSON.",
		setup: func(fs *flagSet) action {
			script := fs.String("validator", "", "the Rhai validator script `file` (required)")
			onError := fs.String("on-error", "reject", "what a failing validator does: reject or accept")
			contentPath := fs.String("content", "", "`file` holding the answer (default: standard input)")
			return func(e *env, rest []string) int {
				if len(rest) > 0 {
					return fail(e, "takes no positional arguments (got %q)", rest[0])
				}
				if *script == "" {
					return fail(e, "--validator FILE is required")
				}
				if *onError != "reject" && *onError != "accept" {
					return fail(e, "--on-error must be reject or accept, not %q", *onError)
				}
				return runValidateOutput(e, *script, *onError, *contentPath)
			}
		},
	}
}

func runValidateOutput(e *env, script, onError, contentPath string) int {
	// An answer larger than the validator's string limit is refused by
	// the validator with a verdict that names its size; one byte past the
	// limit is all that is read of it, so that a huge file, a device or a
	// runaway pipe costs no memory.
	limit := int64(validator.AnswerLimit())
	var content []byte
	var size int64
	var err error
	if contentPath == "" {
		content, err = io.ReadAll(io.LimitReader(e.stdin, limit+1))
		size = -1
	} else if content, size, err = sourcefs.ReadHead(contentPath, limit+1); err != nil {
		err = errors.New(sourcefs.Reason(err))
	}
	if err != nil {
		return fail(e, "reading the answer: %v", err)
	}
	if int64(len(content)) <= limit {
		size = 0 // the whole answer
	}
	res, code, compileDiags := validator.RunOutput(validator.OutputRequest{
		ValidatorPath: script, OnError: onError, Content: content, ContentSize: size,
	})
	if len(compileDiags) > 0 {
		report := &diagnostics.Report{}
		src, _ := sourcefs.Read(script, 0)
		byPath := map[string][]diagnostics.Diagnostic{}
		var order []string
		for _, d := range compileDiags {
			if _, seen := byPath[d.Path]; !seen {
				order = append(order, d.Path)
			}
			byPath[d.Path] = append(byPath[d.Path], d)
		}
		for _, p := range order {
			f := diagnostics.File{Path: p, Diagnostics: byPath[p]}
			if p == script {
				f.Source = src
			}
			report.Files = append(report.Files, f)
		}
		_ = diagnostics.RenderText(e.stderr, report, diagnostics.TextOptions{})
	}
	if err := printJSON(e, res); err != nil {
		return fail(e, "writing output: %v", err)
	}
	return code
}
