package main

import (
	"errors"
	"flag"
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
		about: `The answer is read from --content FILE, else from stdin; the verdict is printed as JSON.
With --validator FILE one script runs. With --blueprint FILE and --stage NAME (or --agent)
the stage's whole chain runs as the output tool does: the format's parser, the JSON
Schema, then the validator; --format overrides the declared format like a launch
override (the declared schema and validator are retired) and --output-schema FILE
is the override's schema, which is kept.`,
		setup: func(fs *flagSet) action {
			script := fs.String("validator", "", "the Rhai validator script `file`")
			onError := fs.String("on-error", "reject", "what a failing validator does: reject or accept")
			contentPath := fs.String("content", "", "`file` holding the answer (default: standard input)")
			bp := fs.String("blueprint", "", "the blueprint `file` whose output checks run")
			stage := fs.String("stage", "", "the blueprint's stage `name`")
			agent := fs.Bool("agent", false, "check against the blueprint's [agent.output]")
			format := fs.String("format", "", "override the declared output `format` (retires the declared schema and validator)")
			schemaPath := fs.String("output-schema", "", "the override's JSON Schema `file`")
			return func(e *env, rest []string) int {
				if len(rest) > 0 {
					return fail(e, "takes no positional arguments (got %q)", rest[0])
				}
				if *bp != "" {
					if *script != "" {
						return fail(e, "--validator and --blueprint are mutually exclusive")
					}
					if (*stage == "") == !*agent {
						return fail(e, "--blueprint needs exactly one of --stage NAME and --agent")
					}
					req := validator.BlueprintOutputRequest{Blueprint: *bp, Stage: *stage, Agent: *agent}
					fs.Visit(func(f *flag.Flag) {
						if f.Name == "format" {
							req.Format = format
						}
					})
					if *schemaPath != "" {
						data, err := sourcefs.Read(*schemaPath, 0)
						if err != nil {
							return fail(e, "--output-schema %s: %s", *schemaPath, sourcefs.Reason(err))
						}
						sch := string(data)
						req.Schema = &sch
					}
					return runBlueprintOutput(e, req, *contentPath)
				}
				if *stage != "" || *agent || *format != "" || *schemaPath != "" {
					return fail(e, "--stage, --agent, --format and --output-schema need --blueprint FILE")
				}
				if *script == "" {
					return fail(e, "--validator FILE or --blueprint FILE is required")
				}
				if *onError != "reject" && *onError != "accept" {
					return fail(e, "--on-error must be reject or accept, not %q", *onError)
				}
				return runValidateOutput(e, *script, *onError, *contentPath)
			}
		},
	}
}

// runBlueprintOutput runs a blueprint stage's check chain on one answer.
func runBlueprintOutput(e *env, req validator.BlueprintOutputRequest, contentPath string) int {
	var err error
	if req.Content, _, err = readAnswer(e, contentPath); err != nil {
		return fail(e, "reading the answer: %v", err)
	}
	res, code, diags := validator.RunBlueprintOutput(req)
	if len(diags) > 0 {
		_ = diagnostics.RenderText(e.stderr, diagnosticsReport(diags, func(string) bool { return true }), diagnostics.TextOptions{})
	}
	if err := printJSON(e, res); err != nil {
		return fail(e, "writing output: %v", err)
	}
	return code
}

// diagnosticsReport groups diagnostics by file, in the order the files
// first appear, reading the source of the files quote allows for the
// excerpt (the others are reported without one).
func diagnosticsReport(diags []diagnostics.Diagnostic, quote func(path string) bool) *diagnostics.Report {
	report := &diagnostics.Report{}
	byPath := map[string][]diagnostics.Diagnostic{}
	var order []string
	for _, d := range diags {
		if _, seen := byPath[d.Path]; !seen {
			order = append(order, d.Path)
		}
		byPath[d.Path] = append(byPath[d.Path], d)
	}
	for _, p := range order {
		f := diagnostics.File{Path: p, Diagnostics: byPath[p]}
		if quote(p) {
			f.Source, _ = sourcefs.Read(p, 0)
		}
		report.Files = append(report.Files, f)
	}
	return report
}

// readAnswer reads the answer to validate from path, or from stdin when
// path is empty, one byte past the validator's string limit and no
// further, so that a huge file, a device or a runaway pipe costs no
// memory (the validator refuses an answer over its limit with a verdict
// naming its size). size is the file's size (-1 for stdin).
func readAnswer(e *env, path string) (content []byte, size int64, err error) {
	limit := int64(validator.AnswerLimit())
	if path == "" {
		content, err = io.ReadAll(io.LimitReader(e.stdin, limit+1))
		return content, -1, err
	}
	if content, size, err = sourcefs.ReadHead(path, limit+1); err != nil {
		return nil, 0, errors.New(sourcefs.Reason(err))
	}
	return content, size, nil
}

func runValidateOutput(e *env, script, onError, contentPath string) int {
	content, size, err := readAnswer(e, contentPath)
	if err != nil {
		return fail(e, "reading the answer: %v", err)
	}
	if int64(len(content)) <= int64(validator.AnswerLimit()) {
		size = 0 // the whole answer
	}
	res, code, compileDiags := validator.RunOutput(validator.OutputRequest{
		ValidatorPath: script, OnError: onError, Content: content, ContentSize: size,
	})
	if len(compileDiags) > 0 {
		report := diagnosticsReport(compileDiags, func(p string) bool { return p == script })
		_ = diagnostics.RenderText(e.stderr, report, diagnostics.TextOptions{})
	}
	if err := printJSON(e, res); err != nil {
		return fail(e, "writing output: %v", err)
	}
	return code
}
