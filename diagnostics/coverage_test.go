package diagnostics

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// usedCode finds code-shaped strings: HARN-XXX-NNN, RHAI-XXX-NNN, LEIANNNN.
var usedCode = regexp.MustCompile(`\b(?:(?:HARN|RHAI)-[A-Z]+-[0-9]{3}|LEIA[0-9]{4})\b`)

// TestEveryUsedCodeIsRegistered scans the repository's sources, fixtures and
// goldens for diagnostic codes and fails on any without an explanation
// page. Prose (Markdown) may mention upstream codes we do not emit, so it
// is not scanned.
func TestEveryUsedCodeIsRegistered(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root not found at %s", root)
	}
	missing := map[string][]string{}
	scanned := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules":
				return fs.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".harn", ".leia", ".rhai", ".toml", ".golden", ".json", ".sarif", ".github", ".txt":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		scanned++
		for _, code := range usedCode.FindAllString(string(data), -1) {
			if _, ok := Lookup(code); !ok {
				rel, _ := filepath.Rel(root, path)
				missing[code] = append(missing[code], rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned == 0 {
		t.Fatal("scanned no files")
	}
	for code, files := range missing {
		if len(files) > 3 {
			files = append(files[:3], "...")
		}
		t.Errorf("%s is used but has no page diagnostics/explain/%s.md (in %s)", code, code, strings.Join(files, ", "))
	}
}
