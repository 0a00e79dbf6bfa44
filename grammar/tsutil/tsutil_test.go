package tsutil

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjson "github.com/tree-sitter/tree-sitter-json/bindings/go"
)

func newParser(t testing.TB, lang unsafe.Pointer) *sitter.Parser {
	t.Helper()
	p := sitter.NewParser()
	if err := p.SetLanguage(sitter.NewLanguage(lang)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func TestAllocatorSwitch(t *testing.T) {
	if !UsingCAllocator() {
		t.Fatal("importing tsutil did not install the C allocator")
	}
	defer UseCAllocator()
	UseBindingAllocator()
	if UsingCAllocator() {
		t.Fatal("UseBindingAllocator did not restore the binding's allocator")
	}
	// Memory allocated under one allocator must be freeable under the other.
	p := newParser(t, tsjson.Language())
	tree := p.Parse([]byte(`{"a": [1, 2]}`), nil)
	UseCAllocator()
	if !UsingCAllocator() {
		t.Fatal("UseCAllocator did not install the C allocator")
	}
	if got := tree.RootNode().ToSexp(); !strings.Contains(got, "(pair") {
		t.Fatalf("unexpected tree %s", got)
	}
	tree.Close()
}

func goSource(t testing.TB) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "fmt", "print.go"))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestChunkedMatchesParse compares chunked parsing with the binding's
// whole-input Parse, including chunk boundaries inside multi-byte UTF-8.
func TestChunkedMatchesParse(t *testing.T) {
	jsonSrc := []byte(`{"ключ": ["é", "😀😀", 1.5e3, true, null, {"nested": {"deep": [[], {}]}}], "x": "\u00e9"}` + "\n")
	goSrc := goSource(t)
	cases := []struct {
		name string
		lang unsafe.Pointer
		src  []byte
	}{
		{"json utf8", tsjson.Language(), jsonSrc},
		{"json broken", tsjson.Language(), []byte(`{"a": [1, 2,, "é`)},
		{"json empty", tsjson.Language(), nil},
		{"go fmt/print.go", tsgo.Language(), goSrc},
	}
	for _, c := range cases {
		p := newParser(t, c.lang)
		ref := p.Parse(c.src, nil)
		want := ref.RootNode().ToSexp()
		ref.Close()
		for _, chunk := range []int{1, 2, 3, 7, 64, 0} {
			t.Run(fmt.Sprintf("%s/chunk=%d", c.name, chunk), func(t *testing.T) {
				tree := ParseChunked(p, c.src, nil, chunk, nil)
				if tree == nil {
					t.Fatal("nil tree")
				}
				defer tree.Close()
				if got := tree.RootNode().ToSexp(); got != want {
					t.Fatalf("tree differs from Parser.Parse:\n got %.300s\nwant %.300s", got, want)
				}
				if end := tree.RootNode().EndByte(); len(c.src) > 0 && end == 0 {
					t.Fatalf("root ends at %d for %d bytes of input", end, len(c.src))
				}
			})
		}
	}
}

// TestReparseAfterEdits applies random edits to a Go file and checks that
// reparsing with the edited old tree through Parse gives the fresh parse.
func TestReparseAfterEdits(t *testing.T) {
	p := newParser(t, tsgo.Language())
	src := goSource(t)
	rng := rand.New(rand.NewSource(1))
	tree := Parse(p, src, nil)
	defer func() { tree.Close() }()
	inserts := []string{"x", " ", "(", "}", "\n", "// c\n", "é", "func f() {}\n", ""}
	for i := 0; i < 40; i++ {
		start := rng.Intn(len(src) + 1)
		end := min(len(src), start+rng.Intn(8))
		ins := inserts[rng.Intn(len(inserts))]
		next := append(append(append([]byte{}, src[:start]...), ins...), src[end:]...)
		tree.Edit(edit(src, start, end, len(ins), next))
		re := Parse(p, next, tree)
		fresh := p.Parse(next, nil)
		if a, b := re.RootNode().ToSexp(), fresh.RootNode().ToSexp(); a != b {
			t.Fatalf("edit %d (%d..%d -> %q): reparse differs from fresh parse", i, start, end, ins)
		}
		fresh.Close()
		tree.Close()
		tree, src = re, next
	}
}

func point(src []byte, off int) sitter.Point {
	row := bytes.Count(src[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1)
	return sitter.Point{Row: uint(row), Column: uint(col)}
}

func edit(old []byte, start, oldEnd, insLen int, next []byte) *sitter.InputEdit {
	return &sitter.InputEdit{
		StartByte: uint(start), OldEndByte: uint(oldEnd), NewEndByte: uint(start + insLen),
		StartPosition: point(old, start), OldEndPosition: point(old, oldEnd), NewEndPosition: point(next, start+insLen),
	}
}

// benchInput returns about 1 MB of input for the language.
func benchInput(b *testing.B, lang string) []byte {
	switch lang {
	case "json":
		var buf bytes.Buffer
		rng := rand.New(rand.NewSource(7))
		buf.WriteString("[\n")
		for i := 0; buf.Len() < 1<<20; i++ {
			if i > 0 {
				buf.WriteString(",\n")
			}
			fmt.Fprintf(&buf, `  {"id": %d, "name": "item-%d", "score": %.3f, "tags": ["a", "b\n", "é"], "ok": %t, "next": null}`,
				i, rng.Intn(1e6), rng.Float64()*100, i%2 == 0)
		}
		buf.WriteString("\n]\n")
		return buf.Bytes()
	default:
		dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
		names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		sort.Strings(names)
		var buf bytes.Buffer
		for _, n := range names {
			if strings.HasSuffix(n, "_test.go") || buf.Len() > 1<<20 {
				continue
			}
			data, err := os.ReadFile(n)
			if err != nil {
				b.Fatal(err)
			}
			buf.Write(data)
		}
		return buf.Bytes()
	}
}

// BenchmarkParse measures full-parse throughput of the binding's default
// path (Go-callback allocator, Parser.Parse) against tsutil's path (C
// allocator, chunked input) on the same input in the same run.
func BenchmarkParse(b *testing.B) {
	defer UseCAllocator()
	for _, lang := range []struct {
		name string
		ptr  unsafe.Pointer
	}{{"json", tsjson.Language()}, {"go", tsgo.Language()}} {
		src := benchInput(b, lang.name)
		p := newParser(b, lang.ptr)
		b.Run(lang.name+"/binding", func(b *testing.B) {
			UseBindingAllocator()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				p.Parse(src, nil).Close()
			}
		})
		b.Run(lang.name+"/tsutil", func(b *testing.B) {
			UseCAllocator()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Parse(p, src, nil).Close()
			}
		})
	}
}

// BenchmarkReparse measures one 5-byte edit near the middle plus an
// incremental reparse, on both paths.
func BenchmarkReparse(b *testing.B) {
	defer UseCAllocator()
	for _, lang := range []struct {
		name string
		ptr  unsafe.Pointer
	}{{"json", tsjson.Language()}, {"go", tsgo.Language()}} {
		src := benchInput(b, lang.name)
		mid := bytes.IndexByte(src[len(src)/2:], '\n') + len(src)/2 + 1
		edited := append(append(append([]byte{}, src[:mid]...), "     "...), src[mid:]...)
		p := newParser(b, lang.ptr)
		for _, path := range []struct {
			name  string
			setup func()
			parse func(src []byte, old *sitter.Tree) *sitter.Tree
		}{
			{"binding", UseBindingAllocator, func(s []byte, old *sitter.Tree) *sitter.Tree { return p.Parse(s, old) }},
			{"tsutil", UseCAllocator, func(s []byte, old *sitter.Tree) *sitter.Tree { return Parse(p, s, old) }},
		} {
			b.Run(lang.name+"/"+path.name, func(b *testing.B) {
				path.setup()
				base := path.parse(src, nil)
				defer base.Close()
				e := edit(src, mid, mid, 5, edited)
				for b.Loop() {
					old := base.Clone()
					old.Edit(e)
					path.parse(edited, old).Close()
					old.Close()
				}
			})
		}
	}
}

// BenchmarkGain alternates the binding's default path and tsutil's path
// within every iteration, so that both see the same machine load, and
// reports the throughput of each and their ratio ("gain" = binding time /
// tsutil time; above 1 means tsutil is faster). Full parse and a 5-byte
// edit plus incremental reparse near the middle.
func BenchmarkGain(b *testing.B) {
	defer UseCAllocator()
	for _, lang := range []struct {
		name string
		ptr  unsafe.Pointer
	}{{"json", tsjson.Language()}, {"go", tsgo.Language()}} {
		src := benchInput(b, lang.name)
		p := newParser(b, lang.ptr)
		b.Run(lang.name+"/parse", func(b *testing.B) {
			var tb, tt time.Duration
			for b.Loop() {
				UseBindingAllocator()
				t0 := time.Now()
				p.Parse(src, nil).Close()
				t1 := time.Now()
				UseCAllocator()
				Parse(p, src, nil).Close()
				tb, tt = tb+t1.Sub(t0), tt+time.Since(t1)
			}
			mb := float64(len(src)) * float64(b.N) / 1e6
			b.ReportMetric(mb/tb.Seconds(), "binding-MB/s")
			b.ReportMetric(mb/tt.Seconds(), "tsutil-MB/s")
			b.ReportMetric(float64(tb)/float64(tt), "gain")
		})
		mid := bytes.IndexByte(src[len(src)/2:], '\n') + len(src)/2 + 1
		edited := append(append(append([]byte{}, src[:mid]...), "     "...), src[mid:]...)
		e := edit(src, mid, mid, 5, edited)
		b.Run(lang.name+"/reparse", func(b *testing.B) {
			UseBindingAllocator()
			baseB := p.Parse(src, nil)
			UseCAllocator()
			baseT := Parse(p, src, nil)
			defer baseB.Close()
			defer baseT.Close()
			var tb, tt time.Duration
			for b.Loop() {
				UseBindingAllocator()
				old := baseB.Clone()
				old.Edit(e)
				t0 := time.Now()
				p.Parse(edited, old).Close()
				tb += time.Since(t0)
				old.Close()
				UseCAllocator()
				old = baseT.Clone()
				old.Edit(e)
				t0 = time.Now()
				Parse(p, edited, old).Close()
				tt += time.Since(t0)
				old.Close()
			}
			b.ReportMetric(float64(tb.Microseconds())/float64(b.N), "binding-µs/reparse")
			b.ReportMetric(float64(tt.Microseconds())/float64(b.N), "tsutil-µs/reparse")
			b.ReportMetric(float64(tb)/float64(tt), "gain")
		})
	}
}

// The work budget must leave real input alone (here, Go sources far from
// the limit) and must cancel a parse that exceeds it.
func TestParseBudget(t *testing.T) {
	p := newParser(t, tsgo.Language())
	src := goSource(t)
	calls := 0
	tree := ParseChunked(p, src, nil, 0, &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool { calls++; return false }})
	if tree == nil {
		t.Fatal("nil tree")
	}
	want := tree.RootNode().ToSexp()
	tree.Close()
	if calls == 0 || calls*20 > Budget(len(src)) {
		t.Errorf("%d callbacks for %d bytes: the budget (%d) leaves too little headroom", calls, len(src), Budget(len(src)))
	}
	budgeted := Parse(p, src, nil)
	if budgeted == nil || budgeted.RootNode().ToSexp() != want {
		t.Fatal("Parse with its budget differs from an unbounded parse")
	}
	budgeted.Close()
	// A budget smaller than the work needed cancels the parse.
	stop := 0
	if tree := ParseChunked(p, src, nil, 0, &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool { stop++; return stop > calls/2 }}); tree != nil {
		tree.Close()
		t.Error("a parse over budget was not cancelled")
	}
	// The parser is usable again after a cancelled parse, on other input
	// too (a cancelled parse must not be resumed).
	other := []byte("package x\n\nfunc f() {}\n")
	ref := newParser(t, tsgo.Language()).Parse(other, nil)
	if got := Parse(p, other, nil); got == nil || got.RootNode().ToSexp() != ref.RootNode().ToSexp() {
		t.Error("a parse after a cancelled one resumed the old input")
	} else {
		got.Close()
	}
	ref.Close()
	stop = 0
	if tree := ParseChunked(p, src, nil, 0, &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool { stop++; return stop > calls/2 }}); tree != nil {
		tree.Close()
	}
	again := Parse(p, src, nil)
	if again == nil || again.RootNode().ToSexp() != want {
		t.Error("parser unusable after cancellation")
	}
	again.Close()
}

// TestGuardStall: the guard stops a parse that makes StallLimit callbacks
// in a row without reading further before the end of its input, not one
// that is finishing at the end, and stops any parse past its budget.
func TestGuardStall(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		offsets func(i int) uint32 // the offset of callback i
		calls   int
		stopped bool
		reached int
	}{
		{"reading on", 1 << 20, func(i int) uint32 { return uint32(i) }, 100000, false, 99999},
		{"looping over a few bytes", 1 << 20, func(i int) uint32 { return uint32(500 + i%7) }, StallLimit + 10, true, 506},
		{"finishing at the end", 1000, func(int) uint32 { return 1000 }, 5000, false, 1000},
		{"past the budget", 1000, func(i int) uint32 { return uint32(i % 1000) }, Budget(1000) + 2, true, 999},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGuard(tc.n)
			stoppedAt := -1
			for i := range tc.calls {
				if g.progress(sitter.ParseState{CurrentByteOffset: tc.offsets(i)}) && stoppedAt < 0 {
					stoppedAt = i
				}
			}
			if g.Stopped() != tc.stopped || g.Reached() != tc.reached {
				t.Errorf("stopped %v at callback %d, reached %d; want stopped %v, reached %d", g.Stopped(), stoppedAt, g.Reached(), tc.stopped, tc.reached)
			}
		})
	}
}

func TestCutBefore(t *testing.T) {
	src := []byte("ab\ncd\nef")
	for _, tc := range []struct{ at, want int }{{0, 0}, {1, 0}, {3, 0}, {4, 3}, {6, 3}, {7, 6}, {8, 6}, {99, 6}, {-1, 0}} {
		if got := CutBefore(src, tc.at); got != tc.want {
			t.Errorf("CutBefore(%d) = %d, want %d", tc.at, got, tc.want)
		}
	}
}

// TestAllocatedCountsTrees: a tree's C memory is counted while the tree
// lives and no longer once it is closed; a bigger tree counts more.
func TestAllocatedCountsTrees(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the C library tells block sizes on Linux and macOS only")
	}
	p := newParser(t, tsjson.Language())
	var grown []int64
	for _, n := range []int{20000, 200000} {
		src := []byte("[" + strings.Repeat("1, ", n) + "1]")
		before := Allocated()
		tree := Parse(p, src, nil)
		if tree == nil {
			t.Fatalf("%d elements: no tree", n)
		}
		held := Allocated() - before
		tree.Close()
		after := Allocated() - before
		t.Logf("%d elements: %d bytes held by the tree, %d after closing it", n, held, after)
		// Each element is two nodes at least (a number and a comma).
		if held < int64(2*n*16) {
			t.Errorf("%d elements: the tree holds %d bytes, fewer than the %d its nodes take", n, held, 2*n*16)
		}
		if after > held/10 {
			t.Errorf("%d elements: %d of the %d bytes are still counted after closing the tree", n, after, held)
		}
		grown = append(grown, held)
	}
	if grown[1] < 5*grown[0] {
		t.Errorf("ten times the elements held %d bytes, not more than five times %d", grown[1], grown[0])
	}
}

// bracketDepthByteByByte is BracketDepth as it was first written, one
// byte at a time: the oracle for the skipping scan.
func bracketDepthByteByByte(src []byte) (depth, at int) {
	d := 0
	at = -1
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '(', '[', '{':
			d++
			if d > depth {
				depth, at = d, i
			}
		case ')', ']', '}':
			if d > 0 {
				d--
			}
		case '"', '\'', '`':
			for i++; i < len(src) && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				} else if c != '`' && (src[i] == '\n' || src[i] == '\r') {
					break
				}
			}
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' && src[i] != '\r' {
					i++
				}
			} else if i+1 < len(src) && src[i+1] == '*' {
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					return depth, at
				}
				i += end + 3
			}
		}
	}
	return depth, at
}

func TestBracketDepth(t *testing.T) {
	for _, tc := range []struct {
		src       string
		depth, at int
	}{
		{"", 0, -1},
		{"plain words", 0, -1},
		{"f(a[{1}])", 3, 4},
		{`s := "(((" + x(y)`, 1, 14},
		{"// ((((\nf(x)", 1, 9},
		{"/* {{{ */ [a]", 1, 10},
		{"/* never closed ((", 0, -1},
		{"'(' `\n(` ((x))", 2, 10},
		{"a)))(b", 1, 4},
	} {
		if d, at := BracketDepth([]byte(tc.src)); d != tc.depth || at != tc.at {
			t.Errorf("BracketDepth(%q) = %d at %d, want %d at %d", tc.src, d, at, tc.depth, tc.at)
		}
	}
	r := rand.New(rand.NewSource(3))
	const alphabet = "ab \n()[]{}\"'`/*\\\r"
	for range 3000 {
		src := make([]byte, r.Intn(80))
		for i := range src {
			src[i] = alphabet[r.Intn(len(alphabet))]
		}
		d, at := BracketDepth(src)
		if wd, wat := bracketDepthByteByByte(src); d != wd || at != wat {
			t.Fatalf("BracketDepth(%q) = %d at %d, byte by byte %d at %d", src, d, at, wd, wat)
		}
	}
}

// TestBracketDepthOver: over exactly when BracketDepth exceeds the limit,
// with BracketDepth's depth and offset then.
func TestBracketDepthOver(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	const alphabet = "a \n(((([[{{)]}\"/*"
	for range 3000 {
		src := make([]byte, r.Intn(60))
		for i := range src {
			src[i] = alphabet[r.Intn(len(alphabet))]
		}
		limit := r.Intn(8)
		d, at := BracketDepth(src)
		gd, gat, over := BracketDepthOver(src, limit)
		if over != (d > limit) || over && (gd != d || gat != at) {
			t.Fatalf("BracketDepthOver(%q, %d) = %d at %d, %v; BracketDepth = %d at %d", src, limit, gd, gat, over, d, at)
		}
	}
}

// TestCommonEnds compares the word-at-a-time CommonEnds with the
// byte-by-byte definition on random pairs of texts that share a prefix
// and a suffix, and on texts of up to 20 bytes of two letters.
func TestCommonEnds(t *testing.T) {
	byteByByte := func(a, b []byte) (p, s int) {
		for p < len(a) && p < len(b) && a[p] == b[p] {
			p++
		}
		for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
			s++
		}
		return p, s
	}
	r := rand.New(rand.NewSource(9))
	text := func(n int) []byte {
		out := make([]byte, n)
		for i := range out {
			out[i] = "ab"[r.Intn(2)]
		}
		return out
	}
	for range 5000 {
		var a, b []byte
		if r.Intn(2) == 0 {
			a, b = text(r.Intn(21)), text(r.Intn(21))
		} else {
			pre, suf := text(r.Intn(40)), text(r.Intn(40))
			a = append(append(append([]byte{}, pre...), text(r.Intn(5))...), suf...)
			b = append(append(append([]byte{}, pre...), text(r.Intn(5))...), suf...)
		}
		p, s := CommonEnds(a, b)
		if wp, ws := byteByByte(a, b); p != wp || s != ws {
			t.Fatalf("CommonEnds(%q, %q) = %d, %d; byte by byte %d, %d", a, b, p, s, wp, ws)
		}
	}
}
