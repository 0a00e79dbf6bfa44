package binding

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/harnlang/harn-check/grammar/leia/ast"
)

// benchSource concatenates the example programs into one file.
func benchSource(b *testing.B) []byte {
	b.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "examples", "leia", "*.leia"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no Leia examples: %v", err)
	}
	var src []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		src = append(append(src, data...), '\n')
	}
	return src
}

// BenchmarkParseAndLower measures parsing the examples and lowering the
// tree (snapshot plus ast.Lower) in the same run, and reports lowering's
// cost as a ratio of the parse (lower/parse).
func BenchmarkParseAndLower(b *testing.B) {
	src := benchSource(b)
	b.SetBytes(int64(len(src)))
	var parseTime, lowerTime time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		tree := ParseTree(src, nil)
		t1 := time.Now()
		f := ast.Lower(Snapshot(tree.RootNode()), src)
		t2 := time.Now()
		tree.Close()
		if len(f.Errors) > 0 {
			b.Fatalf("examples have %d syntax errors", len(f.Errors))
		}
		parseTime += t1.Sub(t0)
		lowerTime += t2.Sub(t1)
	}
	if parseTime > 0 {
		b.ReportMetric(float64(lowerTime)/float64(parseTime), "lower/parse")
	}
}

// BenchmarkIncrementalReparse measures reparsing after a one-byte edit
// against a fresh parse of the same text, reported as incremental/fresh.
func BenchmarkIncrementalReparse(b *testing.B) {
	src := benchSource(b)
	old := ParseTree(src, nil)
	defer old.Close()
	var incr, fresh time.Duration
	for i := 0; i < b.N; i++ {
		edited := old.Clone()
		edited.Edit(editAt(src, len(src)/2))
		t0 := time.Now()
		re := ParseTree(src, edited)
		t1 := time.Now()
		full := ParseTree(src, nil)
		t2 := time.Now()
		re.Close()
		full.Close()
		edited.Close()
		incr += t1.Sub(t0)
		fresh += t2.Sub(t1)
	}
	if fresh > 0 {
		b.ReportMetric(float64(incr)/float64(fresh), "incremental/fresh")
	}
}
