package binding

import (
	"os"
	"path/filepath"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// TestQueriesCompileAndRun loads every query file with the language (the
// tree-sitter query compiler checks node names, fields and structure) and
// runs it over every example, requiring highlights to capture something.
func TestQueriesCompileAndRun(t *testing.T) {
	queries, _ := filepath.Glob(filepath.Join("..", "queries", "*.scm"))
	examples, _ := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*", "*.harn"))
	// The language tour programs use every construct of the reference.
	tour, _ := filepath.Glob(filepath.Join("..", "testdata", "programs", "*.harn"))
	if len(tour) == 0 {
		t.Fatal("no tour programs under testdata/programs")
	}
	examples = append(examples, tour...)
	if len(queries) == 0 || len(examples) == 0 {
		t.Fatal("no queries or no examples")
	}
	for _, qf := range queries {
		src, err := os.ReadFile(qf)
		if err != nil {
			t.Fatal(err)
		}
		q, qerr := sitter.NewQuery(language, string(src))
		if qerr != nil {
			t.Errorf("%s: %v", qf, qerr)
			continue
		}
		total := 0
		for _, ef := range examples {
			text, err := os.ReadFile(ef)
			if err != nil {
				t.Fatal(err)
			}
			tree := ParseTree(text, nil)
			qc := sitter.NewQueryCursor()
			matches := qc.Matches(q, tree.RootNode(), text)
			for m := matches.Next(); m != nil; m = matches.Next() {
				total += len(m.Captures)
			}
			qc.Close()
			tree.Close()
		}
		if filepath.Base(qf) == "highlights.scm" && total == 0 {
			t.Errorf("%s captured nothing in the examples", qf)
		}
		t.Logf("%s: %d captures over %d examples", filepath.Base(qf), total, len(examples))
		q.Close()
	}
}
