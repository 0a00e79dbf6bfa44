package cache

import (
	"testing"

	"github.com/harnlang/harn-check/driver"
)

// textTree is a fake syntax tree: the text it was parsed from.
type textTree struct{ text string }

func (*textTree) Close() {}

type textSyntax struct{}

func (textSyntax) Parse(_ Tree, _ []Edit, text []byte) Tree { return &textTree{string(text)} }

// TestCheckGetsTheDocumentsTree: a language that uses trees is handed the
// version's own tree and the workspace reader (nil, the disk, when the
// languageId and not the path chose the language); one that ignores them,
// or a document without a tree, is checked from the text.
func TestCheckGetsTheDocumentsTree(t *testing.T) {
	describe := func(how string, src []byte, tree any, read func(string) ([]byte, error)) driver.Result {
		msg := how + ":" + string(src)
		if tt, ok := tree.(*textTree); ok {
			msg += " tree:" + tt.text
		}
		if read != nil {
			msg += " read"
		}
		return driver.Result{Sources: map[string][]byte{"how": []byte(msg)}}
	}
	// A language that uses a tree it recognises, one that ignores trees,
	// and one without a per-document syntax (so no tree to hand over).
	treeCheck := func(req driver.Request) driver.Result {
		how := "check"
		if req.Tree != nil {
			how = "tree"
		}
		return describe(how, req.Source, req.Tree, req.Read)
	}
	langs := Languages{
		Check: driver.Languages{
			{Name: "Tree check", Extension: ".treechk", Check: treeCheck},
			{Name: "No tree check", Extension: ".notreechk",
				Check: func(req driver.Request) driver.Result { return describe("check", req.Source, nil, nil) }},
			{Name: "No syntax", Extension: ".nosynchk", Check: treeCheck},
		},
		Syntax: map[string]Syntax{".treechk": textSyntax{}, ".notreechk": textSyntax{}},
	}
	read := func(string) ([]byte, error) { return nil, nil }
	for _, tc := range []struct {
		name, uri, languageID string
		read                  func(string) ([]byte, error)
		want                  string
	}{
		{"tree and reader", "file:///w/a.treechk", "", read, "tree:v2 tree:v2 read"},
		{"tree, disk", "file:///w/a.treechk", "", nil, "tree:v2 tree:v2"},
		{"language by languageId", "untitled:x", "treechk", read, "tree:v2 tree:v2"},
		{"language ignoring trees", "file:///w/a.notreechk", "", nil, "check:v2"},
		{"no syntax, no tree", "file:///w/a.nosynchk", "", nil, "check:v2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore(langs)
			s.Open(tc.uri, tc.languageID, 1, "v1")
			d, err := s.Change(tc.uri, 2, []Change{{Text: "v2"}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := d.CheckWith(tc.read)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.Sources["how"]); got != tc.want {
				t.Errorf("check %q, want %q", got, tc.want)
			}
		})
	}
}
