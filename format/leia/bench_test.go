package leia

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/harnlang/harn-check/grammar/leia/binding"
)

// benchSource is a Leia file of about lines lines: the inputs of testdata,
// the corpus and the repository's examples, repeated.
func benchSource(b *testing.B, lines int) []byte {
	b.Helper()
	var parts [][]byte
	for _, pattern := range []string{"testdata/*.leia", "../testdata/corpus/*.leia", "../../examples/leia/*.leia"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil || bytes.HasPrefix(data, []byte("#!")) {
				continue
			}
			parts = append(parts, data, []byte("\n"))
		}
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

// BenchmarkFormat5000 is format/harn's benchmark for Leia: a 5,000-line
// file formatted and parsed alone in the same iteration; format/parse is
// the median of the wall-time ratios, cpu-format/parse the ratio of the
// process's CPU time.
func BenchmarkFormat5000(b *testing.B) {
	src := benchSource(b, 5000)
	var parse, format []time.Duration
	var cpuParse, cpuFormat time.Duration
	for b.Loop() {
		c0 := cpuTime()
		t0 := time.Now()
		binding.ParseTree(src, nil).Close()
		t1 := time.Now()
		c1 := cpuTime()
		if _, err := Format(src); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		c2 := cpuTime()
		parse = append(parse, t1.Sub(t0))
		format = append(format, t2.Sub(t1))
		cpuParse += c1 - c0
		cpuFormat += c2 - c1
	}
	ratios := make([]float64, len(parse))
	for i := range parse {
		ratios[i] = float64(format[i]) / float64(parse[i])
	}
	slices.Sort(ratios)
	slices.Sort(parse)
	slices.Sort(format)
	b.ReportMetric(float64(bytes.Count(src, []byte("\n"))), "lines")
	b.ReportMetric(ratios[len(ratios)/2], "format/parse")
	b.ReportMetric(float64(cpuFormat)/float64(cpuParse), "cpu-format/parse")
	b.ReportMetric(float64(parse[len(parse)/2])/1e6, "ms/parse")
	b.ReportMetric(float64(format[len(format)/2])/1e6, "ms/format")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
