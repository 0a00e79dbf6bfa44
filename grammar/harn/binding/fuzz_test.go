package binding

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// FuzzParse feeds arbitrary bytes through the whole front end: parsing with
// the committed parser, the Go copy of the tree, lowering and syntax
// diagnostics. It must never panic or hang, every diagnostic must lie
// inside the source, and a tree with errors must produce a diagnostic.
//
//	go test ./grammar/harn/binding -run '^$' -fuzz FuzzParse -fuzztime 60s
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{
		filepath.Join("..", "..", "..", "examples", "*", "*.harn"),
		filepath.Join("..", "testdata", "programs", "*.harn"),
		filepath.Join("..", "syntaxdiag", "testdata", "*.harn"),
	} {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	// Corpus inputs: the text between a `===` title and its `---` divider.
	caseRe := regexp.MustCompile(`(?ms)^=+\n[^\n]*\n=+\n(.*?)\n-{3,}\n`)
	corpora, _ := filepath.Glob(filepath.Join("..", "test", "corpus", "*.txt"))
	for _, c := range corpora {
		data, err := os.ReadFile(c)
		if err != nil {
			continue
		}
		for _, m := range caseRe.FindAllSubmatch(data, -1) {
			f.Add(m[1])
		}
	}
	f.Add([]byte("fn f() {\n  let x = (1 + \n}\n"))
	f.Add([]byte("/* /* */\n\"${ {\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			file, diags := Parse("fuzz.harn", src)
			if file == nil {
				t.Error("Parse returned no file")
				return
			}
			if len(file.Errors) > 0 && len(diags) == 0 {
				t.Errorf("%d tree errors but no diagnostic", len(file.Errors))
			}
			for _, d := range diags {
				if d.Span.Start < 0 || d.Span.End > len(src) || d.Span.Start > d.Span.End {
					t.Errorf("diagnostic %s span %v outside the %d-byte source", d.Code, d.Span, len(src))
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("Parse did not return within 20 s on %d bytes", len(src))
		}
	})
}
