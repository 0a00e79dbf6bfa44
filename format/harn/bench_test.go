package harn

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/harnlang/harn-check/grammar/harn/binding"
)

// benchSource is a Harn file of about lines lines: the unformatted inputs
// of testdata and the repository's examples, repeated.
func benchSource(b *testing.B, lines int) []byte {
	b.Helper()
	var parts [][]byte
	for _, pattern := range []string{"testdata/*.harn", "../testdata/corpus/*.harn", "../../examples/*/*.harn"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil || bytes.HasPrefix(data, []byte("#!")) {
				continue
			}
			parts = append(parts, data, []byte("\n"))
		}
	}
	if len(parts) == 0 {
		b.Fatal("no Harn sources")
	}
	var buf bytes.Buffer
	for bytes.Count(buf.Bytes(), []byte("\n")) < lines {
		for _, p := range parts {
			buf.Write(p)
		}
	}
	src := buf.Bytes()
	if _, err := Format(src); err != nil {
		b.Fatalf("the benchmark input does not format: %v", err)
	}
	return src
}

// BenchmarkFormat5000 formats a 5,000-line Harn file and, in the same
// iteration, parses it alone (the tree-sitter parse every consumer pays).
// format/parse is the whole Format call (parse, tree copy, layout,
// printing) over that parse, as the median over iterations of wall time;
// cpu-format/parse is the same with the process's CPU time (getrusage),
// which a load spike on this shared machine cannot inflate. verify/parse
// is the safety check (Verify: two parses and a tree comparison) over the
// parse. ms/parse and ms/format are wall-time medians.
func BenchmarkFormat5000(b *testing.B) {
	src := benchSource(b, 5000)
	var parse, format, verify []time.Duration
	var cpuParse, cpuFormat time.Duration
	for b.Loop() {
		c0 := cpuTime()
		t0 := time.Now()
		binding.ParseTree(src, nil).Close()
		t1 := time.Now()
		c1 := cpuTime()
		out, err := Format(src)
		t2 := time.Now()
		c2 := cpuTime()
		if err != nil {
			b.Fatal(err)
		}
		if err := Verify(src, out); err != nil {
			b.Fatal(err)
		}
		t3 := time.Now()
		parse = append(parse, t1.Sub(t0))
		format = append(format, t2.Sub(t1))
		verify = append(verify, t3.Sub(t2))
		cpuParse += c1 - c0
		cpuFormat += c2 - c1
	}
	b.ReportMetric(float64(bytes.Count(src, []byte("\n"))), "lines")
	b.ReportMetric(medianRatio(format, parse), "format/parse")
	b.ReportMetric(float64(cpuFormat)/float64(cpuParse), "cpu-format/parse")
	b.ReportMetric(medianRatio(verify, parse), "verify/parse")
	b.ReportMetric(float64(median(parse))/1e6, "ms/parse")
	b.ReportMetric(float64(median(format))/1e6, "ms/format")
}

// cpuTime is the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianRatio(a, b []time.Duration) float64 {
	r := make([]float64, len(a))
	for i := range a {
		r[i] = float64(a[i]) / float64(b[i])
	}
	slices.Sort(r)
	return r[len(r)/2]
}
