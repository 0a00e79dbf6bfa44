package format

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// repoRoot is the repository's root (the directory with go.mod).
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

// TestSafety is the formatters' safety acceptance: on every .harn and
// .leia file of the repository (the examples, every fixture, and the
// corpus under testdata/corpus written for this test) formatting is
// idempotent, keeps the syntax tree apart from whitespace, comments'
// positions and separators, and keeps every comment (Verify). A file with
// syntax errors is refused, never formatted.
func TestSafety(t *testing.T) {
	root := repoRoot(t)
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if _, ok := ForPath(path); ok && !d.IsDir() {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, path := range files {
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		l, _ := ForPath(path)
		out, err := l.Format(src, Options{})
		if errors.Is(err, ErrSyntax) {
			// Fixtures of syntax diagnostics are invalid on purpose; the
			// examples and the corpus must parse.
			counts["refused"]++
			t.Logf("refused (syntax error): %s: %v", rel, err)
			if strings.HasPrefix(rel, "examples/") || strings.HasPrefix(rel, "format/testdata/") {
				t.Errorf("%s does not parse: %v", rel, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		counts[l.Name]++
		if err := l.Verify(src, out); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
		again, err := l.Format(out, Options{})
		if err != nil || !bytes.Equal(again, out) {
			t.Errorf("%s: not idempotent (%v):\n%s", rel, err, UnifiedDiff("once", "twice", out, again))
		}
		if got := Apply(src, Edits(src, out)); !bytes.Equal(got, out) {
			t.Errorf("%s: the edits do not reproduce the formatting", rel)
		}
	}
	if counts["harn"] < 50 || counts["leia"] < 10 {
		t.Errorf("too few files checked: %v", counts)
	}
	t.Logf("checked %d Harn and %d Leia files; %d refused for syntax errors", counts["harn"], counts["leia"], counts["refused"])
}

func TestSource(t *testing.T) {
	out, err := Source("a.harn", []byte("fn f(){return 1}"), Options{})
	if err != nil || string(out) != "fn f() {\n  return 1\n}\n" {
		t.Errorf("harn: %q, %v", out, err)
	}
	out, err = Source("a.leia", []byte("if a {\nb()\n}"), Options{TabSize: 2})
	if err != nil || string(out) != "if a {\n  b()\n}\n" {
		t.Errorf("leia with tab size 2: %q, %v", out, err)
	}
	out, err = Source("a.harn", []byte("fn f() {\nb()\n}"), Options{TabSize: 8})
	if err != nil || string(out) != "fn f() {\n  b()\n}\n" {
		t.Errorf("harn ignores the tab size: %q, %v", out, err)
	}
	if _, err := Source("a.harn", []byte("fn f( {"), Options{}); !errors.Is(err, ErrSyntax) {
		t.Errorf("syntax error: %v", err)
	}
	if _, err := Source("a.txt", nil, Options{}); !errors.Is(err, ErrUnknownLanguage) {
		t.Errorf("unknown language: %v", err)
	}
}

func TestEdits(t *testing.T) {
	tests := []struct {
		old, new string
		want     []Edit
	}{
		{"a", "a", nil},
		{"f(a,b)", "f(a, b)", []Edit{{4, 4, " "}}},
		{"if x {\nreturn 1  \n}\n", "if x {\n  return 1\n}\n", []Edit{{7, 7, "  "}, {15, 17, ""}}},
		{"a(); b()", "a()\nb()", []Edit{{3, 5, "\n"}}},
		{"f(\n  a,\n)", "f(a)", []Edit{{2, 5, ""}, {6, 8, ""}}},
		{"\"a  b\"  x", "\"a  b\" x", []Edit{{7, 8, ""}}},
		// Not a formatting: the rest is one edit.
		{"abc", "abd", []Edit{{2, 3, "d"}}},
	}
	for _, tc := range tests {
		got := Edits([]byte(tc.old), []byte(tc.new))
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("Edits(%q, %q) = %v, want %v", tc.old, tc.new, got, tc.want)
		}
		if applied := Apply([]byte(tc.old), got); string(applied) != tc.new {
			t.Errorf("Apply(Edits(%q, %q)) = %q", tc.old, tc.new, applied)
		}
	}
	edits := []Edit{{0, 1, ""}, {5, 5, " "}, {9, 12, ""}}
	if got := InRange(edits, 4, 9); fmt.Sprint(got) != fmt.Sprint([]Edit{{5, 5, " "}}) {
		t.Errorf("InRange = %v", got)
	}
}

func TestUnifiedDiff(t *testing.T) {
	old := "fn f(){\nreturn 1}\n\n\nfn g() {\n  return 2\n}\n"
	l, _ := ForExt(".harn")
	neu, err := l.Format([]byte(old), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := UnifiedDiff("a.harn", "a.harn (formatted)", []byte(old), neu)
	want := `--- a.harn
+++ a.harn (formatted)
@@ -1,7 +1,7 @@
-fn f(){
-return 1}
+fn f() {
+  return 1
+}
 
-
 fn g() {
   return 2
 }
`
	if !strings.HasPrefix(got, want) {
		t.Errorf("diff:\n%s\nwant prefix:\n%s", got, want)
	}
	if patched := patch(t, old, got); patched != string(neu) {
		t.Errorf("the diff does not apply:\n%s", patched)
	}
	if UnifiedDiff("a", "b", neu, neu) != "" {
		t.Error("no diff between equal texts")
	}
}

// patch applies a unified diff to old, checking its hunk headers.
func patch(t *testing.T, old, diff string) string {
	t.Helper()
	oldLines := strings.SplitAfter(old, "\n")
	if oldLines[len(oldLines)-1] == "" {
		oldLines = oldLines[:len(oldLines)-1]
	}
	var out []string
	cur := 0
	head := regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)
	lines := strings.SplitAfter(diff, "\n")
	for i := 2; i < len(lines); i++ {
		m := head.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		start, _ := strconv.Atoi(m[1])
		if m[2] != "0" {
			start--
		}
		for ; cur < start; cur++ {
			out = append(out, oldLines[cur])
		}
		for i+1 < len(lines) && lines[i+1] != "" && !strings.HasPrefix(lines[i+1], "@@") {
			i++
			l := lines[i]
			switch l[0] {
			case ' ':
				if oldLines[cur] != l[1:] {
					t.Fatalf("context %q does not match line %d %q", l[1:], cur+1, oldLines[cur])
				}
				out = append(out, l[1:])
				cur++
			case '-':
				if oldLines[cur] != l[1:] {
					t.Fatalf("removed %q does not match line %d %q", l[1:], cur+1, oldLines[cur])
				}
				cur++
			case '+':
				out = append(out, l[1:])
			}
		}
	}
	out = append(out, oldLines[cur:]...)
	return strings.Join(out, "")
}
