package lsp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/harnlang/harn-check/lsp/lsptest"
)

// Script tests are data: each testdata/scripts/NAME.txtar archive opens
// with a prose note, then holds the documents to open (every section whose
// name is not "script" or "golden", opened in order as version 1 at
// file:///w/NAME, the language taken from the extension), a "script" of
// protocol steps, and the "golden" transcript of what the server answered.
// `go test ./lsp -update` rewrites the golden section; the other sections
// are never touched. The Harn archives hold the checker's messages
// verbatim, so a change of their wording needs an -update.
//
// Script steps, one a line ("#" starts a comment; LINE is 1-based; a quoted
// NEEDLE picks the position where its first occurrence on that line starts,
// counted in UTF-16 by the harness like an editor would):
//
//	diagnostics FILE                 wait for FILE's current diagnostics
//	hover|definition|references|completion|signature|prepareRename FILE LINE NEEDLE
//	rename FILE LINE NEEDLE NEWNAME
//	codeaction FILE LINE NEEDLE [KIND]
//	symbols|tokens|folds FILE
//	wsymbols QUERY
//	edit FILE LINE OLD NEW           replace OLD's first occurrence on LINE (a didChange)
//	fixall FILE                      apply the source.fixAll action as didChange edits
//	text FILE                        print the editor-side text
func TestScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "scripts", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no script tests found")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) { runScript(t, path) })
	}
}

// section is one "-- name --" part of an archive.
type section struct {
	name string
	data string
}

// parseArchive splits a txtar archive into its note and sections.
func parseArchive(src string) (string, []section) {
	var note strings.Builder
	var secs []section
	for _, line := range strings.SplitAfter(src, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			secs = append(secs, section{name: strings.TrimSpace(trimmed[3 : len(trimmed)-3])})
			continue
		}
		if len(secs) == 0 {
			note.WriteString(line)
		} else {
			secs[len(secs)-1].data += line
		}
	}
	return note.String(), secs
}

// fields splits a script line into words, honouring Go-quoted strings;
// an unquoted "#" starts a comment.
func fields(t *testing.T, line string) []string {
	var out []string
	for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
		if line[0] == '#' {
			break // a comment runs to the end of the line
		}
		if line[0] == '"' {
			q, err := strconv.QuotedPrefix(line)
			if err != nil {
				t.Fatalf("bad quoted string in %q: %v", line, err)
			}
			s, _ := strconv.Unquote(q)
			out = append(out, s)
			line = line[len(q):]
			continue
		}
		i := strings.IndexAny(line, " \t")
		if i < 0 {
			i = len(line)
		}
		out = append(out, line[:i])
		line = line[i:]
	}
	return out
}

// editorDoc is the harness's copy of a document, as an editor keeps it.
type editorDoc struct {
	uri     string
	text    string
	version int32
}

// position finds needle on the 1-based line; the column is in UTF-16 units.
func (d *editorDoc) position(t *testing.T, line int, needle string) map[string]any {
	t.Helper()
	lines := strings.Split(d.text, "\n")
	if line < 1 || line > len(lines) {
		t.Fatalf("%s has no line %d", d.uri, line)
	}
	i := strings.Index(lines[line-1], needle)
	if i < 0 {
		t.Fatalf("%s line %d has no %q", d.uri, line, needle)
	}
	return lsptest.Pos(line-1, len(utf16.Encode([]rune(lines[line-1][:i]))))
}

// offset converts a protocol position back to a byte offset of d.text.
func (d *editorDoc) offset(line, char int) int {
	off := 0
	for l := 0; l < line; l++ {
		off += strings.IndexByte(d.text[off:], '\n') + 1
	}
	units := 0
	for i, r := range d.text[off:] {
		if units >= char || r == '\n' {
			return off + i
		}
		units += len(utf16.Encode([]rune{r}))
	}
	return len(d.text)
}

type textEdit struct {
	Range struct {
		Start struct{ Line, Character int }
		End   struct{ Line, Character int }
	}
	NewText string
}

func runScript(t *testing.T, path string) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	note, secs := parseArchive(string(raw))
	if strings.TrimSpace(note) == "" {
		t.Fatalf("%s: the archive must open with a note saying what it tests", path)
	}
	c := lsptest.Start(t, testOptions())
	c.Initialize("file:///w", map[string]any{"textDocument": map[string]any{
		"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true}}})
	docs := map[string]*editorDoc{}
	var script string
	for _, s := range secs {
		switch s.name {
		case "script":
			script = s.data
		case "golden":
		default:
			d := &editorDoc{uri: "file:///w/" + s.name, text: s.data, version: 1}
			docs[s.name] = d
			c.Open(d.uri, strings.TrimPrefix(filepath.Ext(s.name), "."), 1, d.text)
		}
	}
	tr := &transcript{t: t}
	doc := func(name string) *editorDoc {
		d, ok := docs[name]
		if !ok {
			t.Fatalf("script names %q, which the archive does not hold", name)
		}
		return d
	}
	atoi := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("%q is not a line number", s)
		}
		return n
	}
	change := func(d *editorDoc, edits []textEdit) {
		// Apply from the end so earlier positions stay valid, sending each
		// as one content change in that order.
		sort.SliceStable(edits, func(i, j int) bool {
			a, b := edits[i].Range.Start, edits[j].Range.Start
			return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
		})
		var changes []lsptest.Edit
		for _, e := range edits {
			s := d.offset(e.Range.Start.Line, e.Range.Start.Character)
			x := d.offset(e.Range.End.Line, e.Range.End.Character)
			d.text = d.text[:s] + e.NewText + d.text[x:]
			changes = append(changes, lsptest.Edit{StartLine: e.Range.Start.Line, StartChar: e.Range.Start.Character,
				EndLine: e.Range.End.Line, EndChar: e.Range.End.Character, Text: e.NewText})
		}
		d.version++
		c.Change(d.uri, d.version, changes...)
	}
	for n, line := range strings.Split(script, "\n") {
		f := fields(t, line)
		if len(f) == 0 {
			continue
		}
		label := fmt.Sprintf("%d: %s", n+1, strings.Join(quoteAll(f), " "))
		need := func(k int) {
			if len(f) != k {
				t.Fatalf("script line %d: %q takes %d arguments", n+1, f[0], k-1)
			}
		}
		switch f[0] {
		case "diagnostics":
			need(2)
			d := doc(f[1])
			tr.add(label, c.WaitDiagnostics(d.uri, d.version).Diagnostics)
		case "hover", "definition", "references", "completion", "signature", "prepareRename":
			need(4)
			d := doc(f[1])
			params := map[string]any{"textDocument": map[string]any{"uri": d.uri}, "position": d.position(t, atoi(f[2]), f[3])}
			method := map[string]string{"hover": "textDocument/hover", "definition": "textDocument/definition",
				"references": "textDocument/references", "completion": "textDocument/completion",
				"signature": "textDocument/signatureHelp", "prepareRename": "textDocument/prepareRename"}[f[0]]
			if f[0] == "references" {
				params["context"] = map[string]any{"includeDeclaration": true}
			}
			tr.add(label, c.Call(method, params))
		case "rename":
			need(5)
			d := doc(f[1])
			tr.add(label, c.Call("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": d.uri},
				"position": d.position(t, atoi(f[2]), f[3]), "newName": f[4]}))
		case "codeaction":
			if len(f) != 4 && len(f) != 5 {
				t.Fatalf("script line %d: codeaction FILE LINE NEEDLE [KIND]", n+1)
			}
			d := doc(f[1])
			p := d.position(t, atoi(f[2]), f[3])
			tr.add(label, codeAction(c, d.uri, map[string]any{"start": p, "end": p}, f[4:]...))
		case "symbols", "tokens", "folds":
			need(2)
			method := map[string]string{"symbols": "textDocument/documentSymbol", "tokens": "textDocument/semanticTokens/full",
				"folds": "textDocument/foldingRange"}[f[0]]
			m := c.Call(method, map[string]any{"textDocument": map[string]any{"uri": doc(f[1]).uri}})
			if f[0] == "tokens" && m.Error == nil {
				m.Result = json.RawMessage(withoutResultID(m.Result))
			}
			tr.add(label, m)
		case "wsymbols":
			need(2)
			tr.add(label, c.Call("workspace/symbol", map[string]any{"query": f[1]}))
		case "edit":
			need(5)
			d := doc(f[1])
			start := d.position(t, atoi(f[2]), f[3])
			var e textEdit
			e.Range.Start.Line, e.Range.Start.Character = start["line"].(int), start["character"].(int)
			e.Range.End.Line = e.Range.Start.Line
			e.Range.End.Character = e.Range.Start.Character + len(utf16.Encode([]rune(f[3])))
			e.NewText = f[4]
			change(d, []textEdit{e})
		case "fixall":
			need(2)
			d := doc(f[1])
			m := codeAction(c, d.uri, lsptest.Range(0, 0, 0, 0), "source.fixAll")
			var actions []struct {
				Edit struct{ Changes map[string][]textEdit }
			}
			if m.Error != nil || json.Unmarshal(m.Result, &actions) != nil || len(actions) != 1 {
				t.Fatalf("script line %d: fixall got %s %v", n+1, m.Result, m.Error)
			}
			change(d, actions[0].Edit.Changes[d.uri])
		case "text":
			need(2)
			tr.b.WriteString("-- " + label + " --\n" + doc(f[1]).text)
		default:
			t.Fatalf("script line %d: unknown step %q", n+1, f[0])
		}
	}
	// The golden section is the transcript; -update rewrites only it.
	var out bytes.Buffer
	out.WriteString(note)
	for _, s := range secs {
		if s.name == "golden" {
			continue
		}
		out.WriteString("-- " + s.name + " --\n" + s.data)
	}
	// Step headers become ">> LABEL" lines so they cannot be read as
	// archive sections.
	var golden strings.Builder
	for _, l := range strings.SplitAfter(tr.b.String(), "\n") {
		if h, ok := strings.CutPrefix(l, "-- "); ok && strings.HasSuffix(h, " --\n") {
			l = ">> " + strings.TrimSuffix(h, " --\n") + "\n"
		}
		golden.WriteString(l)
	}
	out.WriteString("-- golden --\n" + golden.String())
	if *update {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(out.Bytes(), raw) {
		t.Errorf("%s: transcript differs from the golden section; got:\n%s", path, golden.String())
	}
}

// quoteAll renders script words back, quoting those that need it.
func quoteAll(f []string) []string {
	out := make([]string, len(f))
	for i, w := range f {
		if w == "" || strings.ContainsAny(w, " \t\"#") || i >= 3 {
			w = strconv.Quote(w)
		}
		out[i] = w
	}
	return out
}
