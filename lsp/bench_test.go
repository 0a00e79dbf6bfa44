package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/frontends"
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
	lang := checkOf(b, "x.fake")
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
		lang.Check(driver.Request{Path: "big.fake", Source: text})
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
	opts := testOptions()
	opts.Languages = testLanguages(goStandIn(b))
	var src strings.Builder
	src.WriteString("package main\n\n")
	for i := range 4998 / 4 {
		fmt.Fprintf(&src, "func f%d(x int) int {\n\ty := x + %d // é\n\treturn y\n}\n", i, i)
	}
	text := src.String()
	c := lsptest.Start(b, opts)
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

// benchHarnSource returns a Harn program of about n lines: documented
// functions with a local, a branch and a return, and every twentieth an
// evaluation site with its question set and a match over the outcome. It
// checks clean.
func benchHarnSource(n int) string {
	var b strings.Builder
	b.WriteString("import {boolean, choice} from \"std/predicate\"\n\n")
	for i, lines := 0, 2; lines < n; i++ {
		if i%20 == 19 {
			fmt.Fprintf(&b, `fn decide_%d(harness: Harness, window: {messages: list<string>}) -> string {
  const o = harness.llm.evaluate("bench.decide.v%d", window, {
    safe: boolean("Is this safe to run without asking?"),
    next: choice("What next?", {go: "Proceed", stop: "Stop here"}),
  })
  match o.kind {
    "answered" -> {
      if o.value.safe.verdict {
        return "run"
      }
      return "ask"
    }
    _ -> { return "no decision: ${o.kind}" }
  }
}

`, i, i)
			lines += 16
			continue
		}
		fmt.Fprintf(&b, "/// Step %d of the pipeline.\nfn step_%d(x: int, name: string) -> int {\n  let y = x + %d\n  if y > 10 {\n    log(\"big ${name}\")\n  }\n  return y\n}\n\n", i, i, i)
		lines += 9
	}
	return b.String()
}

// harnEditLine returns the first "let y = x + N" line at or after line
// from, and the UTF-16 column just after "x + ".
func harnEditLine(src string, from int) (int, int) {
	lines := strings.Split(src, "\n")
	for i := from; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "  let y = x + ") {
			return i, len("  let y = x + ")
		}
	}
	panic("no edit line")
}

// BenchmarkHarnDidChangeToDiagnostics measures, with the real Harn front
// end (incremental tree-sitter reparse on the didChange path, then the
// Harn checker), the latency from a one-character didChange in the middle
// of a 5,000-line Harn file to its publishDiagnostics, without debounce
// (an editor adds the debounce delay, 75 ms by default). Reference,
// interleaved in the same loop: the Harn checker alone (the driver's
// Check, as harn-check runs it) on the same text; a fresh parse alone.
func BenchmarkHarnDidChangeToDiagnostics(b *testing.B) {
	src := benchHarnSource(5000)
	c := lsptest.Start(b, testOptions())
	c.Initialize("file:///w", nil)
	const uri = "file:///w/big.harn"
	c.Open(uri, "harn", 0, src)
	if d := c.WaitDiagnostics(uri, 0); len(d.Diagnostics) != 0 {
		b.Fatalf("the benchmark file has diagnostics: %s", d.Diagnostics)
	}
	lang := checkOf(b, "x.harn")
	line, col := harnEditLine(src, 2500)
	text := []byte(src)
	lat := make([]time.Duration, 0, b.N)
	checks := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		v := int32(i + 1)
		e := lsptest.Edit{StartLine: line, StartChar: col, EndLine: line, EndChar: col, Text: "7"}
		if i%2 == 1 {
			e = lsptest.Edit{StartLine: line, StartChar: col, EndLine: line, EndChar: col + 1}
		}
		start := time.Now()
		c.Change(uri, v, e)
		c.WaitDiagnostics(uri, v)
		lat = append(lat, time.Since(start))
		b.StopTimer()
		start = time.Now()
		lang.Check(driver.Request{Path: "/w/big.harn", Source: text})
		checks = append(checks, time.Since(start))
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(lat)
	slices.Sort(checks)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[len(lat)/2]), "ms-median")
	b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*95/100)]), "ms-p95")
	b.ReportMetric(ms(checks[len(checks)/2]), "ms-check-median")
	b.ReportMetric(ms(checks[min(len(checks)-1, len(checks)*95/100)]), "ms-check-p95")
}

// BenchmarkHarnOpenFiles200 measures the memory in use with 200 open Harn
// documents of 1,000 lines each, all checked, their trees kept: the Go
// heap, and the growth of the process's resident set, which also counts
// the tree-sitter trees (C memory), each measured after returning freed
// memory to the system, against the size of their text.
func BenchmarkHarnOpenFiles200(b *testing.B) {
	src := benchHarnSource(1000)
	for range b.N {
		debug.FreeOSMemory() // a GC that also returns freed pages, so the resident set is live memory
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rssBefore := residentBytes()
		c := lsptest.Start(b, testOptions())
		c.Initialize("file:///w", nil)
		for i := range 200 {
			c.Open(fmt.Sprintf("file:///w/f%03d.harn", i), "harn", 1, src)
		}
		for i := range 200 {
			c.WaitDiagnostics(fmt.Sprintf("file:///w/f%03d.harn", i), 1)
		}
		debug.FreeOSMemory() // a GC that also returns freed pages, so the resident set is live memory
		runtime.ReadMemStats(&after)
		rss := float64(residentBytes() - rssBefore)
		heap := float64(after.HeapAlloc) - float64(before.HeapAlloc)
		text := float64(200 * len(src))
		b.ReportMetric(heap/(1<<20), "MB-heap")
		b.ReportMetric(text/(1<<20), "MB-text")
		b.ReportMetric(heap/text, "heap/text")
		b.ReportMetric(rss/(1<<20), "MB-rss-growth")
		if err := c.Shutdown(); err != nil {
			b.Fatal(err)
		}
	}
}

// residentBytes is the process's resident set size from /proc/self/statm,
// 0 where that file does not exist.
func residentBytes() int64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// upstreamHarnDir holds upstream Harn's conformance programs (never
// committed): HARN_UPSTREAM, or the team's shared checkout.
func upstreamHarnDir() string {
	if d := os.Getenv("HARN_UPSTREAM"); d != "" {
		return d
	}
	return "/work/upstream/harn"
}

// upstreamSource concatenates programs (in order, repeated) into one file
// of at least n lines. Each program's `pipeline default(` is renamed after
// its position, and in the repetitions of a Leia program every name it
// declares at the top level gets a suffix, so that the file is not one
// redeclaration after another (a file of one program's copies ties every
// copy's statements to the others' through the names they share);
// a program's `#!` line is left out.
func upstreamSource(tb testing.TB, files []string, n int) string {
	if len(files) == 0 {
		tb.Skip("no upstream programs to build the file from")
	}
	var b strings.Builder
	lines := 0
	files = slices.DeleteFunc(slices.Clone(files), func(f string) bool {
		st, err := os.Stat(f)
		return err != nil || !st.Mode().IsRegular()
	})
	if len(files) == 0 {
		tb.Skip("no upstream programs to build the file from")
	}
	for i := 0; lines < n; i++ {
		data, err := os.ReadFile(files[i%len(files)])
		if err != nil {
			tb.Fatal(err)
		}
		text := strings.ReplaceAll(string(data), "pipeline default(", fmt.Sprintf("pipeline p%d(", i))
		if i >= len(files) && strings.HasSuffix(files[i%len(files)], ".leia") {
			text = renameLeiaTops(text, fmt.Sprintf("_c%d", i/len(files)))
		}
		if strings.HasPrefix(text, "#!") {
			// An interpreter line is valid only on a file's first line.
			_, text, _ = strings.Cut(text, "\n")
		}
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		b.WriteString(text)
		b.WriteString("\n")
		lines += strings.Count(text, "\n") + 1
	}
	return b.String()
}

// leiaTopDecl matches the name of a Leia top-level declaration: `func
// name(`, `name :=`, `const name :=`, a legacy `tool name` or `agent
// name`, at the start of a line.
var leiaTopDecl = regexp.MustCompile(`(?m)^(?:(?:func|tool|agent)\s+([A-Za-z_]\w*)|(?:const\s+)?([A-Za-z_]\w*)\s*:=)`)

// renameLeiaTops appends suffix to every name text declares at the top
// level (leiaTopDecl), wherever the name occurs as a word.
func renameLeiaTops(text, suffix string) string {
	names := map[string]bool{}
	for _, m := range leiaTopDecl.FindAllStringSubmatch(text, -1) {
		if n := m[1] + m[2]; n != "defaults" { // `agent defaults {` is a form, not a name
			names[n] = true
		}
	}
	if len(names) == 0 {
		return text
	}
	alt := make([]string, 0, len(names))
	for n := range names {
		alt = append(alt, regexp.QuoteMeta(n))
	}
	slices.Sort(alt)
	re := regexp.MustCompile(`\b(` + strings.Join(alt, "|") + `)\b`)
	return re.ReplaceAllString(text, "${1}"+suffix)
}

// bodyEditLine returns a line near the middle of src inside a function
// body (indented, a binding with an integer literal) and the UTF-16
// column of that literal: inserting a digit there, then deleting it,
// edits a body without changing any signature. With top set, the
// top-level line the body belongs to (the last unindented one above)
// must match it, and any integer literal after a space will do (Leia's
// clean programs bind few integers in their functions).
func bodyEditLine(tb testing.TB, src string, binding string, top *regexp.Regexp) (int, int) {
	lines := strings.Split(src, "\n")
	for i := len(lines) / 2; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, " ") || top == nil && !strings.Contains(l, binding) {
			continue
		}
		if top != nil {
			k := i - 1
			for k > 0 && (lines[k] == "" || strings.HasPrefix(lines[k], " ") || strings.HasPrefix(lines[k], "\t") || strings.HasPrefix(lines[k], "}")) {
				k--
			}
			if !top.MatchString(lines[k]) {
				continue
			}
			if j := strings.IndexAny(l, "0123456789"); j > 0 && l[j-1] == ' ' {
				return i, j
			}
			continue
		}
		if j := strings.IndexAny(l, "0123456789"); j > 0 && strings.Contains(l[:j], "= ") && l[j-1] == ' ' {
			return i, j
		}
	}
	tb.Fatal("no line to edit")
	return 0, 0
}

// BenchmarkEditLatency measures, for Harn and Leia files of 5,000 and
// 20,000 lines built from upstream programs (Harn: the conformance
// programs of HARN_UPSTREAM that are not expected to fail; Leia: the
// repository's clean programs and examples), 200 one-character edits
// inside a function body:
// didChange -> publishDiagnostics p50 and p95 (no debounce), hover and
// completion sent right after a didChange (on the just-changed version)
// p50 and p95, the size of the last completion reply, and the process's
// resident set after the edits. The client announces the completion
// capabilities VS Code does (resolving documentation and detail, list
// defaults), so the replies are the lean lists such a client gets.
//
//	go test ./lsp -run XXX -bench EditLatency -benchtime 1x
func BenchmarkEditLatency(b *testing.B) {
	harnFiles := cleanHarnPrograms()
	leiaFiles, _ := filepath.Glob("../checker/leia/testdata/clean/*.leia")
	examples, _ := filepath.Glob("../examples/leia/*.leia")
	leiaFiles = append(leiaFiles, examples...)
	for _, lang := range []struct {
		name, ext, binding string
		files              []string
		// top matches the declaration whose body is edited.
		top *regexp.Regexp
	}{{"harn", ".harn", "let ", harnFiles, nil}, {"leia", ".leia", ":= ", leiaFiles, regexp.MustCompile(`^func \w+\(`)}} {
		for _, n := range []int{5000, 20000} {
			b.Run(fmt.Sprintf("%s-%d", lang.name, n), func(b *testing.B) {
				src := upstreamSource(b, lang.files, n)
				line, col := bodyEditLine(b, src, lang.binding, lang.top)
				for range b.N {
					editLatency(b, lang.name, "file:///w/big"+lang.ext, src, line, col)
				}
			})
		}
	}
}

// cleanHarnPrograms are the conformance programs of HARN_UPSTREAM not
// expected to fail. The programs paired with an .error expectation fail
// on purpose, some with syntax errors: a file holding one is never
// checked incrementally, nor is its name index brought up to date.
func cleanHarnPrograms() []string {
	files, _ := filepath.Glob(filepath.Join(upstreamHarnDir(), "conformance", "tests", "*", "*.harn"))
	return slices.DeleteFunc(files, func(f string) bool {
		_, err := os.Stat(strings.TrimSuffix(f, ".harn") + ".error")
		return err == nil
	})
}

// BenchmarkMemberCompletion measures, on Harn files of 5,000 and 20,000
// lines built as BenchmarkEditLatency's, member completion as typing
// gives it: a receiver is typed in a function body (`("abc") + ` before
// a number) and checked, then "." after it, and completion is asked at
// once, on the version just changed (whose text does not parse); p50 and
// p95 of 20 such completions.
//
//	go test ./lsp -run XXX -bench MemberCompletion -benchtime 1x
func BenchmarkMemberCompletion(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		b.Run(fmt.Sprintf("harn-%d", n), func(b *testing.B) {
			src := upstreamSource(b, cleanHarnPrograms(), n)
			line, col := bodyEditLine(b, src, "let ", nil)
			for range b.N {
				memberCompletionLatency(b, src, line, col)
			}
		})
	}
}

func memberCompletionLatency(b *testing.B, src string, line, col int) {
	c := lsptest.Start(b, testOptions())
	c.Initialize("file:///w", leanCompletionCaps)
	uri := "file:///w/big.harn"
	c.Open(uri, "harn", 0, src)
	c.WaitDiagnostics(uri, 0)
	const recv = `("abc")`
	var ds []time.Duration
	for i := range 20 {
		v := int32(3*i + 1)
		c.Change(uri, v, lsptest.Edit{StartLine: line, StartChar: col, EndLine: line, EndChar: col, Text: recv + " + "})
		c.WaitDiagnostics(uri, v)
		c.Change(uri, v+1, lsptest.Edit{StartLine: line, StartChar: col + len(recv), EndLine: line, EndChar: col + len(recv), Text: "."})
		h := time.Now()
		m := c.Call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lsptest.Pos(line, col+len(recv)+1)})
		ds = append(ds, time.Since(h))
		if !strings.Contains(string(m.Result), `"capitalize"`) {
			b.Fatalf("no string members: %.300s", m.Result)
		}
		c.WaitDiagnostics(uri, v+1)
		c.Change(uri, v+2, lsptest.Edit{StartLine: line, StartChar: col, EndLine: line, EndChar: col + len(recv) + 4})
		c.WaitDiagnostics(uri, v+2)
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2])/float64(time.Millisecond), "ms-p50")
	b.ReportMetric(float64(ds[len(ds)*95/100])/float64(time.Millisecond), "ms-p95")
	if err := c.Shutdown(); err != nil {
		b.Fatal(err)
	}
}

func editLatency(b *testing.B, languageID, uri, src string, line, col int) {
	debug.FreeOSMemory()
	c := lsptest.Start(b, testOptions())
	c.Initialize("file:///w", leanCompletionCaps)
	c.Open(uri, languageID, 0, src)
	c.WaitDiagnostics(uri, 0)
	const edits = 200
	var lat, hover, complete []time.Duration
	replyBytes := 0
	incremental, focused := frontends.IncrementalChecks(), frontends.FocusedChecks()
	doc := map[string]any{"uri": uri}
	for i := range edits {
		v := int32(i + 1)
		e := lsptest.Edit{StartLine: line, StartChar: col, EndLine: line, EndChar: col, Text: "7"}
		if i%2 == 1 {
			e = lsptest.Edit{StartLine: line, StartChar: col, EndLine: line, EndChar: col + 1}
		}
		start := time.Now()
		c.Change(uri, v, e)
		switch i % 4 {
		case 2:
			// A hover on the binding's name, right after the change.
			h := time.Now()
			c.Call("textDocument/hover", map[string]any{"textDocument": doc, "position": lsptest.Pos(line, col-4)})
			hover = append(hover, time.Since(h))
		case 3:
			h := time.Now()
			m := c.Call("textDocument/completion", map[string]any{"textDocument": doc, "position": lsptest.Pos(line, col)})
			complete = append(complete, time.Since(h))
			replyBytes = len(m.Result)
		}
		c.WaitDiagnostics(uri, v)
		if i%4 < 2 {
			lat = append(lat, time.Since(start))
		}
	}
	debug.FreeOSMemory()
	rss := residentBytes()
	ms := func(ds []time.Duration, q int) float64 {
		slices.Sort(ds)
		return float64(ds[min(len(ds)-1, len(ds)*q/100)]) / float64(time.Millisecond)
	}
	b.ReportMetric(ms(lat, 50), "ms-p50")
	b.ReportMetric(ms(lat, 95), "ms-p95")
	b.ReportMetric(ms(hover, 50), "ms-hover-p50")
	b.ReportMetric(ms(hover, 95), "ms-hover-p95")
	b.ReportMetric(ms(complete, 50), "ms-completion-p50")
	b.ReportMetric(ms(complete, 95), "ms-completion-p95")
	b.ReportMetric(float64(replyBytes)/1000, "KB-completion")
	b.ReportMetric(float64(rss)/(1<<20), "MiB-rss")
	b.ReportMetric(float64(frontends.IncrementalChecks()-incremental)/edits, "incremental/edit")
	b.ReportMetric(float64(frontends.FocusedChecks()-focused)/edits, "focused/edit")
	if err := c.Shutdown(); err != nil {
		b.Fatal(err)
	}
}
