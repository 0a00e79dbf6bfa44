package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/difftest/npmcache"
)

// encodeNumbers is the inverse of decodeNumbers, for round trips.
func encodeNumbers(nums []int) string {
	var b strings.Builder
	for _, x := range nums {
		switch {
		case x < 1<<5:
			b.WriteByte(alphabet[x])
		case x < 1<<10:
			b.WriteByte(alphabet[32|x>>6])
			b.WriteByte(alphabet[x&63])
		case x < 1<<15:
			b.WriteByte(alphabet[48|x>>12])
			b.WriteByte(alphabet[x>>6&63])
			b.WriteByte(alphabet[x&63])
		default:
			b.WriteByte(alphabet[56|x>>18])
			b.WriteByte(alphabet[x>>12&63])
			b.WriteByte(alphabet[x>>6&63])
			b.WriteByte(alphabet[x&63])
		}
	}
	return b.String()
}

func TestDecodeNumbers(t *testing.T) {
	cases := [][]int{
		{},
		{0, 31},
		{32, 1023, 5},
		{1024, 32767},
		{32768, 0x10FFFF, 0},
	}
	for _, nums := range cases {
		enc := encodeNumbers(nums)
		got, err := decodeNumbers(enc)
		if err != nil {
			t.Errorf("decodeNumbers(%q): %v", enc, err)
			continue
		}
		if !slices.Equal(got, nums) && len(got)+len(nums) > 0 {
			t.Errorf("decodeNumbers(%q) = %v, want %v", enc, got, nums)
		}
	}
	for _, bad := range []string{"g", "w", "4AA", "A*"} {
		if _, err := decodeNumbers(bad); err == nil {
			t.Errorf("decodeNumbers(%q) succeeded, want an error", bad)
		}
	}
}

func writeRanges(t *testing.T, dir, name string, nums []int) string {
	t.Helper()
	p := filepath.Join(dir, name)
	text := "import decodeRanges from '../../decode-ranges.mjs';\n\nexport default decodeRanges('" +
		encodeNumbers(nums) + "');\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadRanges(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		nums []int
		want []span
		ok   bool
	}{
		{[]int{0x41, 25, 5, 25}, []span{{0x41, 0x5A}, {0x61, 0x7A}}, true},
		{[]int{0, 0}, []span{{0, 0}}, true},
		{[]int{0x10FFFF, 0}, []span{{0x10FFFF, 0x10FFFF}}, true},
		{[]int{0x10FFFF, 1}, nil, false},
		{[]int{3}, nil, false},
	}
	for i, tc := range cases {
		p := writeRanges(t, dir, "r.mjs", tc.nums)
		got, err := readRanges(p)
		if (err == nil) != tc.ok {
			t.Errorf("case %d: readRanges error = %v, want ok=%v", i, err, tc.ok)
			continue
		}
		if tc.ok && !slices.Equal(got, tc.want) {
			t.Errorf("case %d: readRanges = %v, want %v", i, got, tc.want)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "none.mjs"), []byte("export default [];\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readRanges(filepath.Join(dir, "none.mjs")); err == nil || !strings.Contains(err.Error(), "none.mjs") {
		t.Errorf("readRanges without a payload: error %v, want one naming the file", err)
	}
}

func TestGenerateMissingPackage(t *testing.T) {
	_, err := generate(t.TempDir())
	if err == nil {
		t.Fatal("generate on an empty directory succeeded")
	}
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v, want a missing-file error", err)
	}
}

// TestCommittedTablesUpToDate regenerates the tables from the pinned npm
// package and compares them byte for byte with the committed file, twice
// (the generator must be deterministic).
func TestCommittedTablesUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: this test fetches an npm package")
	}
	src, err := npmcache.Fetch(context.Background(), source)
	if errors.Is(err, npmcache.ErrUnreachable) {
		t.Skipf("SKIP: needs the network (the npm registry, offline here): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", "unicode16_tables.go"))
	if err != nil {
		t.Fatal(err)
	}
	for run := 1; run <= 2; run++ {
		got, err := generate(src)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, committed) {
			t.Fatalf("run %d: generated tables differ from unicode16_tables.go; run go generate in grammar/generate/lex/regex", run)
		}
	}
}
