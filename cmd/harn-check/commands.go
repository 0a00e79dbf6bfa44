package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/suggest"
	"github.com/harnlang/harn-check/internal/version"
)

// command is one entry of the command table (commands). Adding a command
// is adding one entry; help, usage errors, the did-you-mean for a
// mistyped command and the flag conventions (flags.go) come with it.
type command struct {
	name string
	// args is the synopsis of the positional arguments ("PATH...").
	args string
	// summary is the line the command list shows; about, when set, is the
	// paragraph the command's own usage adds.
	summary, about string
	// suggestFor lists words that are not commands but mean this one
	// ("format" for fmt). A first argument spelt so is refused with the
	// suggestion even when a file of that name exists, since the user
	// most likely meant the command (./format names the folder).
	suggestFor []string
	// setup declares the command's flags on fs and returns what runs
	// with the positional arguments. Nil for a group of subcommands.
	setup func(fs *flagSet) action
	// subcommands of a group such as llm.
	subcommands []*command
}

// action runs a command with its positional arguments, its flags set.
type action func(e *env, args []string) int

// commands is the command table, in the order help lists it.
func commands() []*command {
	return []*command{
		checkCommand(),
		lintCommand(),
		parseCommand(),
		manifestCommand(),
		explainCommand(),
		fmtCommand(),
		validateCommand(),
		validateOutputCommand(),
		llmCommand(),
		runCommand(),
		testCommand(),
		evaluateCommand(),
		mergeCommand(),
		versionCommand(),
	}
}

func versionCommand() *command {
	return &command{
		name: "version", summary: "print the version",
		setup: func(fs *flagSet) action {
			return func(e *env, args []string) int {
				if len(args) > 0 {
					return fail(e, "takes no arguments (got %q)", args[0])
				}
				fmt.Fprintf(e.stdout, "harn-check %s\n", version.Version)
				return exitOK
			}
		},
	}
}

// findCommand returns the command of list called name.
func findCommand(list []*command, name string) *command {
	for _, c := range list {
		if c.name == name {
			return c
		}
	}
	return nil
}

// run dispatches args to a command. A first argument that is not a
// command, not a flag and names an existing file or folder (or looks like
// a path) is checked: check is the default command.
func run(e *env, args []string) int {
	list := commands()
	if len(args) == 0 {
		e.cmd = ""
		topUsage(e.stderr, list)
		return exitUsage
	}
	switch first := args[0]; first {
	case "help":
		return runHelp(e, list, args[1:])
	case "-h", "-help", "--help":
		topUsage(e.stdout, list)
		return exitOK
	case "--version", "-version":
		return dispatch(e, findCommand(list, "version"), nil, args[1:])
	default:
		if c := findCommand(list, first); c != nil {
			return dispatch(e, c, nil, args[1:])
		}
	}
	check := findCommand(list, "check")
	if err := notACommand(list, args[0]); err != nil {
		fs := newFlagSet("check")
		check.setup(fs)
		e.cmd, e.format = "", requestedFormat(fs, args)
		return fail(e, "%v", err)
	}
	return dispatch(e, check, nil, args)
}

// notACommand returns the usage error for a first argument that is
// neither a command nor a path, or nil when it is to be checked.
func notACommand(list []*command, word string) error {
	if word == "-" || strings.HasPrefix(word, "-") {
		return nil
	}
	var names []string
	for _, c := range list {
		names = append(names, c.name)
		if slices.Contains(c.suggestFor, word) {
			msg := fmt.Sprintf("%q is not a command; did you mean %s?", word, c.name)
			if _, err := os.Lstat(word); err == nil {
				msg += fmt.Sprintf(" (to check the path %s, write ./%s or harn-check check %s)", word, word, word)
			}
			return usagef("%s", msg)
		}
	}
	if _, err := os.Lstat(word); err == nil || looksLikePath(word) {
		return nil
	}
	msg := fmt.Sprintf("%q is not a command, nor a file or folder", word)
	if near := suggest.Nearest(word, names, max(suggest.Limit(word), 1)); near != "" {
		msg += fmt.Sprintf("; did you mean %s?", near)
	}
	return usagef("%s (run 'harn-check help' for the commands)", msg)
}

// looksLikePath reports whether a word that names nothing is still meant
// as a path (so that the error is the missing path's): it has a folder
// separator or a source file's extension, or starts with a dot.
func looksLikePath(word string) bool {
	if strings.ContainsRune(word, '/') || strings.ContainsRune(word, filepath.Separator) || strings.HasPrefix(word, ".") {
		return true
	}
	switch strings.ToLower(filepath.Ext(word)) {
	case ".harn", ".leia", ".rhai", ".toml":
		return true
	}
	return false
}

// dispatch runs command c (whose parent commands are parents) with its
// arguments: a group picks its subcommand, a command parses its flags.
func dispatch(e *env, c *command, parents []string, args []string) int {
	path := append(slices.Clone(parents), c.name)
	e.cmd, e.format = strings.Join(path, " "), ""
	if c.setup == nil {
		return dispatchGroup(e, c, path, args)
	}
	fs := newFlagSet(e.cmd)
	act := c.setup(fs)
	e.format = requestedFormat(fs, args)
	positional, err := fs.parse(args)
	if errors.Is(err, errHelp) {
		commandUsage(e.stdout, c, path, fs)
		return exitOK
	}
	if err != nil {
		return fail(e, "%v; see 'harn-check %s -h'", err, e.cmd)
	}
	return act(e, positional)
}

func dispatchGroup(e *env, c *command, path []string, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "-h", "-help", "--help", "help":
			groupUsage(e.stdout, c, path)
			return exitOK
		}
		if sub := findCommand(c.subcommands, args[0]); sub != nil {
			return dispatch(e, sub, path, args[1:])
		}
		return fail(e, "%s", unknownSubcommand(c, args[0]))
	}
	return fail(e, "needs a subcommand: %s", strings.Join(subcommandNames(c), ", "))
}

func subcommandNames(c *command) []string {
	var names []string
	for _, s := range c.subcommands {
		names = append(names, s.name)
	}
	return names
}

func unknownSubcommand(c *command, word string) string {
	names := subcommandNames(c)
	msg := fmt.Sprintf("unknown subcommand %q (want %s)", word, strings.Join(names, ", "))
	if near := suggest.Nearest(word, names, max(suggest.Limit(word), 1)); near != "" {
		msg = fmt.Sprintf("unknown subcommand %q; did you mean %s?", word, near)
	}
	return msg
}

// runHelp is `harn-check help [COMMAND [SUBCOMMAND]]`.
func runHelp(e *env, list []*command, args []string) int {
	e.cmd, e.format = "help", ""
	if len(args) == 0 || len(args) == 1 && slices.Contains([]string{"-h", "-help", "--help"}, args[0]) {
		// help is a command too: -h prints its usage, which is the
		// top-level one.
		topUsage(e.stdout, list)
		return exitOK
	}
	c := findCommand(list, args[0])
	if c == nil {
		var names []string
		for _, c := range list {
			names = append(names, c.name)
			if slices.Contains(c.suggestFor, args[0]) {
				return fail(e, "%q is not a command; did you mean %s?", args[0], c.name)
			}
		}
		if near := suggest.Nearest(args[0], names, max(suggest.Limit(args[0]), 1)); near != "" {
			return fail(e, "%q is not a command; did you mean %s?", args[0], near)
		}
		return fail(e, "%q is not a command (run 'harn-check help' for the commands)", args[0])
	}
	path := []string{c.name}
	for _, a := range args[1:] {
		if c.setup != nil {
			return fail(e, "%s has no subcommands (got %q)", strings.Join(path, " "), a)
		}
		sub := findCommand(c.subcommands, a)
		if sub == nil {
			return fail(e, "%s: %s", strings.Join(path, " "), unknownSubcommand(c, a))
		}
		c, path = sub, append(path, sub.name)
	}
	if c.setup == nil {
		groupUsage(e.stdout, c, path)
		return exitOK
	}
	fs := newFlagSet(strings.Join(path, " "))
	c.setup(fs)
	commandUsage(e.stdout, c, path, fs)
	return exitOK
}

func topUsage(w io.Writer, list []*command) {
	fmt.Fprintf(w, "usage: harn-check [COMMAND] [FLAGS] [PATH...]\n\n")
	fmt.Fprintf(w, "Checks, formats, runs and tests Harn (.harn) and Leia (.leia) programs.\nWithout a command, harn-check checks the PATHs (harn-check check).\n\ncommands:\n")
	for _, c := range list {
		fmt.Fprintf(w, "  %-16s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'harn-check help COMMAND' or 'harn-check COMMAND -h' for a command's flags.\n")
}

func groupUsage(w io.Writer, c *command, path []string) {
	fmt.Fprintf(w, "usage: harn-check %s SUBCOMMAND [FLAGS]\n\n%s\n\nsubcommands:\n", strings.Join(path, " "), c.summary)
	for _, s := range c.subcommands {
		fmt.Fprintf(w, "  %-16s %s\n", s.name, s.summary)
	}
	fmt.Fprintf(w, "\nRun 'harn-check help %s SUBCOMMAND' for a subcommand's flags.\n", strings.Join(path, " "))
}

func commandUsage(w io.Writer, c *command, path []string, fs *flagSet) {
	synopsis := "harn-check " + strings.Join(path, " ")
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		synopsis += " [FLAGS]"
	}
	if c.args != "" {
		synopsis += " " + c.args
	}
	fmt.Fprintf(w, "usage: %s\n\n%s\n", synopsis, capitalize(c.summary))
	if c.about != "" {
		fmt.Fprintf(w, "\n%s\n", c.about)
	}
	if hasFlags {
		fmt.Fprintf(w, "\nflags (before or after the arguments; -- ends them):\n")
		fs.printDefaults(w)
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// msgf writes one message on stderr in the one style of every error
// and warning the CLI prints itself: "harn-check: CMD: message" (without
// "CMD: " before a command is known). It does not stop the command.
func msgf(e *env, format string, a ...any) {
	prefix := "harn-check: "
	if e.cmd != "" {
		prefix += e.cmd + ": "
	}
	fmt.Fprintln(e.stderr, prefix+fmt.Sprintf(format, a...))
}

// Error codes of the tool-level error in a JSON envelope or SARIF log.
const (
	errorCodeUsage    = "usage"
	errorCodeInternal = "internal"
)

// fail reports an error that stops the command, as one line on stderr
// ("harn-check: CMD: message"), and, when the command line asked for
// JSON, SARIF or GitHub annotations, also as that document on stdout
// (an envelope whose error is set; a SARIF log whose invocation failed
// with the message as a tool execution notification), so a pipeline
// reading stdout always gets a document. It returns the usage exit
// status, 2.
func fail(e *env, format string, a ...any) int {
	msg := fmt.Sprintf(format, a...)
	msgf(e, "%s", msg)
	code := errorCodeUsage
	if strings.HasPrefix(msg, "internal error") {
		code = errorCodeInternal
	}
	report := &diagnostics.Report{Error: &diagnostics.ToolMessage{Code: code, Message: msg}}
	switch e.format {
	case "json":
		_ = diagnostics.RenderJSON(e.stdout, report)
	case "sarif":
		_ = diagnostics.RenderSARIF(e.stdout, report, sarifOptions())
	case "github":
		_ = diagnostics.RenderGitHub(e.stdout, report)
	}
	return exitUsage
}
