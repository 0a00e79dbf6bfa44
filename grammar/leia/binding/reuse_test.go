package binding

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// reuseSource is a program of n rounds of top-level statements of every
// common shape: comments and directives, functions, tagged blocks (whose
// `name {` was a GLR split), if and for statements, imports, and
// statements starting with a name.
func reuseSource(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `// Round %[1]d.
//leia:requires docs.read
import "json"
model {
    default: "fast"
    fast: { provider: "mock", model: "m%[1]d" }
}
look%[1]d := tool {
    name: "look%[1]d"
    fn: func(q) { return q }
}
func step%[1]d(x) {
    y := x + %[1]d
    return y
}
if step%[1]d(1) > 2 {
    print("big")
}
for i := 1; i <= 3; i++ {
    print(i)
}
total%[1]d := step%[1]d(2)
print(total%[1]d)
`, i)
	}
	return []byte(b.String())
}

// TestTopLevelStatementsReused edits inside one function body and
// reparses: every other top-level statement is reused whole (the same
// node as in the old tree), and the tree is the one a fresh parse gives.
// Before the statement break, the static tagged block and the grammar
// without a word token, each was rebuilt: its first token had been read
// in the previous statement's last state, or (a name) was reusable only
// in the state it was shifted in.
func TestTopLevelStatementsReused(t *testing.T) {
	src := reuseSource(40)
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(language); err != nil {
		t.Fatal(err)
	}
	old := p.Parse(src, nil)
	defer old.Close()
	off := strings.Index(string(src), "y := x + 20") + len("y := x + ")
	old.Edit(editAt(src, off))
	tree := p.Parse(src, old)
	defer tree.Close()
	fresh := p.Parse(src, nil)
	defer fresh.Close()
	if got, want := tree.RootNode().ToSexp(), fresh.RootNode().ToSexp(); got != want {
		t.Fatalf("reparsed tree differs from a fresh parse")
	}
	oldIDs := map[uintptr]bool{}
	oroot := old.RootNode()
	for i := range oroot.ChildCount() {
		oldIDs[oroot.Child(i).Id()] = true
	}
	root := tree.RootNode()
	checked := 0
	for i := range root.ChildCount() {
		c := root.Child(i)
		if int(c.StartByte()) <= off && off < int(c.EndByte()) {
			continue
		}
		// A leaf (a comment) may be stored inline in its parent, so its
		// id is no identity; statements are not leaves.
		if c.ChildCount() == 0 {
			continue
		}
		checked++
		if !oldIDs[c.Id()] {
			t.Errorf("top-level %s at %d (%.30q) was rebuilt", c.Kind(), c.StartByte(), src[c.StartByte():])
		}
	}
	if checked < 40*8-1 { // eight statements a round, but the edited one
		t.Fatalf("only %d top-level statements checked", checked)
	}
}

// continuationWords reads CONTINUATION_WORDS from the scanner.
var continuationWords = regexp.MustCompile(`CONTINUATION_WORDS\[\] = \{([^}]*)\}`)

// TestStatementBreakWords keeps the scanner's CONTINUATION_WORDS equal to
// the words the parse table shifts where a top-level statement could also
// end (where _statement_break is valid, other than after a return, where
// the scanner reports no break): a break reported before such a word
// would end a statement the parser continues without it.
func TestStatementBreakWords(t *testing.T) {
	scanner, err := os.ReadFile("../src/scanner.c")
	if err != nil {
		t.Fatal(err)
	}
	m := continuationWords.FindSubmatch(scanner)
	if m == nil {
		t.Fatal("src/scanner.c has no CONTINUATION_WORDS")
	}
	var listed []string
	for _, w := range strings.Split(string(m[1]), ",") {
		listed = append(listed, strings.Trim(strings.TrimSpace(w), `"`))
	}
	l := language
	symbol := func(name string) uint16 {
		for id := range uint16(l.NodeKindCount()) {
			if l.NodeKindForId(id) == name {
				return id
			}
		}
		t.Fatalf("no symbol %s", name)
		return 0
	}
	brk, ret, firstRule := symbol("_statement_break"), symbol("_return_end"), symbol("source_file")
	word := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
	shifted := map[string]bool{}
	it := l.LookaheadIterator(0)
	defer it.Close()
	states := 0
	for s := range uint16(l.ParseStateCount()) {
		if !it.ResetState(s) {
			continue
		}
		syms := it.Iter()
		if !slices.Contains(syms, brk) || slices.Contains(syms, ret) {
			continue
		}
		states++
		for _, y := range syms {
			// Tokens only (nonterminals come after them), by their text.
			name := l.NodeKindForId(y)
			if y >= firstRule || !word.MatchString(name) || (l.NodeKindIsNamed(y) && name != "identifier") {
				continue
			}
			if l.NextState(s, y) != 0 {
				shifted[name] = true
			}
		}
	}
	if states == 0 {
		t.Fatal("no state where a statement break is valid")
	}
	var want []string
	for w := range shifted {
		want = append(want, w)
	}
	slices.Sort(want)
	slices.Sort(listed)
	if !slices.Equal(listed, want) {
		t.Errorf("CONTINUATION_WORDS = %v, the parse table shifts %v where a break is valid", listed, want)
	}
}
