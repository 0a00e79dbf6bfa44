package harnlang

import (
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lang/harn/types"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/names"
)

// outcomeKinds returns the `kind` tags of a std/predicate outcome union
// ("EvaluationOutcome", "PredicateOutcome"), in declared order.
func outcomeKinds(union string) []string {
	alias, ok := stdlib.Predicate().Types[union]
	if !ok {
		return nil
	}
	lits, ok := types.TagValues(alias.Target, "kind")
	if !ok {
		return nil
	}
	var out []string
	for _, l := range lits {
		if s, ok := l.Value.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// outcomeUnion names the outcome type a declaration holds, judged from
// syntax: a variable bound to an evaluate* call, or a parameter annotated
// with the outcome type; "" otherwise.
func outcomeUnion(decl *sitter.Node, src []byte) string {
	switch decl.Kind() {
	case "variable_declaration":
		v := decl.ChildByFieldName("value")
		if v == nil || v.Kind() != "call_expression" {
			return ""
		}
		fn := v.ChildByFieldName("function")
		if fn == nil || fn.Kind() != "member_expression" {
			return ""
		}
		switch prop := fn.ChildByFieldName("property"); {
		case prop == nil:
		case prop.Utf8Text(src) == stdlib.MethodEvaluatePredicate:
			return "PredicateOutcome"
		case prop.Utf8Text(src) == stdlib.MethodEvaluate, prop.Utf8Text(src) == stdlib.MethodEvaluateRequest:
			return "EvaluationOutcome"
		}
	case "parameter":
		if t := decl.ChildByFieldName("type"); t != nil {
			for _, u := range []string{"EvaluationOutcome", "PredicateOutcome"} {
				if strings.Contains(t.Utf8Text(src), u) {
					return u
				}
			}
		}
	}
	return ""
}

// outcomeCompletion offers the outcome kinds not yet matched when the
// cursor is at an arm's pattern in `match X.kind { ... }` and X holds an
// evaluation outcome. ok is false when the cursor is not in such a place.
func (f *Features) outcomeCompletion(tree *sitter.Tree, ix *names.Index, src []byte, start, offset int) ([]features.CompletionItem, bool) {
	n := tree.RootNode().DescendantForByteRange(uint(max(start-1, 0)), uint(max(start-1, 0)))
	var body *sitter.Node
	for ; n != nil; n = n.Parent() {
		if n.Kind() == "block" && n.Parent() != nil && n.Parent().Kind() == "match_arm" {
			return nil, false // inside an arm's body: ordinary completion
		}
		if n.Kind() == "match_body" {
			body = n
			break
		}
	}
	if body == nil || int(body.StartByte()) >= start {
		return nil, false
	}
	match := body.Parent()
	value := match.ChildByFieldName("value")
	if value == nil || value.Kind() != "member_expression" {
		return nil, false
	}
	prop, obj := value.ChildByFieldName("property"), value.ChildByFieldName("object")
	if prop == nil || obj == nil || prop.Utf8Text(src) != "kind" || obj.Kind() != "identifier" {
		return nil, false
	}
	d := ix.ResolveUse(nodeSpan(obj))
	if d == nil {
		return nil, false
	}
	declNode := tree.RootNode().NamedDescendantForByteRange(uint(d.Span.Start), uint(d.Span.End))
	for declNode != nil && declNode.Kind() != "variable_declaration" && declNode.Kind() != "parameter" {
		declNode = declNode.Parent()
	}
	if declNode == nil {
		return nil, false
	}
	union := outcomeUnion(declNode, src)
	if union == "" {
		return nil, false
	}
	matched := map[string]bool{}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		arm := body.NamedChild(i)
		if arm.Kind() != "match_arm" {
			continue
		}
		if p := arm.ChildByFieldName("pattern"); p != nil && (int(p.EndByte()) < start || int(p.StartByte()) > offset) {
			if s, err := strconv.Unquote(p.Utf8Text(src)); err == nil {
				matched[s] = true
			}
		}
	}
	quoted := start > 0 && src[start-1] == '"'
	replace := diagnostics.Span{Start: start, End: offset}
	prefix := string(src[start:offset])
	var out []features.CompletionItem
	for _, k := range outcomeKinds(union) {
		if matched[k] || !strings.HasPrefix(k, prefix) {
			continue
		}
		it := features.CompletionItem{Label: k, Kind: features.CompletionEnumMember,
			Detail: union + " kind", InsertText: strconv.Quote(k), Replace: replace}
		if quoted {
			it.InsertText = k
		}
		out = append(out, it)
	}
	return out, true
}
