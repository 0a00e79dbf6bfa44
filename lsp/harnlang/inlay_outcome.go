package harnlang

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/lang/harn/types"
	"github.com/harnlang/harn-check/lsp/features"
)

// outcomeHint is the inlay hint after an evaluation call (`llm.evaluate`,
// `evaluate_predicate`, `evaluate_request`): the outcome kinds its result
// can have, in the order of the outcome type the checker gave the call
// ("→ answered | low_confidence | ..."), so that a match over them can be
// written without looking the contract up. No hint where the checker has
// no tagged outcome type for the call.
func outcomeHint(s features.Snapshot, tree *sitter.Tree, call *sitter.Node) (features.InlayHint, bool) {
	fn := call.ChildByFieldName("function")
	if fn == nil || fn.Kind() != "member_expression" || !evaluateCallee(fn, s.Doc.Text) {
		return features.InlayHint{}, false
	}
	start, end := int(call.StartByte()), int(call.EndByte())
	facts, delta := spanFacts(s, tree, start, end)
	t, ok := exprType(facts, start+delta, end+delta)
	if !ok {
		return features.InlayHint{}, false
	}
	kinds, ok := types.TagValues(t, "kind")
	if !ok || len(kinds) == 0 {
		return features.InlayHint{}, false
	}
	labels := make([]string, len(kinds))
	for i, k := range kinds {
		labels[i] = fmt.Sprint(k.Value)
	}
	return features.InlayHint{Offset: end, Label: "→ " + strings.Join(labels, " | "), Kind: "type", PaddingLeft: true}, true
}
