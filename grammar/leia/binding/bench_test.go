package binding

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	golang "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/grammar/tsutil"
)

// largeLeia repeats the example programs until the text reaches size bytes.
func largeLeia(b *testing.B, size int) []byte {
	b.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "examples", "leia", "*.leia"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no Leia examples: %v", err)
	}
	var parts [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		parts = append(parts, data, []byte("\n"))
	}
	var buf bytes.Buffer
	for buf.Len() < size {
		for _, p := range parts {
			buf.Write(p)
		}
	}
	return buf.Bytes()
}

// BenchmarkParse parses 1 MB of the example programs.
func BenchmarkParse(b *testing.B) {
	src := largeLeia(b, 1<<20)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		ParseTree(src, nil).Close()
	}
}

// BenchmarkParseAndLower parses the same megabyte and lowers the tree
// (snapshot plus ast.Lower), timing both steps in the same loop; lowering's
// cost is reported as a ratio of the parse (lower/parse).
func BenchmarkParseAndLower(b *testing.B) {
	src := largeLeia(b, 1<<20)
	b.SetBytes(int64(len(src)))
	var parseTime, lowerTime time.Duration
	for b.Loop() {
		t0 := time.Now()
		tree := ParseTree(src, nil)
		t1 := time.Now()
		f := ast.Lower(Snapshot(tree.RootNode()), src)
		t2 := time.Now()
		tree.Close()
		if len(f.Errors) > 0 {
			b.Fatalf("examples have %d syntax errors", len(f.Errors))
		}
		runtime.KeepAlive(f)
		parseTime += t1.Sub(t0)
		lowerTime += t2.Sub(t1)
	}
	if parseTime > 0 {
		b.ReportMetric(float64(lowerTime)/float64(parseTime), "lower/parse")
	}
}

// BenchmarkReferenceGoParse parses about 1 MB of Go source with the
// official tree-sitter-go parser in the same run: the yardstick for
// BenchmarkParse.
func BenchmarkReferenceGoParse(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	var buf bytes.Buffer
	for _, f := range files {
		if buf.Len() >= 1<<20 {
			break
		}
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		buf.Write(data)
	}
	src := buf.Bytes()
	lang := sitter.NewLanguage(unsafe.Pointer(golang.Language()))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		p := sitter.NewParser()
		if err := p.SetLanguage(lang); err != nil {
			b.Fatal(err)
		}
		tsutil.Parse(p, src, nil).Close()
		p.Close()
	}
}

// leiaLines generates a Leia file of at least n lines: functions with
// loops, tables and string interpolation, and current-form tool blocks.
func leiaLines(n int) []byte {
	return repeatLines(n, "func step%[1]d(x, ...) {\n  y := x * %[2]d + 1\n  for k, v := range {a: y, b: [1, 2]} {\n    print(\"${k}=${v}\")\n  }\n  return y, #t\n}\nt%[1]d := tool {\n  name: \"t%[1]d\"\n  run: func(q) { return q .. \"!\" }\n}\n")
}

// repeatLines instantiates form (with %[1]d an index and %[2]d a digit)
// until the text has at least n lines.
func repeatLines(n int, form string) []byte {
	var buf bytes.Buffer
	for i := 0; bytes.Count(buf.Bytes(), []byte("\n")) < n; i++ {
		fmt.Fprintf(&buf, form, i, i%9)
	}
	return buf.Bytes()
}

// BenchmarkIncrementalReparse changes one character in the middle of a
// 5,000-line file (a digit) and reparses with the edited old tree; each
// iteration also parses the edited text from scratch, and the ratio
// incremental/fresh is reported. The sub-benchmarks are files made of one
// form only, to show which forms the runtime can reuse.
func BenchmarkIncrementalReparse(b *testing.B) {
	for _, c := range []struct{ name, form string }{
		{"mixed", ""},
		{"functions", "func step%[1]d(x) {\n  y := x * %[2]d + 1\n  return y\n}\n"},
		{"top-level-assignments", "x%[1]d := %[2]d + 1\n"},
		{"top-level-calls", "print(a%[1]d, %[2]d + 1)\n"},
		{"tool-blocks", "t%[1]d := tool {\n  name: \"t%[1]d\"\n  limit: %[2]d + 1\n}\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			src := leiaLines(5000)
			if c.form != "" {
				src = repeatLines(5000, c.form)
			}
			benchReparse(b, src)
		})
	}
}

func benchReparse(b *testing.B, src []byte) {
	off := bytes.Index(src[len(src)/2:], []byte("+ 1")) + len(src)/2 + 2
	edited := append([]byte(nil), src...)
	edited[off] = '2'
	base := ParseTree(src, nil)
	defer base.Close()
	if base.RootNode().HasError() {
		b.Fatal("the generated file has syntax errors")
	}
	pos := point(src, off)
	end := sitter.Point{Row: pos.Row, Column: pos.Column + 1}
	edit := &sitter.InputEdit{
		StartByte: uint(off), OldEndByte: uint(off + 1), NewEndByte: uint(off + 1),
		StartPosition: pos, OldEndPosition: end, NewEndPosition: end,
	}
	var incr, fresh time.Duration
	for b.Loop() {
		old := base.Clone()
		old.Edit(edit)
		t0 := time.Now()
		re := ParseTree(edited, old)
		t1 := time.Now()
		full := ParseTree(edited, nil)
		t2 := time.Now()
		if re.RootNode().ToSexp() == "" {
			b.Fatal("empty tree")
		}
		re.Close()
		full.Close()
		old.Close()
		incr += t1.Sub(t0)
		fresh += t2.Sub(t1)
	}
	if fresh > 0 {
		b.ReportMetric(float64(incr)/float64(fresh), "incremental/fresh")
		b.ReportMetric(float64(incr.Microseconds())/float64(b.N), "incr-µs/op")
	}
}

// BenchmarkSnapshotRatio times the one-call Snapshot and the previous
// cursor walk (refSnapshot, kept in the tests) on the same tree, alternately
// in each iteration, and reports their time ratio.
func BenchmarkSnapshotRatio(b *testing.B) {
	src := largeLeia(b, 1<<20)
	tree := ParseTree(src, nil)
	defer tree.Close()
	var flat, ref time.Duration
	for b.Loop() {
		t0 := time.Now()
		runtime.KeepAlive(Snapshot(tree.RootNode()))
		t1 := time.Now()
		runtime.KeepAlive(refSnapshot(tree.RootNode()))
		t2 := time.Now()
		flat += t1.Sub(t0)
		ref += t2.Sub(t1)
	}
	n := float64(b.N)
	b.ReportMetric(flat.Seconds()*1e3/n, "snapshot-ms")
	b.ReportMetric(ref.Seconds()*1e3/n, "cursor-walk-ms")
	b.ReportMetric(ref.Seconds()/flat.Seconds(), "cursor/snapshot-time")
}
