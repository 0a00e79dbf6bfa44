package format

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/format/harn"
	"github.com/harnlang/harn-check/format/internal/cst"
	"github.com/harnlang/harn-check/format/leia"
)

// leaves returns the spans of a tree's tokens; the nodes whose kind is in
// whole count as one token (strings, comments: their insides are never
// touched).
func leaves(root *cst.Node, whole map[string]bool) [][2]int {
	var out [][2]int
	stack := []*cst.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(n.Kids) == 0 || whole[n.Kind] {
			if n.End > n.Start {
				out = append(out, [2]int{n.Start, n.End})
			}
			continue
		}
		for i := len(n.Kids) - 1; i >= 0; i-- {
			stack = append(stack, n.Kids[i])
		}
	}
	return out
}

// addNoise rewrites the whitespace between tokens: random indentation
// after every line break, random trailing spaces before it and, when
// horizontal is set, one to three spaces wherever there was at least one.
// Gaps holding anything but whitespace (a `\` continuation) are kept.
func addNoise(src []byte, toks [][2]int, horizontal bool, rng *rand.Rand) []byte {
	var b bytes.Buffer
	last := 0
	spaces := func(n int) string { return strings.Repeat(" ", n) }
	for _, t := range append(toks, [2]int{len(src), len(src)}) {
		gap := src[last:t[0]]
		switch {
		case len(bytes.Trim(gap, " \t\r\n")) > 0:
			b.Write(gap)
		case bytes.IndexByte(gap, '\n') >= 0:
			n := bytes.Count(gap, []byte{'\n'})
			for i := 0; i < n; i++ {
				b.WriteString(spaces(rng.Intn(3)) + "\n")
			}
			if t[0] < len(src) {
				b.WriteString(spaces(rng.Intn(9)))
			}
		case horizontal && len(gap) > 0:
			b.WriteString(spaces(1 + rng.Intn(3)))
		default:
			b.Write(gap)
		}
		b.Write(src[t[0]:t[1]])
		last = t[1]
	}
	return b.Bytes()
}

// TestLayoutIgnoresWhitespace formats every Harn and Leia file of the
// repository (that parses) with random indentation and trailing spaces
// added, and for Harn random spacing between tokens as well: the result
// must be the formatting of the original. Layout depends on the program
// and on where the author broke lines, never on the whitespace the
// formatter rewrites.
func TestLayoutIgnoresWhitespace(t *testing.T) {
	root := repoRoot(t)
	if r := os.Getenv("FORMAT_NOISE_ROOT"); r != "" {
		root = r // e.g. upstream Harn's conformance suite
	}
	rng := rand.New(rand.NewSource(18))
	harnWhole := map[string]bool{"string": true, "multiline_string": true, "raw_string": true,
		"line_comment": true, "block_comment": true, "shebang": true}
	leiaWhole := map[string]bool{"string": true, "single_string": true, "raw_string": true, "fenced_string": true,
		"template": true, "fenced_template": true, "comment": true, "directive": true, "q_block": true, "shebang": true}
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		l, ok := ForPath(path)
		if !ok || d.IsDir() {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		want, err := l.Format(src, Options{})
		if err != nil {
			return nil // syntax-error fixtures
		}
		var noisy []byte
		if l.Name == "harn" {
			tree, err := harn.Parse(src)
			if err != nil {
				return err
			}
			noisy = addNoise(src, leaves(tree, harnWhole), true, rng)
		} else {
			tree, err := leia.Parse(src)
			if err != nil {
				return err
			}
			noisy = addNoise(src, leaves(tree, leiaWhole), false, rng)
		}
		got, err := l.Format(noisy, Options{})
		rel, _ := filepath.Rel(root, path)
		if err != nil {
			t.Errorf("%s with whitespace noise: %v\n%s", rel, err, noisy)
			return nil
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: whitespace noise changed the formatting:\n%s", rel, UnifiedDiff("clean", "noisy", want, got))
		}
		checked++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 60 {
		t.Errorf("only %d files checked", checked)
	}
}
