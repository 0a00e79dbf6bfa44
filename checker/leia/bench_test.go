package leia_test

import (
	"fmt"
	"testing"
	"time"

	harn "github.com/harnlang/harn-check/checker/harn"
	leia "github.com/harnlang/harn-check/checker/leia"
	harnbinding "github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/grammar/leia/binding"
	"github.com/harnlang/harn-check/internal/gencorpus"
)

// TestGeneratedCorpusIsClean keeps the benchmark's corpus honest: every
// generated module must check clean (no diagnostic at all).
func TestGeneratedCorpusIsClean(t *testing.T) {
	for i, f := range gencorpus.Leia(30) {
		for _, d := range leia.Check(fmt.Sprintf("m%d.leia", i), f, leia.Options{}).Diagnostics {
			t.Errorf("module %d: %s %s", i, d.Code, d.Message)
		}
	}
}

// BenchmarkCheckVsParse measures, in the same run, Leia's parse-only
// throughput (tree-sitter parse plus lowering to the AST) and full-check
// throughput (parse, name resolution, the AI facts and every rule) over a
// generated 1,000-file corpus, and the same pair for Harn over Harn's
// generated corpus as the reference: check/parse is 1 when checking is
// free and 0.5 when it doubles the cost of parsing; leia/harn compares the
// two ratios (1 or more: checking Leia costs no more, relative to parsing,
// than checking Harn). Files are interleaved so that machine load hits
// every measurement alike.
func BenchmarkCheckVsParse(b *testing.B) {
	leiaFiles := gencorpus.Leia(1000)
	harnFiles := gencorpus.Harn(1000)
	leiaBytes, harnBytes := 0, 0
	for _, f := range leiaFiles {
		leiaBytes += len(f)
	}
	for _, f := range harnFiles {
		harnBytes += len(f)
	}
	var lp, lc, hp, hc time.Duration
	for b.Loop() {
		for i := range leiaFiles {
			name := fmt.Sprintf("m%d.leia", i)
			start := time.Now()
			binding.Parse(name, leiaFiles[i])
			lp += time.Since(start)
			start = time.Now()
			res := leia.Check(name, leiaFiles[i], leia.Options{})
			lc += time.Since(start)
			if len(res.Diagnostics) != 0 {
				b.Fatalf("generated Leia module %d is not clean: %s %s", i, res.Diagnostics[0].Code, res.Diagnostics[0].Message)
			}
			hname := fmt.Sprintf("m%d.harn", i)
			start = time.Now()
			harnbinding.Parse(hname, harnFiles[i])
			hp += time.Since(start)
			start = time.Now()
			harn.Check(hname, harnFiles[i], harn.Options{})
			hc += time.Since(start)
		}
	}
	n := float64(b.N)
	b.ReportMetric(n*float64(leiaBytes)/1e6/lp.Seconds(), "leia-parse-MB/s")
	b.ReportMetric(n*float64(leiaBytes)/1e6/lc.Seconds(), "leia-check-MB/s")
	b.ReportMetric(lp.Seconds()/lc.Seconds(), "leia-check/parse")
	b.ReportMetric(hp.Seconds()/hc.Seconds(), "harn-check/parse")
	b.ReportMetric((lp.Seconds()/lc.Seconds())/(hp.Seconds()/hc.Seconds()), "leia/harn")
}
