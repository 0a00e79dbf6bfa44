package ai

import (
	"errors"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Lowering a request table to runtime/llm's TurnRequest is the one
// boundary every form crosses: turn { }, llm.turn, agents and the loop all
// build the provider request here, so a replay fixture does not depend
// on which form the source used.

var errNoMessages = errors.New("llm.turn requires messages")

// Request lowers a request table (model already resolved).
func Request(opts leia.Value) (llm.TurnRequest, error) {
	req := llm.TurnRequest{
		Model:          StrField(opts, "model"),
		ForceTool:      forceTool(Field(opts, "force_tool")),
		MaxTokens:      IntOf(Field(opts, "max_tokens")),
		Temperature:    optFloat(Field(opts, "temperature")),
		TopP:           optFloat(Field(opts, "top_p")),
		ResponseFormat: ToGo(Field(opts, "response_format")),
		Stream:         Field(opts, "stream").Truthy(),
		Stop:           stopList(Field(opts, "stop")),
		Metadata:       stringMap(Field(opts, "metadata")),
		Shape:          ToGo(Field(opts, "output")),
	}
	msgs := Field(opts, "messages")
	if msgs.Table() == nil {
		return req, errNoMessages
	}
	req.Messages = Messages(msgs)
	req.Tools = Tools(Field(opts, "tools"))
	return req, nil
}

// Messages lowers a message list (entries that are not tables are
// skipped, as upstream does).
func Messages(list leia.Value) []llm.TurnMessage {
	var out []llm.TurnMessage
	for _, m := range Items(list) {
		if m.Table() == nil {
			continue
		}
		msg := llm.TurnMessage{
			Role:      StrField(m, "role"),
			Text:      StrField(m, "text"),
			ToolUseID: StrField(m, "tool_use_id"),
			Error:     StrField(m, "error"),
		}
		if c := Field(m, "tool_call"); c.Table() != nil {
			call := toolCall(c)
			msg.ToolCall = &call
		}
		if v := Field(m, "value"); !v.IsNil() {
			msg.Value = ToGo(modelValue(v))
		}
		out = append(out, msg)
	}
	return out
}

// modelValue is a tool value as a provider sees it: without the
// agent_tool.v1 trace node an agent used as a tool attaches (result
// metadata for the script, not content for the model).
func modelValue(v leia.Value) leia.Value {
	tr := Field(v, "trace")
	if tr.Table() == nil || StrField(tr, "type") != "agent_tool" {
		return v
	}
	cp := Clone(v)
	cp.SetStr("trace", leia.Nil)
	return leia.TableValue(cp)
}

func toolCall(c leia.Value) llm.ToolCall {
	return llm.ToolCall{ID: StrField(c, "id"), Tool: StrField(c, "tool"), Args: argsToGo(Field(c, "args"))}
}

// argsToGo converts call arguments to a map (list items keyed "1", "2",
// ...), never nil.
func argsToGo(v leia.Value) map[string]any {
	out := map[string]any{}
	t := v.Table()
	if t == nil {
		return out
	}
	t.Iter(func(k, val leia.Value) bool {
		if key := Str(k); key != "" {
			out[key] = ToGo(val)
		}
		return true
	})
	return out
}

// Tools lowers a tools list (agents must be wrapped already).
func Tools(list leia.Value) []llm.TurnTool {
	var out []llm.TurnTool
	for _, tv := range Items(list) {
		if tv.Table() == nil {
			continue
		}
		tool := llm.TurnTool{
			Name:        StrField(tv, "name"),
			Description: StrField(tv, "description"),
			Params:      Strings(Field(tv, "params")),
			Requires:    requires(tv),
			Schema:      ToGo(Field(tv, "schema")),
		}
		if pd := Field(tv, "param_docs"); pd.Table() != nil {
			tool.ParamDocs = map[string]string{}
			for _, k := range Keys(pd) {
				tool.ParamDocs[k] = StrField(pd, k)
			}
		}
		out = append(out, tool)
	}
	return out
}

// requires is a tool's capability labels (requires, or its alias
// capabilities).
func requires(tool leia.Value) []string {
	if r := Field(tool, "requires"); r.Table() != nil {
		return Strings(r)
	}
	return Strings(Field(tool, "capabilities"))
}

func forceTool(v leia.Value) string {
	if v.Kind() == leia.KindString {
		return v.AsString()
	}
	return StrField(v, "name")
}

func optFloat(v leia.Value) *float64 {
	if !v.IsNumber() {
		return nil
	}
	f := v.AsFloat()
	return &f
}

func stopList(v leia.Value) []string {
	if v.Kind() == leia.KindString {
		return []string{v.AsString()}
	}
	return Strings(v)
}

func stringMap(v leia.Value) map[string]string {
	keys := Keys(v)
	if len(keys) == 0 {
		return nil
	}
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		out[k] = Str(Field(v, k))
	}
	return out
}

// ResultValue is a turn's result table: status, text, reason, calls
// [{id, tool, args}], usage {input_tokens, output_tokens, cost,
// latency_ms}.
func ResultValue(res llm.TurnResult) leia.Value {
	calls := make([]leia.Value, len(res.Calls))
	for i, c := range res.Calls {
		calls[i] = CallValue(c)
	}
	t := leia.NewTable(0, 6)
	t.SetStr("status", leia.String(res.NormalizedStatus()))
	t.SetStr("text", leia.String(res.Text))
	t.SetStr("reason", leia.String(res.Reason))
	t.SetStr("calls", List(calls...))
	u := leia.NewTable(0, 4)
	u.SetStr("input_tokens", leia.Int(res.Usage.InputTokens))
	u.SetStr("output_tokens", leia.Int(res.Usage.OutputTokens))
	u.SetStr("cost", leia.Float(res.Usage.Cost))
	u.SetStr("latency_ms", leia.Int(res.Usage.LatencyMS))
	t.SetStr("usage", leia.TableValue(u))
	return leia.TableValue(t)
}

// CallValue is a tool call table {id, tool, args}.
func CallValue(c llm.ToolCall) leia.Value {
	args := FromGo(map[string]any(c.Args))
	if args.IsNil() {
		args = leia.TableValue(leia.NewTable(0, 0))
	}
	return T("id", c.ID, "tool", c.Tool, "args", args)
}
