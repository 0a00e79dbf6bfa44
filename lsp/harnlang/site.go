package harnlang

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/lsp/features"
)

// manifestSite is one site of the predicate-site manifest the Harn front
// end returns with its check (driver.Result.Manifest; the fields hover
// shows).
type manifestSite struct {
	Source          string `json:"source"`
	ID              string `json:"id"`
	QuestionSetSHA  string `json:"question_set_sha256"`
	InputTypeSHA    string `json:"input_type_sha256"`
	OutcomeSchema   string `json:"outcome_schema"`
	Effects         []string
	Line, Column    int
	RuntimeAdmitted bool `json:"runtime_admission"`
	Questions       []struct {
		ID          string `json:"id"`
		Kind        string `json:"kind"`
		OptionCount int    `json:"option_count"`
	} `json:"questions"`
}

// siteHover returns the hover of the evaluation site whose call holds
// offset, from the document's predicate-site manifest, or nil when the
// offset is in no site's call. When the file has a site there but no
// manifest (it or an import has errors) the hover says so.
func siteHover(s features.Snapshot, tree *sitter.Tree, offset int) *features.Hover {
	src := s.Doc.Text
	n := tree.RootNode().DescendantForByteRange(uint(offset), uint(offset))
	var calls []*sitter.Node
	for ; n != nil; n = n.Parent() {
		if n.Kind() == "call_expression" {
			calls = append(calls, n)
		}
	}
	if len(calls) == 0 || s.Doc.Analysis == nil {
		return nil
	}
	var sites []manifestSite
	res, err := s.Doc.Analysis()
	if err == nil && len(res.Manifest) > 0 && string(res.Manifest) != "null" {
		var m struct {
			Sites []manifestSite `json:"sites"`
		}
		if json.Unmarshal(res.Manifest, &m) == nil {
			sites = m.Sites
		}
	}
	for _, call := range calls {
		fn := call.ChildByFieldName("function")
		if fn == nil || fn.Kind() != "member_expression" {
			continue
		}
		prop := fn.ChildByFieldName("property")
		if prop == nil || !strings.HasPrefix(prop.Utf8Text(src), "evaluate") {
			continue
		}
		line := int(call.StartPosition().Row) + 1
		lineStart := int(call.StartByte()) - int(call.StartPosition().Column)
		col := utf8.RuneCount(src[lineStart:call.StartByte()]) + 1
		span := nodeSpan(call)
		for _, site := range sites {
			if site.Line == line && site.Column == col && (s.Doc.Path == "" || site.Source == s.Doc.Path) {
				return &features.Hover{Span: span, Markdown: siteMarkdown(site)}
			}
		}
		if sites == nil {
			return &features.Hover{Span: span, Markdown: "**evaluation call** `" + fn.Utf8Text(src) + "`\n\n" +
				"No site facts: this file or one of its imports has errors, so harn-check lists no sites for it."}
		}
	}
	return nil
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12] + "…"
	}
	return sha
}

func siteMarkdown(site manifestSite) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**evaluation site** `%s`\n\n", site.ID)
	fmt.Fprintf(&b, "questions (%d):\n", len(site.Questions))
	for _, q := range site.Questions {
		fmt.Fprintf(&b, "- `%s`: %s", q.ID, q.Kind)
		if q.OptionCount > 0 {
			fmt.Fprintf(&b, ", %d options", q.OptionCount)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\nquestion set digest `%s`", short(site.QuestionSetSHA))
	if site.InputTypeSHA != "" {
		fmt.Fprintf(&b, "  \ninput type digest `%s`", short(site.InputTypeSHA))
	}
	if site.OutcomeSchema != "" {
		fmt.Fprintf(&b, "  \noutcome `%s`", site.OutcomeSchema)
	}
	if len(site.Effects) > 0 {
		fmt.Fprintf(&b, "  \neffects: %s", strings.Join(site.Effects, ", "))
	}
	return b.String()
}
