package harn_test

import (
	"fmt"
	"testing"
	"time"

	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/internal/gencorpus"
)

// BenchmarkCheckVsParse measures, in the same run, parse-only throughput
// (tree-sitter parse plus lowering to the AST) and full-check throughput
// (parse, inference and every rule) over a generated 1,000-file corpus,
// and reports files/s and MB/s of each and their ratio (check/parse; 1
// means checking is free, 0.5 means it doubles the cost of parsing).
func BenchmarkCheckVsParse(b *testing.B) {
	files := gencorpus.Harn(1000)
	total := 0
	for _, f := range files {
		total += len(f)
	}
	var parse, check time.Duration
	for b.Loop() {
		// Interleaved file by file so that machine load hits both
		// measurements alike.
		for i, f := range files {
			name := fmt.Sprintf("m%d.harn", i)
			start := time.Now()
			binding.Parse(name, f)
			parse += time.Since(start)
			start = time.Now()
			res := harn.Check(name, f, harn.Options{})
			check += time.Since(start)
			if len(res.Diagnostics) != 0 {
				b.Fatalf("generated module %d is not clean: %s %s", i, res.Diagnostics[0].Code, res.Diagnostics[0].Message)
			}
		}
	}
	n := float64(b.N)
	mb := float64(total) / 1e6
	b.ReportMetric(n*float64(len(files))/parse.Seconds(), "parse-files/s")
	b.ReportMetric(n*mb/parse.Seconds(), "parse-MB/s")
	b.ReportMetric(n*float64(len(files))/check.Seconds(), "check-files/s")
	b.ReportMetric(n*mb/check.Seconds(), "check-MB/s")
	b.ReportMetric(parse.Seconds()/check.Seconds(), "check/parse")
}
