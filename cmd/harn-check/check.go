package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/version"
)

// formats maps --format values to renderers.
var formats = map[string]func(e *env, w io.Writer, r *diagnostics.Report, color bool) error{
	"text": func(_ *env, w io.Writer, r *diagnostics.Report, color bool) error {
		return diagnostics.RenderText(w, r, diagnostics.TextOptions{Color: color})
	},
	"json": func(_ *env, w io.Writer, r *diagnostics.Report, _ bool) error { return diagnostics.RenderJSON(w, r) },
	"sarif": func(_ *env, w io.Writer, r *diagnostics.Report, _ bool) error {
		return diagnostics.RenderSARIF(w, r, sarifOptions())
	},
	"github": func(_ *env, w io.Writer, r *diagnostics.Report, _ bool) error { return diagnostics.RenderGitHub(w, r) },
}

// printsManifests reports whether the output format prints each file's
// predicate manifest (only JSON's envelope carries them).
func printsManifests(format string) bool { return format == "json" }

// The project's home page, and where each code's explanation page is
// published, for SARIF consumers (GitHub code scanning links them).
const (
	homePage    = "https://github.com/harnlang/harn-check"
	explainPage = homePage + "/blob/main/diagnostics/explain/%s.md"
)

// sarifOptions describe harn-check in a SARIF log.
func sarifOptions() diagnostics.SARIFOptions {
	return diagnostics.SARIFOptions{ToolName: "harn-check", ToolVersion: version.Version,
		InformationURI: homePage, RuleHelpURI: explainPage}
}

// outputFlags are the flags shared by commands that print a report.
type outputFlags struct {
	format string
	json   bool
	color  string
}

func (o *outputFlags) register(fs *flagSet) {
	fs.StringVar(&o.format, "format", "text", "output `format`: text, json, sarif or github")
	fs.BoolVar(&o.json, "json", false, "shorthand for --format json")
	fs.StringVar(&o.color, "color", "auto", "`when` to colour text output: auto (stdout a terminal and NO_COLOR unset), always or never")
}

// resolve validates the flags and returns the renderer and the colour
// choice for output written to stdout.
func (o *outputFlags) resolve(e *env) (func(*env, io.Writer, *diagnostics.Report, bool) error, bool, error) {
	return o.resolveFor(e, e.isTerminal)
}

// resolveFor is resolve for output going to a stream whose terminal-ness
// is terminal.
func (o *outputFlags) resolveFor(e *env, terminal bool) (func(*env, io.Writer, *diagnostics.Report, bool) error, bool, error) {
	if o.json {
		o.format = "json"
	}
	render, ok := formats[o.format]
	if !ok {
		return nil, false, fmt.Errorf("unknown format %q (want text, json, sarif or github)", o.format)
	}
	var color bool
	switch o.color {
	case "auto":
		color = terminal && e.getenv("NO_COLOR") == ""
	case "always":
		color = true
	case "never":
		color = false
	default:
		return nil, false, fmt.Errorf("unknown --color value %q (want auto, always or never)", o.color)
	}
	return render, color, nil
}

func checkCommand() *command {
	return &command{
		name: "check", args: "PATH...", summary: "check .harn and .leia files (the default command)",
		about: `Folders are walked (.git and node_modules skipped) and files checked in sorted
order; - reads one file from stdin (--stdin-filename names it). The nearest
harn.toml selects rules and severities ([lint]); // harn-ignore CODE: reason
comments silence a line. --fix applies the fixes diagnostics carry. Exit
status: 0 without error diagnostics, 1 with some, 2 for a usage error or an
unreadable path.`,
		setup: func(fs *flagSet) action {
			var out outputFlags
			out.register(fs)
			var cache cacheFlags
			cache.register(fs)
			registerShard(fs, &cache.shard, shardCheckHelp)
			var fix fixFlags
			fix.register(fs)
			var stdinName string
			fs.StringVar(&stdinName, "stdin-filename", "", "the `path` stdin (-) is reported as; its folder is where imports and harn.toml are found (default <stdin>, checked as Harn)")
			return func(e *env, paths []string) int {
				render, color, err := out.resolve(e)
				if err != nil {
					return fail(e, "%v", err)
				}
				if len(paths) == 0 {
					return fail(e, "no paths given (usage: harn-check [check] [FLAGS] PATH...)")
				}
				if fix.unsafe && !fix.fix {
					return fail(e, "--unsafe-fixes goes with --fix")
				}
				manifests := printsManifests(out.format)
				check := func() (*diagnostics.Report, error) { return checkPaths(e, cache, paths, manifests) }
				switch {
				case slices.Contains(paths, "-"):
					if len(paths) > 1 {
						return fail(e, "- (stdin) is checked alone, not with other paths")
					}
					if fix.fix || cache.shard.s != nil {
						return fail(e, "--fix and --shard work on files, not stdin")
					}
					check = func() (*diagnostics.Report, error) { return checkStdin(e, cache, stdinName) }
				case stdinName != "":
					return fail(e, "--stdin-filename names stdin: give - as the path")
				}
				return reportChecked(e, fix, check, render, color)
			}
		},
	}
}
