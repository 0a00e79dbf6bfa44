package binding

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/lower"
	"github.com/harnlang/harn-check/grammar/harn/syntaxdiag"
)

// snapshotInputs are the example programs, the test programs, the syntax
// diagnostics fixtures and every corpus case.
func snapshotInputs(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for _, pattern := range []string{
		filepath.Join("..", "..", "..", "examples", "*", "*.harn"),
		filepath.Join("..", "testdata", "programs", "*.harn"),
		filepath.Join("..", "syntaxdiag", "testdata", "*.harn"),
	} {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, src)
		}
	}
	caseRe := regexp.MustCompile(`(?ms)^=+\n[^\n]*\n=+\n(.*?)\n-{3,}\n`)
	corpora, _ := filepath.Glob(filepath.Join("..", "test", "corpus", "*.txt"))
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
// the new copy b, or "" when every node agrees on kind, span, flags,
// expected symbols, field names and children.
func diffSnap(path string, a *refSnap, b lower.Node) string {
	s, ok := b.(interface {
		lower.Node
		Expected() []string
	})
	if !ok {
		return fmt.Sprintf("%s: snapshot node is %T", path, b)
	}
	path += "/" + a.kind
	if a.kind != s.Kind() || a.start != s.StartByte() || a.end != s.EndByte() || a.named != s.IsNamed() ||
		a.err != s.IsError() || a.missing != s.IsMissing() || a.extra != s.IsExtra() {
		return fmt.Sprintf("%s: reference %+v, snapshot %s [%d,%d) named %v error %v missing %v extra %v",
			path, *a, s.Kind(), s.StartByte(), s.EndByte(), s.IsNamed(), s.IsError(), s.IsMissing(), s.IsExtra())
	}
	if !reflect.DeepEqual(a.expected, s.Expected()) {
		return fmt.Sprintf("%s: expected %q, snapshot %q", path, a.expected, s.Expected())
	}
	fields := make([]string, s.ChildCount())
	for i := range fields {
		fields[i] = s.FieldNameForChild(i)
	}
	if len(a.fields) != len(fields) || (len(fields) > 0 && !reflect.DeepEqual(a.fields, fields)) {
		return fmt.Sprintf("%s: fields %q, snapshot %q", path, a.fields, fields)
	}
	if len(a.children) != s.ChildCount() {
		return fmt.Sprintf("%s: %d children, snapshot %d", path, len(a.children), s.ChildCount())
	}
	for i, c := range a.children {
		if d := diffSnap(path, c, s.Child(i)); d != "" {
			return d
		}
	}
	return ""
}

// mutate applies one to four random byte edits to src: deletions,
// insertions of characters that matter to Harn's syntax, duplications and
// replacements.
func mutate(rng *rand.Rand, src []byte) []byte {
	const alphabet = "{}()[]<>\"'`$,;:.=+-*/|&!?#\\ \n\tfnletifmatchreturn0123456789_xyz\x00\xff"
	out := append([]byte(nil), src...)
	for range 1 + rng.Intn(4) {
		i := rng.Intn(len(out) + 1)
		switch rng.Intn(4) {
		case 0: // delete a span
			j := min(len(out), i+1+rng.Intn(8))
			out = append(out[:i:i], out[j:]...)
		case 1: // insert a character
			out = append(out[:i:i], append([]byte{alphabet[rng.Intn(len(alphabet))]}, out[i:]...)...)
		case 2: // duplicate a span
			j := min(len(out), i+1+rng.Intn(16))
			out = append(out[:j:j], append(append([]byte(nil), out[i:j]...), out[j:]...)...)
		default: // replace a byte
			if i < len(out) {
				out[i] = alphabet[rng.Intn(len(alphabet))]
			}
		}
	}
	return out
}

// compareSnapshots parses src (incrementally from old when it is not nil)
// and checks the new Snapshot against the reference; with lowering set it
// also compares the lowered tree and the syntax diagnostics. It returns
// the tree, which the caller closes, and counts ERROR and MISSING nodes.
func compareSnapshots(t *testing.T, name string, src []byte, old *sitter.Tree, lowering bool, errs, missing *int) *sitter.Tree {
	t.Helper()
	tree := ParseTree(src, old)
	if tree == nil {
		return nil // the parse budget ran out; Parse reports that without a snapshot
	}
	ref, got := refSnapshot(tree), Snapshot(tree)
	if d := diffSnap("", ref, got); d != "" {
		t.Errorf("%s (%q): %s", name, truncateForLog(src), d)
		return tree
	}
	var count func(s *refSnap)
	count = func(s *refSnap) {
		if s.err {
			*errs++
		}
		if s.missing {
			*missing++
		}
		for _, c := range s.children {
			count(c)
		}
	}
	count(ref)
	if lowering {
		if a, b := ast.Dump(lower.File(src, ref)), ast.Dump(lower.File(src, got)); a != b {
			t.Errorf("%s: lowering differs:\nreference:\n%s\nsnapshot:\n%s", name, a, b)
		}
		a, b := syntaxdiag.Diagnose("x.harn", src, ref), syntaxdiag.Diagnose("x.harn", src, got)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: diagnostics differ:\nreference: %+v\nsnapshot:  %+v", name, a, b)
		}
	}
	return tree
}

func truncateForLog(src []byte) []byte {
	if len(src) > 200 {
		return src[:200]
	}
	return src
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
	mutations := 4000
	if testing.Short() {
		mutations = 500
	}
	rng := rand.New(rand.NewSource(1))
	for m := range mutations {
		src := inputs[rng.Intn(len(inputs))]
		// Long programs are cut to a random window so that the mutations
		// stay cheap and land in many different contexts.
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
		// Edit the tree into a further mutation and reparse incrementally,
		// so that the walk also sees reused subtrees.
		off := rng.Intn(len(mutated) + 1)
		end := min(len(mutated), off+rng.Intn(4))
		ins := []byte{"{}()\"x1 \n;"[rng.Intn(10)]}
		edited := append(append(append([]byte(nil), mutated[:off]...), ins...), mutated[end:]...)
		startPt, oldEndPt := pointAt(mutated, off), pointAt(mutated, end)
		tree.Edit(&sitter.InputEdit{
			StartByte: uint(off), OldEndByte: uint(end), NewEndByte: uint(off + len(ins)),
			StartPosition: startPt, OldEndPosition: oldEndPt, NewEndPosition: pointAt(edited, off+len(ins)),
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

// TestSnapshotConcurrent: snapshots taken at the same time from several
// goroutines (the LSP checks documents concurrently) share the name
// tables, the record buffers' pool and the expected-symbol cache safely.
// Run with -race to check the sharing.
func TestSnapshotConcurrent(t *testing.T) {
	inputs := snapshotInputs(t)
	errc := make(chan string, 4)
	for g := range 4 {
		go func() {
			rng := rand.New(rand.NewSource(int64(g)))
			for range 50 {
				src := mutate(rng, inputs[rng.Intn(len(inputs))])
				tree := ParseTree(src, nil)
				if tree == nil {
					continue
				}
				d := diffSnap("", refSnapshot(tree), Snapshot(tree))
				tree.Close()
				if d != "" {
					errc <- d
					return
				}
			}
			errc <- ""
		}()
	}
	for range 4 {
		if d := <-errc; d != "" {
			t.Error(d)
		}
	}
}
