package harnlang

import (
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
)

// answerLabels returns, for an answer field read `X.value.Q.choice` or
// `X.value.Q.level` where X is bound to an evaluate call with its question
// set written at the call, the labels question Q declares: the keys of a
// choice's label dict, the strings of a score's level list. ok is false
// when expr is no such read.
func (f *Features) answerLabels(tree *sitter.Tree, ix *names.Index, src []byte, expr *sitter.Node) (labels []string, question string, ok bool) {
	if expr == nil || expr.Kind() != "member_expression" {
		return nil, "", false
	}
	field := expr.ChildByFieldName("property")
	qread := expr.ChildByFieldName("object")
	if field == nil || qread == nil || qread.Kind() != "member_expression" {
		return nil, "", false
	}
	kind := field.Utf8Text(src)
	if kind != "choice" && kind != "level" {
		return nil, "", false
	}
	qprop, value := qread.ChildByFieldName("property"), qread.ChildByFieldName("object")
	if qprop == nil || value == nil || value.Kind() != "member_expression" {
		return nil, "", false
	}
	vprop, x := value.ChildByFieldName("property"), value.ChildByFieldName("object")
	if vprop == nil || x == nil || vprop.Utf8Text(src) != "value" || x.Kind() != "identifier" {
		return nil, "", false
	}
	d := ix.ResolveUse(nodeSpan(x))
	if d == nil {
		return nil, "", false
	}
	decl := tree.RootNode().NamedDescendantForByteRange(uint(d.Span.Start), uint(d.Span.End))
	for decl != nil && decl.Kind() != "variable_declaration" {
		decl = decl.Parent()
	}
	if decl == nil || outcomeUnion(decl, src) != "EvaluationOutcome" {
		return nil, "", false
	}
	args := decl.ChildByFieldName("value").ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() < 3 {
		return nil, "", false
	}
	questions := args.NamedChild(2)
	if questions.Kind() != "dict" {
		return nil, "", false
	}
	q := qprop.Utf8Text(src)
	for i := uint(0); i < questions.NamedChildCount(); i++ {
		e := questions.NamedChild(i)
		key, val := e.ChildByFieldName("key"), e.ChildByFieldName("value")
		if e.Kind() != "dict_entry" || key == nil || val == nil || keyText(key, src) != q || val.Kind() != "call_expression" {
			continue
		}
		builder := val.ChildByFieldName("function")
		bargs := val.ChildByFieldName("arguments")
		if builder == nil || bargs == nil || bargs.NamedChildCount() < 2 {
			return nil, q, true
		}
		opts := bargs.NamedChild(1)
		switch {
		case builder.Utf8Text(src) == "choice" && kind == "choice" && opts.Kind() == "dict":
			for j := uint(0); j < opts.NamedChildCount(); j++ {
				if k := opts.NamedChild(j).ChildByFieldName("key"); k != nil {
					labels = append(labels, keyText(k, src))
				}
			}
		case builder.Utf8Text(src) == "score" && kind == "level" && opts.Kind() == "list":
			for j := uint(0); j < opts.NamedChildCount(); j++ {
				if s, err := strconv.Unquote(opts.NamedChild(j).Utf8Text(src)); err == nil {
					labels = append(labels, s)
				}
			}
		}
		return labels, q, true
	}
	return nil, q, true
}

// keyText is a dict key as a name: an identifier, or a string unquoted.
func keyText(k *sitter.Node, src []byte) string {
	t := k.Utf8Text(src)
	if u, err := strconv.Unquote(t); err == nil {
		return u
	}
	return t
}

// labelCompletion offers a question's declared labels where an answer's
// choice or level is compared (== or !=) or matched. ok is false when the
// cursor is not in such a place.
func (f *Features) labelCompletion(tree *sitter.Tree, ix *names.Index, src []byte, start, offset int) ([]features.CompletionItem, bool) {
	n := tree.RootNode().DescendantForByteRange(uint(max(start-1, 0)), uint(max(start-1, 0)))
	var read *sitter.Node
	for p := n; p != nil && read == nil; p = p.Parent() {
		switch p.Kind() {
		case "binary_expression":
			op := p.ChildByFieldName("operator")
			left := p.ChildByFieldName("left")
			if op == nil || left == nil || (op.Kind() != "==" && op.Kind() != "!=") || int(left.EndByte()) > start {
				continue
			}
			read = left
		case "match_body":
			if m := p.Parent(); m != nil {
				read = m.ChildByFieldName("value")
			}
		case "block":
			if p.Parent() != nil && p.Parent().Kind() == "match_arm" {
				return nil, false
			}
		}
	}
	labels, q, ok := f.answerLabels(tree, ix, src, read)
	if !ok {
		return nil, false
	}
	quoted := start > 0 && src[start-1] == '"'
	prefix := string(src[start:offset])
	var out []features.CompletionItem
	for _, l := range labels {
		if !strings.HasPrefix(l, prefix) {
			continue
		}
		it := features.CompletionItem{Label: l, Kind: features.CompletionEnumMember,
			Detail: "label of question " + q, InsertText: strconv.Quote(l), Replace: replaceSpan(start, offset)}
		if quoted {
			it.InsertText = l
		}
		out = append(out, it)
	}
	return out, true
}
