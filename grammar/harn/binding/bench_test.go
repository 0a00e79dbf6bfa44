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

	"github.com/harnlang/harn-check/grammar/harn/lower"
	"github.com/harnlang/harn-check/grammar/tsutil"
)

// largeHarn concatenates the example programs, renaming nothing (the parser
// does not care), until the text reaches size bytes.
func largeHarn(b *testing.B, size int) []byte {
	b.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*", "*.harn"))
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

// linesOf generates a Harn file of n lines of statements inside functions.
func linesOf(n int) []byte {
	var buf bytes.Buffer
	for i := 0; buf.Len() == 0 || bytes.Count(buf.Bytes(), []byte("\n")) < n; i++ {
		fmt.Fprintf(&buf, "fn step%d(x: int) -> int {\n  let y = x * %d + 1\n  if y > 10 {\n    return y - 3\n  }\n  return y\n}\n", i, i%9)
	}
	return buf.Bytes()
}

func BenchmarkParse(b *testing.B) {
	src := largeHarn(b, 1<<20)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		ParseTree(src, nil).Close()
	}
}

func BenchmarkParseAndLower(b *testing.B) {
	src := largeHarn(b, 1<<20)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		tree := ParseTree(src, nil)
		f := lower.File(src, Snapshot(tree))
		runtime.KeepAlive(f)
		tree.Close()
	}
}

// BenchmarkParseAndLowerRatio alternates the two measurements above within
// each iteration, so both see the same machine load, and reports their
// throughputs and the ratio parse+lower time / parse time.
func BenchmarkParseAndLowerRatio(b *testing.B) {
	src := largeHarn(b, 1<<20)
	var parse, full time.Duration
	for b.Loop() {
		t0 := time.Now()
		ParseTree(src, nil).Close()
		t1 := time.Now()
		tree := ParseTree(src, nil)
		f := lower.File(src, Snapshot(tree))
		runtime.KeepAlive(f)
		tree.Close()
		t2 := time.Now()
		parse += t1.Sub(t0)
		full += t2.Sub(t1)
	}
	mb := float64(len(src)) * float64(b.N) / 1e6
	b.ReportMetric(mb/parse.Seconds(), "parse-MB/s")
	b.ReportMetric(mb/full.Seconds(), "parse+lower-MB/s")
	b.ReportMetric(full.Seconds()/parse.Seconds(), "lower/parse-time")
}

// BenchmarkReferenceGoParse parses Go source of a similar size with the
// official tree-sitter-go parser, in the same run, as the yardstick.
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

func pointAt(src []byte, off int) sitter.Point {
	row := bytes.Count(src[:off], []byte("\n"))
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1)
	return sitter.Point{Row: uint(row), Column: uint(col)}
}

// BenchmarkIncrementalReparse edits one character in the middle of a
// 5,000-line file and reparses with the previous tree.
func BenchmarkIncrementalReparse(b *testing.B) {
	src := linesOf(5000)
	off := bytes.Index(src[len(src)/2:], []byte("+ 1")) + len(src)/2 + 2 // the digit 1
	edited := append([]byte(nil), src...)
	edited[off] = '2'
	base := ParseTree(src, nil)
	defer base.Close()
	pos := pointAt(src, off)
	edit := &sitter.InputEdit{
		StartByte: uint(off), OldEndByte: uint(off + 1), NewEndByte: uint(off + 1),
		StartPosition: pos, OldEndPosition: sitter.Point{Row: pos.Row, Column: pos.Column + 1},
		NewEndPosition: sitter.Point{Row: pos.Row, Column: pos.Column + 1},
	}
	for b.Loop() {
		old := base.Clone()
		old.Edit(edit)
		ParseTree(edited, old).Close()
		old.Close()
	}
}

// BenchmarkFullReparse is the same 5,000-line file parsed from scratch, the
// reference for BenchmarkIncrementalReparse.
func BenchmarkFullReparse(b *testing.B) {
	src := linesOf(5000)
	for b.Loop() {
		ParseTree(src, nil).Close()
	}
}

// BenchmarkSnapshotRatio times the one-call Snapshot and the previous
// cursor walk (refSnapshot, kept in the tests) on the same tree, alternately
// in each iteration, and reports their time ratio.
func BenchmarkSnapshotRatio(b *testing.B) {
	src := largeHarn(b, 1<<20)
	tree := ParseTree(src, nil)
	defer tree.Close()
	var flat, ref time.Duration
	for b.Loop() {
		t0 := time.Now()
		runtime.KeepAlive(Snapshot(tree))
		t1 := time.Now()
		runtime.KeepAlive(refSnapshot(tree))
		t2 := time.Now()
		flat += t1.Sub(t0)
		ref += t2.Sub(t1)
	}
	n := float64(b.N)
	b.ReportMetric(flat.Seconds()*1e3/n, "snapshot-ms")
	b.ReportMetric(ref.Seconds()*1e3/n, "cursor-walk-ms")
	b.ReportMetric(ref.Seconds()/flat.Seconds(), "cursor/snapshot-time")
}
