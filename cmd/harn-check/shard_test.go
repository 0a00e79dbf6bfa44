package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestShardMergeEqualsUnsharded: check and lint over the repository's
// testdata and examples split with --shard i/n, n = 1..4, give outputs
// that merge (in any order) into the unsharded output byte for byte, for
// JSON envelopes and SARIF logs.
func TestShardMergeEqualsUnsharded(t *testing.T) {
	cache := t.TempDir()
	runIn := func(args ...string) (int, string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }, cacheDir: cache}
		return run(e, args), out.String(), errb.String()
	}
	paths := []string{"../../testdata", "../../examples"}
	for _, tc := range []struct{ cmd, format string }{{"check", "json"}, {"check", "sarif"}, {"lint", "json"}} {
		args := append([]string{tc.cmd, "--format", tc.format}, paths...)
		wantCode, want, _ := runIn(args...)
		for n := 1; n <= 4; n++ {
			t.Run(fmt.Sprintf("%s-%s-%d", tc.cmd, tc.format, n), func(t *testing.T) {
				dir := t.TempDir()
				var files []string
				for i := n; i >= 1; i-- { // reversed: merge orders them
					code, out, stderr := runIn(append(args, "--shard", fmt.Sprintf("%d/%d", i, n))...)
					if code == exitUsage {
						t.Fatalf("shard %d/%d: %s", i, n, stderr)
					}
					f := filepath.Join(dir, fmt.Sprintf("shard-%d.%s", i, tc.format))
					write(t, f, []byte(out))
					files = append(files, f)
				}
				code, got, stderr := runIn(append([]string{"merge"}, files...)...)
				if got != want || code != wantCode {
					t.Errorf("merge: exit %d (want %d), %s; output differs from the unsharded run: %d vs %d bytes", code, wantCode, stderr, len(got), len(want))
				}
			})
		}
	}
	// Shards that do not make one run are refused.
	dir := t.TempDir()
	shard := func(spec string, extra ...string) string {
		_, out, _ := runIn(append(append([]string{"check", "--json"}, extra...), append(paths, "--shard", spec)...)...)
		f := filepath.Join(dir, strings.ReplaceAll(spec, "/", "-")+strings.Join(extra, "")+".json")
		write(t, f, []byte(out))
		return f
	}
	a, b, c := shard("1/2"), shard("2/2"), shard("1/3")
	_, full, _ := runIn(append([]string{"check", "--json"}, paths...)...)
	unsharded := filepath.Join(dir, "full.json")
	write(t, unsharded, []byte(full))
	sarif := filepath.Join(dir, "x.sarif")
	_, s, _ := runIn(append([]string{"check", "--format", "sarif", "--shard", "2/2"}, paths...)...)
	write(t, sarif, []byte(s))
	for _, tc := range []struct {
		files []string
		msg   string
	}{
		{[]string{a}, "shard 2/2 missing"},
		{[]string{a, a, b}, "are both shard 1/2"},
		{[]string{a, c}, "not the same run"},
		{[]string{a, unsharded}, "not the output of a --shard run"},
		{[]string{a, sarif}, "merge outputs of one format"},
	} {
		code, out, stderr := runIn(append([]string{"merge"}, tc.files...)...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, tc.msg) {
			t.Errorf("merge %v: exit %d, %q, want %q", tc.files, code, stderr, tc.msg)
		}
	}
	for _, bad := range []string{"0/2", "3/2", "1", "a/b", "1/0"} {
		if code, _, _ := runIn("check", "--shard", bad, "../../examples"); code != exitUsage {
			t.Errorf("--shard %s: exit %d", bad, code)
		}
	}
}
