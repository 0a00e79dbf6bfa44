package leia

import "embed"

// queryFiles holds the editor queries, so Go programs (the language server)
// use the same files tree-sitter editors read.
//
//go:embed queries/*.scm
var queryFiles embed.FS

func query(name string) string {
	b, err := queryFiles.ReadFile("queries/" + name)
	if err != nil {
		panic("grammar/leia: missing embedded query " + name) // a build problem
	}
	return string(b)
}

// HighlightsQuery returns queries/highlights.scm.
func HighlightsQuery() string { return query("highlights.scm") }

// FoldsQuery returns queries/folds.scm.
func FoldsQuery() string { return query("folds.scm") }

// LocalsQuery returns queries/locals.scm.
func LocalsQuery() string { return query("locals.scm") }
