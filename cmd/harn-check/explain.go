package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
)

// explainJSON is the --json form of an explanation.
type explainJSON struct {
	Code        string      `json:"code"`
	Severity    string      `json:"severity"`
	Summary     string      `json:"summary"`
	Title       string      `json:"title"`
	Explanation string      `json:"explanation"`
	Examples    explainExam `json:"examples"`
}

type explainExam struct {
	Wrong diagnostics.Example `json:"wrong"`
	Right diagnostics.Example `json:"right"`
}

func runExplain(e *env, args []string) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the explanation as JSON")
	codes, ok := parseFlags(e, fs, args)
	if !ok {
		return exitUsage
	}
	if len(codes) == 0 {
		// Without a code, list every code with its summary.
		for _, c := range diagnostics.Codes() {
			fmt.Fprintf(e.stdout, "%-14s %-8s %s\n", c.Code, c.Severity, c.Summary)
		}
		return exitOK
	}
	for i, code := range codes {
		info, ok := diagnostics.Lookup(strings.ToUpper(code))
		if !ok {
			return fail(e, "unknown diagnostic code %q (run 'harn-check explain' to list them)", code)
		}
		if *asJSON {
			data, err := json.MarshalIndent(explainJSON{
				Code: info.Code, Severity: info.Severity.String(), Summary: info.Summary, Title: info.Title,
				Explanation: info.Explanation, Examples: explainExam{Wrong: info.Wrong, Right: info.Right},
			}, "", "  ")
			if err != nil {
				return fail(e, "internal error: %v", err)
			}
			fmt.Fprintf(e.stdout, "%s\n", data)
			continue
		}
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprintf(e.stdout, "%s (%s): %s\n\n%s", info.Code, info.Severity, info.Summary, info.Explanation)
	}
	return exitOK
}
