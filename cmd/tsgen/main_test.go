package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const tinyGrammar = `{"name":"tiny","rules":{
  "list":{"type":"REPEAT","content":{"type":"SYMBOL","name":"item"}},
  "item":{"type":"PATTERN","value":"[a-z]+"}}}`

func TestRunWritesFiles(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "grammar.json")
	if err := os.WriteFile(src, []byte(tinyGrammar), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := run([]string{"-name", "tiny_test", "-o", out, src}); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]string{
		"parser.c":             "tree_sitter_tiny_test(void)",
		"tree_sitter/parser.h": "struct TSLanguage {",
		"grammar.json":         `"name":"tiny"`,
		"node-types.json":      `"type": "list"`,
	} {
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), want) {
			t.Errorf("%s lacks %q", f, want)
		}
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"name":"b","rules":{"a":{"type":"SYMBOL","name":"nope"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{bad}, "need -o OUTDIR"},
		{[]string{"-o", dir, filepath.Join(dir, "missing.json")}, "no such file"},
		{[]string{"-o", dir, bad}, "undefined symbol `nope`"},
	} {
		err := run(tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run(%v) = %v, want %q", tc.args, err, tc.want)
		}
	}
}

func TestVersionFromConfig(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tree-sitter.json"), []byte(`{"metadata":{"version":"1.22.3"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "grammar.json"), []byte(tinyGrammar), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := run([]string{"-abi", "15", "-o", out, filepath.Join(src, "grammar.json")}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "parser.c"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), ".minor_version = 22,") {
		t.Error("version from tree-sitter.json not recorded")
	}
	if _, err := parseVersion("1.2"); err == nil {
		t.Error("bad version accepted")
	}
}
