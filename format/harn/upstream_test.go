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
	unchanged, changed, syntax := 0, 0, 0
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
		changed++
		t.Logf("changed: %s\n%s", rel, firstDiff(src, out))
	}
	share := float64(unchanged) / float64(len(files))
	t.Logf("upstream conformance: %d of %d files unchanged (%.1f%%); %d changed, %d not parsed by our grammar",
		unchanged, len(files), 100*share, changed, syntax)
	if skip := upstreamFmtSkip(); len(skip) > 0 {
		t.Logf("upstream's own `harn fmt --check` skips %d of these files (Makefile FMT_HARN_SKIP: %s)",
			len(skip), strings.Join(skip, " "))
	}
	if share < 0.95 {
		t.Errorf("only %.1f%% of upstream's formatted files are unchanged; the acceptance floor is 95%%", 100*share)
	}
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
