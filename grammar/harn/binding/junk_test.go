package binding

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// junkLines is n lines of a character no token holds and a token that
// could start a declaration: tree-sitter's error recovery merged every
// error into the one before it, re-summarising all of them each time.
func junkLines(n int) []byte { return []byte(strings.Repeat("é @\n", n)) }

// TestJunkLinesLinear (issue #25): 20,000 lines of `é @` parse and lower
// in about a second; the work was quadratic (a minute, over two for
// `parse`). The deadline is a hang guard thirty times what the linear
// parse needs, not a measurement. The unexpected characters are still
// reported, each on its line.
func TestJunkLinesLinear(t *testing.T) {
	src := junkLines(20000)
	type result struct {
		codes map[string]int
		first string
	}
	done := make(chan result, 1)
	go func() {
		_, diags := ParseWith("junk.harn", src, Options{MaxSyntaxErrors: 100000})
		r := result{codes: map[string]int{}}
		for _, d := range diags {
			r.codes[d.Code]++
		}
		if len(diags) > 0 {
			r.first = fmt.Sprintf("%d %s", diags[0].Span.Start, diags[0].Message)
		}
		done <- r
	}()
	select {
	case r := <-done:
		if r.codes["HARN-PAR-003"] != 20000 || r.first != "0 Unexpected character 'é' at 1:1" {
			t.Errorf("diagnostics %v, first %q; want 20,000 HARN-PAR-003, the first at 0", r.codes, r.first)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("parsing 20,000 junk lines did not end in 30 s: error recovery is not linear")
	}
}

// BenchmarkParseJunkLines: the parse and lowering of n junk lines; the
// time per line stays flat as n grows.
func BenchmarkParseJunkLines(b *testing.B) {
	for _, n := range []int{2500, 10000, 40000} {
		src := junkLines(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				ParseWith("junk.harn", src, Options{})
			}
		})
	}
}
