package harn_test

import (
	"testing"

	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/diagnostics"
)

// TestExplainExamples runs the Wrong and Right examples of the explanation
// page of every code the Harn checker's rules report: the code must fire
// for the wrong example and not for the right one.
func TestExplainExamples(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range harn.Rules {
		for _, code := range r.Codes {
			if seen[code] {
				continue
			}
			seen[code] = true
			info, ok := diagnostics.Lookup(code)
			if !ok {
				t.Errorf("%s: no explanation page", code)
				continue
			}
			t.Run(code, func(t *testing.T) {
				if info.Wrong.Lang != "harn" || info.Right.Lang != "harn" {
					t.Fatalf("examples are %q and %q, want harn", info.Wrong.Lang, info.Right.Lang)
				}
				if !fires(info.Wrong.Code, code) {
					t.Errorf("wrong example does not produce %s:\n%s\ngot %v", code, info.Wrong.Code, codes(info.Wrong.Code))
				}
				if fires(info.Right.Code, code) {
					t.Errorf("right example produces %s:\n%s", code, info.Right.Code)
				}
			})
		}
	}
}

func check(src string) []diagnostics.Diagnostic {
	return harn.Check("example.harn", []byte(src), harn.Options{}).Diagnostics
}

func fires(src, code string) bool {
	for _, d := range check(src) {
		if d.Code == code {
			return true
		}
	}
	return false
}

func codes(src string) []string {
	var out []string
	for _, d := range check(src) {
		out = append(out, d.Code+" "+d.Message)
	}
	return out
}
