package harn

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/format/internal/cst"
)

// flatSafe are the node kinds whose line breaks carry no meaning in
// upstream's layout (it decides them from widths alone), so a wrapped
// sequence made only of them can be written on one line and must come
// back wrapped exactly as upstream wrote it.
var flatSafe = map[string]bool{
	"arguments": true, "list": true, "dict": true, "dict_entry": true, "field_initializer_list": true,
	"field_initializer": true, "identifier": true, "string": true, "string_content": true,
	"escape_sequence": true, "interpolation": true, "integer": true, "float": true, "true": true,
	"false": true, "nil": true, "duration": true, "spread_element": true, "computed_key": true,
	"unary_expression": true, "subscript_expression": true, "struct_expression": true,
	"named_argument": true, "approval_arguments": true, "negative_literal": true,
	"type_arguments": true, "type_identifier": true, "propagation_expression": true,
}

// flatten writes n's text on one line: line breaks and their indentation
// become one space (none after an opening or before a closing bracket),
// and a trailing comma before the closing bracket goes.
func flatten(text string) string {
	ws := regexp.MustCompile(`\s*\n\s*`)
	s := ws.ReplaceAllStringFunc(text, func(string) string { return "\n" })
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\n' {
			b.WriteByte(s[i])
			continue
		}
		prev := b.String()
		next := byte(0)
		if i+1 < len(s) {
			next = s[i+1]
		}
		last := byte(0)
		if len(prev) > 0 {
			last = prev[len(prev)-1]
		}
		if last == '(' || last == '[' || last == '{' || next == ')' || next == ']' || next == '}' {
			if last == ',' && (next == ')' || next == ']' || next == '}') {
				cut := b.String()[:b.Len()-1]
				b.Reset()
				b.WriteString(cut)
			}
			continue
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// wrappedSequences returns the outermost sequences of root that span lines
// and hold only flatSafe kinds, with member calls and binary operators on
// one line.
func wrappedSequences(root *cst.Node, src []byte) []*cst.Node {
	var out []*cst.Node
	var walk func(n *cst.Node, depth int)
	safe := func(n *cst.Node) bool {
		ok := true
		stack := []*cst.Node{n}
		for len(stack) > 0 && ok {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if x.Named && !flatSafe[x.Kind] {
				ok = false
			}
			stack = append(stack, x.Kids...)
		}
		return ok
	}
	walk = func(n *cst.Node, depth int) {
		if depth > 200 {
			return
		}
		switch n.Kind {
		case "arguments", "list", "dict", "field_initializer_list":
			if bytes.IndexByte(src[n.Start:n.End], '\n') >= 0 && safe(n) {
				out = append(out, n)
				return
			}
		}
		for _, k := range n.Kids {
			walk(k, depth+1)
		}
	}
	walk(root, 0)
	return out
}

// TestUpstreamRewrap joins every wrapped argument list, list, dict and
// struct literal of upstream's formatted conformance programs onto one line
// (where line breaks carry no meaning: no closures, blocks, comments,
// operators or method chains inside) and formats the file again: upstream
// decided those breaks from widths alone, so the formatter must wrap them
// exactly as upstream did. This tests the width rules, which the unchanged
// files alone cannot (they keep their breaks).
func TestUpstreamRewrap(t *testing.T) {
	dir := upstreamCorpus()
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIP: upstream Harn conformance corpus not found at %s: %v", dir, err)
	}
	tried, same, joined, byDesign := 0, 0, 0, 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".harn") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		root, err := Parse(src)
		if errors.Is(err, ErrSyntax) {
			return nil
		}
		seqs := wrappedSequences(root, src)
		if len(seqs) == 0 {
			return nil
		}
		var b bytes.Buffer
		last := 0
		for _, n := range seqs {
			b.Write(src[last:n.Start])
			b.WriteString(flatten(string(src[n.Start:n.End])))
			last = n.End
		}
		b.Write(src[last:])
		if bytes.Equal(b.Bytes(), src) {
			t.Fatalf("%s: joining changed nothing", path)
		}
		joined += len(seqs)
		out, err := Format(b.Bytes())
		rel, _ := filepath.Rel(dir, path)
		if err != nil {
			t.Errorf("%s joined: %v", rel, err)
			return nil
		}
		tried++
		switch {
		case bytes.Equal(out, src):
			same++
		case departsByDesign(src, out):
			// Upstream left a line over the width, or a method call's
			// arguments at the receiver's indentation (issue 29).
			same++
			byDesign++
		default:
			t.Logf("%s: rewrapped differently\n%s", rel, firstDiff(src, out))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrap: %d of %d files with joined sequences (%d sequences) came back as upstream wrote them (%d of them differing only where this formatter departs by design)", same, tried, joined, byDesign)
	if tried == 0 {
		t.Fatal("no wrapped sequences found")
	}
	if float64(same) < 0.95*float64(tried) {
		t.Errorf("only %d of %d files rewrapped as upstream did", same, tried)
	}
}
