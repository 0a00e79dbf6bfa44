package binding

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/grammar/tsflat"
)

// snapshotInputs are the example programs and every corpus case.
func snapshotInputs(t *testing.T) [][]byte {
	t.Helper()
	ex := examples(t)
	var out [][]byte
	for _, name := range sortedKeys(ex) {
		out = append(out, ex[name])
	}
	// A case is a title between `===` rules (optionally followed by
	// attribute lines such as `:error`), the source, and a `---` divider.
	caseRe := regexp.MustCompile(`(?ms)^=+\n[^\n]*\n(?::[^\n]*\n)*=+\n(.*?)\n-{3,}\n`)
	corpora, _ := filepath.Glob(filepath.Join("..", "test", "corpus", "*.txt"))
	sort.Strings(corpora)
	cases := 0
	for _, c := range corpora {
		data, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range caseRe.FindAllSubmatch(data, -1) {
			out = append(out, m[1])
			cases++
		}
	}
	if cases < 50 {
		t.Fatalf("found %d corpus cases in %d files; the pattern no longer matches the corpus format", cases, len(corpora))
	}
	return out
}

// diffSnap returns the first difference between the reference copy a and
// the new copy b, or "" when every node agrees on kind, span, flags, field
// names and children.
func diffSnap(path string, a *refNode, s ast.TreeNode) string {
	if s == nil {
		return fmt.Sprintf("%s: no snapshot node", path)
	}
	path += "/" + a.kind
	if a.kind != s.Kind() || a.start != s.StartByte() || a.end != s.EndByte() || a.named != s.IsNamed() ||
		a.isErr != s.IsError() || a.missing != s.IsMissing() {
		return fmt.Sprintf("%s: reference %+v, snapshot %s [%d,%d) named %v error %v missing %v",
			path, *a, s.Kind(), s.StartByte(), s.EndByte(), s.IsNamed(), s.IsError(), s.IsMissing())
	}
	fields := make([]string, s.ChildCount())
	for i := range fields {
		fields[i] = s.FieldNameForChild(i)
	}
	if len(a.kids) != s.ChildCount() {
		return fmt.Sprintf("%s: %d children, snapshot %d", path, len(a.kids), s.ChildCount())
	}
	if len(a.fields) > 0 && !reflect.DeepEqual(a.fields, fields) {
		return fmt.Sprintf("%s: fields %q, snapshot %q", path, a.fields, fields)
	}
	for i, c := range a.kids {
		if d := diffSnap(path, c, s.Child(i)); d != "" {
			return d
		}
	}
	return ""
}

// mutate applies one to four random byte edits to src: deletions,
// insertions of characters that matter to Leia's syntax, duplications and
// replacements.
func mutate(rng *rand.Rand, src []byte) []byte {
	const alphabet = "{}()[]<>\"'`$,;:.=+-*/|&!?#\\ \n\tfuncreturniftool:=0123456789_xyz\x00\xff"
	out := append([]byte(nil), src...)
	for range 1 + rng.Intn(4) {
		i := rng.Intn(len(out) + 1)
		switch rng.Intn(4) {
		case 0:
			j := min(len(out), i+1+rng.Intn(8))
			out = append(out[:i:i], out[j:]...)
		case 1:
			out = append(out[:i:i], append([]byte{alphabet[rng.Intn(len(alphabet))]}, out[i:]...)...)
		case 2:
			j := min(len(out), i+1+rng.Intn(16))
			out = append(out[:j:j], append(append([]byte(nil), out[i:j]...), out[j:]...)...)
		default:
			if i < len(out) {
				out[i] = alphabet[rng.Intn(len(alphabet))]
			}
		}
	}
	return out
}

// compareSnapshots parses src (incrementally from old when it is not nil)
// and checks the new Snapshot against the reference; with lowering set it
// also compares the lowered trees. It returns the tree for the caller to
// close and counts ERROR and MISSING nodes.
func compareSnapshots(t *testing.T, name string, src []byte, old *sitter.Tree, lowering bool, errs, missing *int) *sitter.Tree {
	t.Helper()
	tree := ParseTree(src, old)
	if tree == nil {
		return nil // the parse budget ran out; Parse reports that without a snapshot
	}
	ref, got := refSnapshot(tree.RootNode()), Snapshot(tree.RootNode())
	if d := diffSnap("", ref, got); d != "" {
		t.Errorf("%s (%q): %s", name, src[:min(len(src), 200)], d)
		return tree
	}
	var count func(s *refNode)
	count = func(s *refNode) {
		if s.isErr {
			*errs++
		}
		if s.missing {
			*missing++
		}
		for _, c := range s.kids {
			count(c)
		}
	}
	count(ref)
	if lowering {
		if a, b := ast.Dump(ast.Lower(ref, src)), ast.Dump(ast.Lower(got, src)); a != b {
			t.Errorf("%s: lowering differs:\nreference:\n%s\nsnapshot:\n%s", name, a, b)
		}
	}
	return tree
}

// TestSnapshotMatchesReference: the one-call Snapshot gives exactly the
// tree the previous cursor walk gave (kept as refSnapshot), on the corpus,
// the example programs, thousands of random mutations of them, and trees
// reparsed incrementally after a mutation.
func TestSnapshotMatchesReference(t *testing.T) {
	inputs := snapshotInputs(t)
	var errs, missing int
	for i, src := range inputs {
		if tree := compareSnapshots(t, fmt.Sprintf("input %d", i), src, nil, true, &errs, &missing); tree != nil {
			tree.Close()
		}
	}
	if Snapshot(nil) != nil {
		t.Error("Snapshot(nil) is not nil")
	}
	mutations := 4000
	if testing.Short() {
		mutations = 500
	}
	rng := rand.New(rand.NewSource(1))
	for m := range mutations {
		src := inputs[rng.Intn(len(inputs))]
		if len(src) > 1500 {
			i := rng.Intn(len(src) - 1000)
			src = src[i : i+1000]
		}
		mutated := mutate(rng, src)
		name := fmt.Sprintf("mutation %d", m)
		tree := compareSnapshots(t, name, mutated, nil, m%10 == 0, &errs, &missing)
		if tree == nil || m%5 != 0 {
			if tree != nil {
				tree.Close()
			}
			continue
		}
		off := rng.Intn(len(mutated) + 1)
		end := min(len(mutated), off+rng.Intn(4))
		ins := []byte{"{}()\"x1 \n:"[rng.Intn(10)]}
		edited := append(append(append([]byte(nil), mutated[:off]...), ins...), mutated[end:]...)
		tree.Edit(&sitter.InputEdit{
			StartByte: uint(off), OldEndByte: uint(end), NewEndByte: uint(off + len(ins)),
			StartPosition: point(mutated, off), OldEndPosition: point(mutated, end),
			NewEndPosition: point(edited, off+len(ins)),
		})
		if re := compareSnapshots(t, name+" reparsed", edited, tree, false, &errs, &missing); re != nil {
			re.Close()
		}
		tree.Close()
		if t.Failed() {
			return
		}
	}
	if errs < mutations/5 || missing < mutations/10 {
		t.Errorf("the inputs gave %d ERROR and %d MISSING nodes; the test needs many of both", errs, missing)
	}
	t.Logf("%d inputs, %d mutations: %d ERROR and %d MISSING nodes compared", len(inputs), mutations, errs, missing)
}

// TestLoweredTopsMatchesBlankedText lowers every other top-level
// statement of the example programs, the bodies of the kept functions
// every second one hollowed, and compares the result with the lowering
// of the text with everything left out blanked to spaces.
func TestLoweredTopsMatchesBlankedText(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "examples", "leia", "*.leia"))
	if len(files) == 0 {
		t.Fatal("no example programs")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tree := ParseTree(src, nil)
		root := tree.RootNode()
		if root.HasError() {
			tree.Close()
			continue
		}
		blank := bytes.Clone(src)
		clear := func(a, b uint) {
			for i := a; i < b; i++ {
				if blank[i] != '\n' {
					blank[i] = ' '
				}
			}
		}
		var tops []*sitter.Node
		var check []bool
		var hollow [][2]int
		kids := tsflat.NamedChildren(root, nil)
		for i := range kids {
			n := &kids[i]
			if i%2 == 1 {
				clear(n.StartByte(), n.EndByte())
				continue
			}
			tops = append(tops, n)
			check = append(check, true)
			if body := n.ChildByFieldName("body"); n.Kind() == "function_declaration" && body != nil && len(tops)%2 == 0 {
				hollow = append(hollow, [2]int{int(body.StartByte()), int(body.EndByte())})
				clear(body.StartByte()+1, body.EndByte()-1)
			}
		}
		got, gotDiags, ok := LoweredTops(path, src, root, tops, check, hollow)
		tree.Close()
		if !ok {
			t.Fatalf("%s: not lowered", path)
		}
		want, wantDiags := Parse(path, blank)
		// The file node spans the whole text either way; comments in the
		// blanked text are gone from both.
		if a, b := ast.Dump(want), ast.Dump(got); a != b {
			t.Errorf("%s: lowered statements differ from the blanked text's:\n%s\nwant\n%s", path, b, a)
		}
		if len(gotDiags) != len(wantDiags) {
			t.Errorf("%s: %d diagnostics, want %d", path, len(gotDiags), len(wantDiags))
		}
	}
}
