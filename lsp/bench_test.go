package lsp_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/lsp/lsptest"
	"github.com/harnlang/harn-check/lsp/tsquery"
)

// benchSource returns a Fake document of n lines, a few of them with
// diagnostics, about 30 bytes a line like a typical Harn program.
func benchSource(n int) string {
	var b strings.Builder
	for i := range n {
		switch {
		case i%500 == 0:
			fmt.Fprintf(&b, "def step_%d {\n", i)
		case i%500 == 499:
			b.WriteString("}\n")
		case i%250 == 7:
			fmt.Fprintf(&b, "  let v%d = bad + %d // é\n", i, i)
		default:
			fmt.Fprintf(&b, "  let v%d = value(%d) + x\n", i, i)
		}
	}
	return b.String()
}

// BenchmarkDidChangeToDiagnostics measures the latency from sending a
// one-character didChange of a 5,000-line document to receiving its
// publishDiagnostics, with no debounce (the debounce delay, 75 ms by
// default, adds to it in an editor). Reported: median and p95 latency, and
// as a reference measured in the same run the checker's own time on the
// same text, so the server's overhead is the difference.
func BenchmarkDidChangeToDiagnostics(b *testing.B) {
	src := benchSource(5000)
	opts := testOptions()
	c := lsptest.Start(b, opts)
	c.Initialize("file:///w", nil)
	const uri = "file:///w/big.fake"
	c.Open(uri, "fake", 0, src)
	c.WaitDiagnostics(uri, 0)
	lang, _ := driver.Lookup("x.fake")
	lat := make([]time.Duration, 0, b.N)
	checks := make([]time.Duration, 0, b.N)
	text := []byte(src)
	b.ResetTimer()
	for i := range b.N {
		v := int32(i + 1)
		e := lsptest.Edit{StartLine: 2500, StartChar: 6, EndLine: 2500, EndChar: 6, Text: "x"}
		if i%2 == 1 {
			e = lsptest.Edit{StartLine: 2500, StartChar: 6, EndLine: 2500, EndChar: 7}
		}
		start := time.Now()
		c.Change(uri, v, e)
		c.WaitDiagnostics(uri, v)
		lat = append(lat, time.Since(start))
		// The reference, interleaved so both see the same machine load:
		// the checker alone on a text of the same size.
		b.StopTimer()
		start = time.Now()
		lang.Check("big.fake", text)
		checks = append(checks, time.Since(start))
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(lat)
	slices.Sort(checks)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	median, p95 := lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*95/100)]
	check := checks[len(checks)/2]
	b.ReportMetric(ms(median), "ms-median")
	b.ReportMetric(ms(p95), "ms-p95")
	b.ReportMetric(ms(check), "ms-check-median")
	b.ReportMetric(ms(checks[min(len(checks)-1, len(checks)*95/100)]), "ms-check-p95")
	b.ReportMetric(ms(median-check), "ms-overhead-median")
}

// BenchmarkOpenFiles200 measures the heap in use with 200 open documents
// of 1,000 lines each, all analysed, against the size of their text.
func BenchmarkOpenFiles200(b *testing.B) {
	src := benchSource(1000)
	for range b.N {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c := lsptest.Start(b, testOptions())
		c.Initialize("file:///w", nil)
		for i := range 200 {
			c.Open(fmt.Sprintf("file:///w/f%03d.fake", i), "fake", 1, src)
		}
		for i := range 200 {
			c.WaitDiagnostics(fmt.Sprintf("file:///w/f%03d.fake", i), 1)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap := float64(after.HeapAlloc) - float64(before.HeapAlloc)
		text := float64(200 * len(src))
		b.ReportMetric(heap/(1<<20), "MB-heap")
		b.ReportMetric(text/(1<<20), "MB-text")
		b.ReportMetric(heap/text, "heap/text")
		if err := c.Shutdown(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDidChangeWithTree measures didChange -> publishDiagnostics for a
// 5,000-line document of a tree-sitter language (tree-sitter-go standing in
// for Harn), so the incremental reparse is on the path, with a checker that
// reports nothing: the server's floor under any real checker. Reference, in
// the same loop: a fresh (non-incremental) parse of the same text.
func BenchmarkDidChangeWithTree(b *testing.B) {
	registerGoStandIn(b)
	var src strings.Builder
	src.WriteString("package main\n\n")
	for i := range 4998 / 4 {
		fmt.Fprintf(&src, "func f%d(x int) int {\n\ty := x + %d // é\n\treturn y\n}\n", i, i)
	}
	text := src.String()
	c := lsptest.Start(b, testOptions())
	c.Initialize("file:///w", nil)
	const uri = "file:///w/big.gostandin"
	c.Open(uri, "", 0, text)
	c.WaitDiagnostics(uri, 0)
	lat := make([]time.Duration, 0, b.N)
	fresh := make([]time.Duration, 0, b.N)
	syn := tsquery.NewSyntax(sitter.NewLanguage(tsgo.Language()))
	b.ResetTimer()
	for i := range b.N {
		v := int32(i + 1)
		e := lsptest.Edit{StartLine: 2500, StartChar: 6, EndLine: 2500, EndChar: 6, Text: "z"}
		if i%2 == 1 {
			e = lsptest.Edit{StartLine: 2500, StartChar: 6, EndLine: 2500, EndChar: 7}
		}
		start := time.Now()
		c.Change(uri, v, e)
		c.WaitDiagnostics(uri, v)
		lat = append(lat, time.Since(start))
		b.StopTimer()
		start = time.Now()
		syn.Parse(nil, nil, []byte(text)).Close()
		fresh = append(fresh, time.Since(start))
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(lat)
	slices.Sort(fresh)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[len(lat)/2]), "ms-median")
	b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*95/100)]), "ms-p95")
	b.ReportMetric(ms(fresh[len(fresh)/2]), "ms-fresh-parse-median")
}
