package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/harnlang/harn-check/internal/suggest"
)

// The command line's conventions, the same for every command:
//
//   - Flags and positional arguments mix in any order: `evaluate FILE
//     --mock` is `evaluate --mock FILE`.
//   - A flag is spelt --name or -name; a value follows as --name=VALUE or
//     as the next argument (--name VALUE). A switch takes no value unless
//     it is written --name=false.
//   - A flag whose value is optional (optionalValue) stands alone, or
//     takes --name=VALUE, or takes the next argument when the flag
//     accepts that argument as its value.
//   - `--` ends the flags: what follows is positional, even when it starts
//     with `-`; `run` hands it to the program. A lone `-` is positional
//     (stdin).
//   - -h and --help print the command's usage on stdout and exit 0.
//   - Anything else starting with `-` is an unknown flag: a usage error
//     (exit 2) naming the nearest flag.

// errHelp is returned by parse for -h and --help.
var errHelp = errors.New("help requested")

// usageError is a mistake in the command line: exit status 2.
type usageError struct{ msg string }

func (u *usageError) Error() string { return u.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// optionalValue is a flag.Value whose value may be left out.
type optionalValue interface {
	flag.Value
	// SetPresent records the flag given without a value.
	SetPresent()
	// TakesValue reports whether next, the argument after the flag, is
	// its value.
	TakesValue(next string) bool
}

// optionalString is a string flag whose value may be left out: Given
// reports the flag was used, Value what it was given ("" when alone).
type optionalString struct {
	Given bool
	Value string
	// takes decides whether the argument after the flag is its value;
	// nil never takes it (only --name=VALUE gives one).
	takes func(next string) bool
}

func (o *optionalString) String() string {
	if o == nil {
		return ""
	}
	return o.Value
}

func (o *optionalString) Set(s string) error { o.Given, o.Value = true, s; return nil }

func (o *optionalString) SetPresent() { o.Given = true }

func (o *optionalString) TakesValue(next string) bool { return o.takes != nil && o.takes(next) }

// IsBoolFlag lets the flag stand alone in usage text.
func (o *optionalString) IsBoolFlag() bool { return true }

// flagSet is one command's flags: Go's flag.FlagSet holds the
// definitions, parse applies the conventions above.
type flagSet struct {
	*flag.FlagSet
	// dash is the number of positional arguments that came before "--",
	// or -1 when there was no "--".
	dash int
}

func newFlagSet(name string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &flagSet{FlagSet: fs, dash: -1}
}

// parse sets the flags in args and returns the positional arguments. It
// returns errHelp for -h/--help and a *usageError for anything it cannot
// take.
func (fs *flagSet) parse(args []string) ([]string, error) {
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			fs.dash = len(positional)
			return append(positional, args[i+1:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			continue
		}
		name := strings.TrimPrefix(a[1:], "-")
		name, value, hasValue := strings.Cut(name, "=")
		f := fs.Lookup(name)
		if f == nil {
			if name == "h" || name == "help" {
				return nil, errHelp
			}
			return nil, fs.unknown(a, name)
		}
		switch v := f.Value.(type) {
		case optionalValue:
			switch {
			case hasValue:
				if err := fs.Set(f.Name, value); err != nil {
					return nil, badValue(f, value, err)
				}
			case i+1 < len(args) && args[i+1] != "--" && v.TakesValue(args[i+1]):
				i++
				if err := fs.Set(f.Name, args[i]); err != nil {
					return nil, badValue(f, args[i], err)
				}
			default:
				v.SetPresent()
			}
			continue
		case interface{ IsBoolFlag() bool }:
			if v.IsBoolFlag() {
				if !hasValue {
					value = "true"
				}
				if err := fs.Set(f.Name, value); err != nil {
					return nil, badValue(f, value, err)
				}
				continue
			}
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, usagef("--%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if err := fs.Set(f.Name, value); err != nil {
			return nil, badValue(f, value, err)
		}
	}
	return positional, nil
}

// badValue is the usage error for a value a flag refused.
func badValue(f *flag.Flag, value string, err error) error {
	switch err.Error() {
	case "parse error":
		want := "a valid value"
		switch fmt.Sprintf("%T", f.Value) {
		case "*flag.intValue", "*flag.int64Value", "*flag.uintValue", "*flag.uint64Value":
			want = "a whole number"
		case "*flag.float64Value":
			want = "a number"
		case "*flag.durationValue":
			want = "a duration such as 30s, 2m or 1h30m"
		case "*flag.boolValue":
			want = "true or false"
		}
		return usagef("--%s %q: want %s", f.Name, value, want)
	case "value out of range":
		return usagef("--%s %q: out of range", f.Name, value)
	}
	return usagef("--%s %q: %v", f.Name, value, err)
}

// unknown is the usage error for an undefined flag, naming the nearest
// defined one.
func (fs *flagSet) unknown(arg, name string) error {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	msg := fmt.Sprintf("unknown flag %s", arg)
	if _, _, hasValue := strings.Cut(arg, "="); hasValue {
		msg = fmt.Sprintf("unknown flag --%s", name)
	}
	if near := suggest.Nearest(name, names, max(suggest.Limit(name), 1)); near != "" {
		return usagef("%s (did you mean --%s?)", msg, near)
	}
	return usagef("%s", msg)
}

// printDefaults writes the flags, sorted, one per line with their value
// placeholder, help and non-empty default.
func (fs *flagSet) printDefaults(w io.Writer) {
	type row struct{ left, help string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		placeholder, help := flag.UnquoteUsage(f)
		left := "--" + f.Name
		_, optional := f.Value.(optionalValue)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() && placeholder != "" {
			optional = true
		}
		switch {
		case optional:
			if placeholder == "" || placeholder == "value" {
				placeholder = "VALUE"
			}
			left += "[=" + strings.ToUpper(placeholder) + "]"
		default:
			if placeholder != "" {
				left += " " + strings.ToUpper(placeholder)
			}
		}
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "0s" && !strings.Contains(help, "default") {
			help += fmt.Sprintf(" (default %s)", d)
		}
		rows = append(rows, row{left, help})
		width = max(width, len(left))
	})
	sort.Slice(rows, func(i, j int) bool { return rows[i].left < rows[j].left })
	width = min(width, 28)
	for _, r := range rows {
		if len(r.left) > width {
			fmt.Fprintf(w, "  %s\n  %*s  %s\n", r.left, width, "", r.help)
			continue
		}
		fmt.Fprintf(w, "  %-*s  %s\n", width, r.left, r.help)
	}
}

// requestedFormat returns the output format args ask for (json for
// --json, else --format's value), read without parsing, so that a usage
// error in the same command line can still be reported in that format.
func requestedFormat(fs *flagSet, args []string) string {
	hasJSON, hasFormat := fs.Lookup("json") != nil, fs.Lookup("format") != nil
	format := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		switch {
		case name == "json" && hasJSON:
			if !hasValue || value == "true" {
				return "json"
			}
		case name == "format" && hasFormat:
			if !hasValue && i+1 < len(args) {
				i++
				value = args[i]
			}
			format = value
		}
	}
	return format
}
