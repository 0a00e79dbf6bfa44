package harn

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// upstreamCorpus is upstream Harn's conformance suite, which upstream keeps
// `harn fmt`-clean (its Makefile's fmt-harn target). HARN_UPSTREAM points
// at another checkout of burin-labs/harn.
func upstreamCorpus() string {
	root := os.Getenv("HARN_UPSTREAM")
	if root == "" {
		root = "/work/upstream/harn"
	}
	return filepath.Join(root, "conformance", "tests")
}

// TestUpstreamConformanceUnchanged is the compatibility measure of issue 18:
// the share of upstream's formatted conformance programs that Format leaves
// byte for byte unchanged. The acceptance floor is 95%; every file that
// parses must also pass Verify and format idempotently.
func TestUpstreamConformanceUnchanged(t *testing.T) {
	dir := upstreamCorpus()
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIP: upstream Harn conformance corpus not found at %s (set HARN_UPSTREAM to a checkout of burin-labs/harn): %v", dir, err)
	}
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".harn") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no .harn files under %s", dir)
	}
	unchanged, byDesign, changed, syntax := 0, 0, 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, path)
		out, err := Format(src)
		if errors.Is(err, ErrSyntax) {
			syntax++
			t.Logf("not formatted (our grammar rejects it): %s: %v", rel, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if err := Verify(src, out); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
		if again, err := Format(out); err != nil || !bytes.Equal(again, out) {
			t.Errorf("%s: formatting is not idempotent (err %v)\n%s", rel, err, firstDiff(out, again))
		}
		if bytes.Equal(out, src) {
			unchanged++
			continue
		}
		if departsByDesign(src, out) {
			byDesign++
			continue
		}
		changed++
		t.Logf("changed: %s\n%s", rel, firstDiff(src, out))
	}
	share := float64(unchanged+byDesign) / float64(len(files))
	t.Logf("upstream conformance: %d of %d files unchanged (%.1f%%), %d more changed only where this formatter departs by design; %d changed otherwise, %d not parsed by our grammar",
		unchanged, len(files), 100*float64(unchanged)/float64(len(files)), byDesign, changed, syntax)
	if skip := upstreamFmtSkip(); len(skip) > 0 {
		t.Logf("upstream's own `harn fmt --check` skips %d of these files (Makefile FMT_HARN_SKIP: %s)",
			len(skip), strings.Join(skip, " "))
	}
	if share < 0.95 {
		t.Errorf("only %.1f%% of upstream's formatted files are unchanged or changed by design; the acceptance floor is 95%%", 100*share)
	}
}

// departsByDesign reports whether out differs from upstream's formatting
// src only where this formatter departs from upstream's on purpose
// (issue 29): a line upstream left wider than Width where a break was
// possible is broken, and a broken method call's arguments are indented
// under its `.m(` (or the call joins its receiver's line) instead of
// sitting at the receiver's indentation. Every line of src that out
// drops must then be over the width, or come back in out re-indented or
// joined to a neighbour.
func departsByDesign(src, out []byte) bool {
	a := strings.Split(string(src), "\n")
	b := strings.Split(string(out), "\n")
	// Longest common subsequence of lines: what is not in it was dropped.
	l := make([][]int, len(a)+1)
	for i := range l {
		l[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var added []string
	var dropped []string
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || l[i][j+1] >= l[i+1][j]):
			added = append(added, b[j])
			j++
		default:
			dropped = append(dropped, a[i])
			i++
		}
	}
	for _, d := range dropped {
		if utf8.RuneCountInString(d) > Width {
			continue
		}
		trimmed, found := strings.TrimSpace(d), false
		for _, ad := range added {
			if strings.Contains(ad, trimmed) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// firstDiff shows the first differing line of a and b with a little
// context.
func firstDiff(a, b []byte) string {
	al := strings.Split(string(a), "\n")
	bl := strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y || i >= len(al) || i >= len(bl) {
			var sb strings.Builder
			for j := max(0, i-2); j < i+3; j++ {
				if j < len(al) {
					sb.WriteString("  - " + al[j] + "\n")
				}
			}
			for j := max(0, i-2); j < i+3; j++ {
				if j < len(bl) {
					sb.WriteString("  + " + bl[j] + "\n")
				}
			}
			return "line " + strconv.Itoa(i+1) + ":\n" + sb.String()
		}
	}
	return "(no difference)"
}

// upstreamFmtSkip reads the files upstream's Makefile leaves out of its
// `harn fmt --check` run (FMT_HARN_SKIP), for the log.
func upstreamFmtSkip() []string {
	data, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(upstreamCorpus())), "Makefile"))
	if err != nil {
		return nil
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "FMT_HARN_SKIP :="); ok {
			return strings.Fields(rest)
		}
	}
	return nil
}
