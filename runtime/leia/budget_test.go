package leia

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/execution"
)

// Natives charge their bulk work (issue 25): building large strings meets
// the memory budget within a few iterations, walking a table that shares
// itself (2^100 leaves) meets the step budget, and neither can be caught.
func TestNativesChargeTheirWork(t *testing.T) {
	shared := "l := [1]\nm := [1]\nfor i := 0; i < 100; i++ { l = [l, l]; m = [m, m] }\n"
	for _, tc := range []struct {
		name, src string
		res       execution.Resource
		limits    execution.Limits
	}{
		{"concat", `s := string.rep("x", 8000000); l := []; for { pcall(func() { l[#l+1] = s .. "y" }) }`, execution.Memory, execution.Limits{Memory: 48 << 20}},
		{"concat chain", `s := string.rep("x", 8000000); l := []; for { l[#l+1] = s .. "y" .. "z" }`, execution.Memory, execution.Limits{Memory: 48 << 20}},
		{"rep", `l := []; for { l[#l+1] = string.rep("ab", 4000000) }`, execution.Memory, execution.Limits{Memory: 48 << 20}},
		{"table.concat", `p := [string.rep("x", 1000000)]; for i := 2; i <= 8; i++ { p[i] = p[1] }; l := []; for { l[#l+1] = table.concat(p) }`, execution.Memory, execution.Limits{Memory: 48 << 20}},
		{"json.encode shared", shared + `for { pcall(json.encode, l) }`, execution.Steps, execution.Limits{Steps: 2_000_000}},
		{"testkit.equal shared", shared + `for { pcall(testkit.equal, l, m) }`, execution.Steps, execution.Limits{Steps: 2_000_000}},
		{"testkit.inspect shared", "l := [1]\nfor i := 0; i < 150; i++ { l = [l, l, l, l, l, l, l, l, l, l, l, l, l, l, l, l, l, l, l, l] }\n" + `for { pcall(testkit.inspect, l) }`, execution.Steps, execution.Limits{Steps: 300_000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := tc.limits
			lim.Time = 20 * time.Second
			_, err := compileRun(t, tc.src, Options{Stdout: &bytes.Buffer{}, Limits: lim}, context.Background())
			var le *execution.LimitError
			if !errors.As(err, &le) || le.Resource != tc.res {
				t.Fatalf("got %v, want the %s budget's stop", err, execution.LimitOf(tc.res).Flag)
			}
		})
	}
}

// gsub with a large replacement builds a large string from a small
// subject: it is charged as it grows, and refused past the string cap.
func TestGsubIsCharged(t *testing.T) {
	src := `big := string.rep("x", 1000000); s := string.rep("a", 200); l := []; for { l[#l+1] = string.gsub(s, "a", big) }`
	_, err := compileRun(t, src, Options{Stdout: &bytes.Buffer{}, Limits: execution.Limits{Memory: 48 << 20, Time: 20 * time.Second}}, context.Background())
	var le *execution.LimitError
	if !errors.As(err, &le) || le.Resource != execution.Memory {
		t.Fatalf("got %v, want the memory budget's stop", err)
	}
	_, err = compileRun(t, `big := string.rep("x", 1000000); s := string.rep("a", 200); return string.gsub(s, "a", big)`, Options{Stdout: &bytes.Buffer{}, MaxStringBytes: 64 << 20}, context.Background())
	if err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("got %v, want the string cap's error", err)
	}
}

// Natives are charged the strings they are given: a loop searching a
// 4 MB string meets the step budget within a few dozen calls.
func TestNativeInputIsCharged(t *testing.T) {
	for _, loop := range []string{`string.find(s, "b", 1, true)`, `s:find("b+")`, `string.upper(s)`} {
		src := `s := string.rep("a", 4000000); for { ` + loop + ` }`
		_, err := compileRun(t, src, Options{Stdout: &bytes.Buffer{}, Limits: execution.Limits{Steps: 500_000, Time: 20 * time.Second}}, context.Background())
		var le *execution.LimitError
		if !errors.As(err, &le) || le.Resource != execution.Steps {
			t.Fatalf("%s: got %v, want the step budget's stop", loop, err)
		}
	}
}
