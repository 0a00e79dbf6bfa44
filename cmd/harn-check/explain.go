package main

import (
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
	Wrong explainExample `json:"wrong"`
	Right explainExample `json:"right"`
}

// explainExample is the wire form of a diagnostics.Example, so the JSON
// keys stay lower-case like the rest of the document.
type explainExample struct {
	Lang string `json:"lang"`
	Code string `json:"code"`
}

func explainCommand() *command {
	return &command{
		name: "explain", args: "[CODE...]", summary: "explain a diagnostic code",
		about: "Without a code, list every code with its severity and summary.",
		setup: func(fs *flagSet) action {
			asJSON := fs.Bool("json", false, "print the explanation as JSON")
			return func(e *env, codes []string) int { return runExplain(e, codes, *asJSON) }
		},
	}
}

func runExplain(e *env, codes []string, asJSON bool) int {
	if len(codes) == 0 {
		// Without a code, list every code with its summary.
		if asJSON {
			type entry struct {
				Code     string `json:"code"`
				Severity string `json:"severity"`
				Summary  string `json:"summary"`
			}
			list := []entry{}
			for _, c := range diagnostics.Codes() {
				list = append(list, entry{c.Code, c.Severity.String(), c.Summary})
			}
			if err := printJSON(e, list); err != nil {
				return fail(e, "writing output: %v", err)
			}
			return exitOK
		}
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
		if asJSON {
			if err := printJSON(e, explainJSON{
				Code: info.Code, Severity: info.Severity.String(), Summary: info.Summary, Title: info.Title,
				Explanation: info.Explanation, Examples: explainExam{
					Wrong: explainExample{Lang: info.Wrong.Lang, Code: info.Wrong.Code},
					Right: explainExample{Lang: info.Right.Lang, Code: info.Right.Code},
				},
			}); err != nil {
				return fail(e, "writing output: %v", err)
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprintf(e.stdout, "%s (%s): %s\n\n%s", info.Code, info.Severity, info.Summary, info.Explanation)
	}
	return exitOK
}
