package harn

import "github.com/harnlang/harn-check/runtime/llm"

// offeredTools is a turn's tools as llm_mock_calls reports them: in the
// OpenAI chat shape the mock speaks ({type: "function", function: {name,
// description, parameters}}); an entry that already names its type (a
// provider's own tool, such as a hosted tool_search) stays as it is.
func offeredTools(tools Value) Value {
	if tools.k != KindList {
		return tools
	}
	items := tools.r.(*List).SharedItems()
	out := make([]Value, 0, len(items))
	for _, t := range items {
		d := t.AsDict()
		if t.k != KindDict || d == nil || d.Has("type") {
			out = append(out, t)
			continue
		}
		out = append(out, fromGo(llm.OpenAITool(turnTool(d))))
	}
	return NewListValue(out)
}
