package ai

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Tool contracts and registries: llm.tool_info(tool_or_tools) and
// llm.tool_schema(tool_or_tools) inventory tool descriptors without
// running them; llm.validate_tools(tools) returns (true, nil) or (nil,
// {kind: "validation", message, tool, field, index}) when contract
// metadata is missing or unsupported; llm.tool_registry(tools, opts)
// projects a tool list into a provider-free registry,
// llm.validate_tool_registry(registry, opts) gates it with findings, and
// llm.tool_invocation_trace(call, result, opts) records one call as the
// registered, schema_validated, approval_checked, invoked and
// result_recorded steps with metadata-only result and provenance. All
// have camelCase aliases. Contracts are advisory: nothing here runs a
// tool, registers a callback, authorizes an effect or coerces a value.
//
// A contract is {kind: "tool_contract", name, tool_name, description,
// type: "agent"|"function", params, requires, capabilities,
// capability_ids, schema, input_schema (the declared schema, else one
// built from params, else the output shape), output, output_schema,
// result, error, replay_key, caller_role, executor_role, effect,
// approval_policy, provider_wire_format, live_network,
// provider_credentials_required, secret_parameters_allowed} (the last
// eight default to caller, executor, read_only, not_required_for_fixture,
// none, false, false, false). The registry gate flags a descriptor's
// live-network and provider-credential boundaries as it flags the
// registry's own.

// isAgentTool reports a tool wrapping an agent.
func isAgentTool(tool leia.Value) bool {
	if Field(tool, "__llm_agent_tool").Truthy() {
		return true
	}
	if n := Field(tool, "fn").Native(); n != nil && len(n.Name) > len("llm.agent_as_tool.") && n.Name[:len("llm.agent_as_tool.")] == "llm.agent_as_tool." {
		return true
	}
	return false
}

// contractTool reports a table inventoried as a tool: a descriptor, or
// anything with a name or fn.
func contractTool(v leia.Value) bool {
	return v.Table() != nil && (Field(v, "__llm_tool").Truthy() || !Field(v, "name").IsNil() || !Field(v, "fn").IsNil())
}

// paramsSchema is {type: "object", properties: {P: {type: "string"}},
// required: [P...]}.
func paramsSchema(params []string) leia.Value {
	props := leia.NewTable(0, len(params))
	for _, p := range params {
		props.SetStr(p, T("type", "string"))
	}
	return T("type", "object", "properties", leia.TableValue(props), "required", StringList(params))
}

func toolCapabilities(tool leia.Value) leia.Value {
	if c := Field(tool, "capabilities"); c.Table() != nil {
		return c
	}
	if r := Field(tool, "requires"); r.Table() != nil {
		return r
	}
	return leia.Nil
}

func contractSchema(tool leia.Value) leia.Value {
	if s := Field(tool, "schema"); !s.IsNil() {
		return s
	}
	if ps := Strings(Field(tool, "params")); len(ps) > 0 {
		return paramsSchema(ps)
	}
	return Field(tool, "output")
}

func toolResultShape(tool leia.Value) leia.Value {
	if r := Field(tool, "result"); !r.IsNil() {
		return r
	}
	return Field(tool, "output")
}

// ToolContract is one tool's contract table.
func ToolContract(tool leia.Value) *leia.Table {
	out := leia.NewTable(0, 28)
	out.SetStr("kind", leia.String("tool_contract"))
	name := text(Field(tool, "name"))
	out.SetStr("name", leia.String(name))
	out.SetStr("tool_name", leia.String(name))
	out.SetStr("description", leia.String(text(Field(tool, "description"))))
	if isAgentTool(tool) {
		out.SetStr("type", leia.String("agent"))
	} else {
		out.SetStr("type", leia.String("function"))
	}
	if p := Field(tool, "params"); p.Table() != nil {
		out.SetStr("params", deepClone(p))
	}
	if caps := toolCapabilities(tool); caps.Table() != nil {
		for _, k := range []string{"requires", "capabilities", "capability_ids"} {
			out.SetStr(k, deepClone(caps))
		}
	}
	if s := contractSchema(tool); !s.IsNil() {
		out.SetStr("schema", deepClone(s))
		out.SetStr("input_schema", deepClone(s))
	}
	if o := Field(tool, "output"); !o.IsNil() {
		out.SetStr("output", deepClone(o))
		out.SetStr("output_schema", deepClone(o))
	}
	if r := toolResultShape(tool); !r.IsNil() {
		out.SetStr("result", deepClone(r))
		out.SetStr("output_schema", deepClone(r))
	}
	setEach(out, []string{"error", "replay_key"}, tool)
	for _, d := range [][2]string{{"caller_role", "caller"}, {"executor_role", "executor"}, {"effect", "read_only"},
		{"approval_policy", "not_required_for_fixture"}, {"provider_wire_format", "none"}} {
		if v := Field(tool, d[0]); v.Kind() == leia.KindString {
			out.SetStr(d[0], v)
		} else {
			out.SetStr(d[0], leia.String(d[1]))
		}
	}
	for _, f := range contractBoundaries {
		if v := Field(tool, f); v.Kind() == leia.KindBool {
			out.SetStr(f, v)
		} else {
			out.SetStr(f, leia.False)
		}
	}
	return out
}

// contractBoundaries are a contract's boolean boundary flags (false
// unless the tool declares true): a tool that needs the live network,
// provider credentials, or takes secret parameters.
var contractBoundaries = []string{"live_network", "provider_credentials_required", "secret_parameters_allowed"}

// ToolInfo is llm.tool_info (inventory true) or llm.tool_schema.
func ToolInfo(v leia.Value, inventory bool) leia.Value {
	if contractTool(v) {
		c := ToolContract(v)
		if !inventory {
			c.SetStr("kind", leia.String("tool_schema"))
		}
		return leia.TableValue(c)
	}
	out := newList()
	for _, it := range Items(v) {
		if contractTool(it) {
			c := ToolContract(it)
			if !inventory {
				c.SetStr("kind", leia.String("tool_schema"))
			}
			appendTo(out, leia.TableValue(c))
		}
	}
	if inventory {
		out.SetStr("kind", leia.String("tool_inventory"))
		out.SetStr("capabilities", StringList(toolCaps(v)))
	}
	return leia.TableValue(out)
}

// ValidateTools is llm.validate_tools' error value (nil when valid).
func ValidateTools(tools leia.Value) leia.Value {
	for i, tool := range Items(tools) {
		if !contractTool(tool) {
			return ErrorWith("validation", "tool inventory contains non-tool entry", "index", i+1)
		}
		name := text(Field(tool, "name"))
		missing := ""
		switch {
		case name == "":
			missing = "name"
		case contractSchema(tool).IsNil():
			missing = "schema"
		case len(Strings(toolCapabilities(tool))) == 0:
			missing = "capabilities"
		case toolResultShape(tool).IsNil():
			missing = "result"
		case Field(tool, "error").IsNil():
			missing = "error"
		case Field(tool, "replay_key").IsNil():
			missing = "replay_key"
		}
		fieldErr := func(field, msg string) leia.Value {
			return ErrorWith("validation", msg+": "+name, "field", field, "tool", name, "index", i+1)
		}
		if missing != "" {
			return fieldErr(missing, "tool contract missing "+missing)
		}
		if v := Field(tool, "provider_wire_format"); v.Kind() == leia.KindString && v.AsString() != "none" {
			return fieldErr("provider_wire_format", "tool contract provider_wire_format must be none")
		}
		if Field(tool, "live_network").Truthy() && Field(tool, "live_network").Kind() == leia.KindBool {
			return fieldErr("live_network", "tool contract live_network must be false")
		}
		if Field(tool, "secret_parameters_allowed").Truthy() && Field(tool, "secret_parameters_allowed").Kind() == leia.KindBool {
			return fieldErr("secret_parameters_allowed", "tool contract secret_parameters_allowed must be false")
		}
		if v := Field(tool, "effect"); v.Kind() == leia.KindString && v.AsString() != "read_only" && v.AsString() != "effectful" {
			return fieldErr("effect", "tool contract effect must be read_only or effectful")
		}
		if v := Field(tool, "approval_policy"); v.Kind() == leia.KindString && v.AsString() != "not_required_for_fixture" && v.AsString() != "deny_without_approval" {
			return fieldErr("approval_policy", "tool contract approval_policy is unsupported")
		}
	}
	return leia.Nil
}

// ToolRegistry is llm.tool_registry.
func ToolRegistry(tools, opts leia.Value) leia.Value {
	out := leia.NewTable(0, 28)
	out.SetStr("__llm_tool_registry", leia.True)
	out.SetStr("kind", leia.String("tool_registry"))
	out.SetStr("schema_version", leia.Int(optInt(opts, "schema_version", 1)))
	out.SetStr("version", leia.String(optString(opts, "version", "tool_registry.v1")))
	out.SetStr("mode", leia.String(optString(opts, "mode", replayModeFixture)))
	out.SetStr("capability", leia.String(optString(opts, "capability", "generic.tool.registry.declare")))
	out.SetStr("provider_free", leia.Bool(optBool(opts, "provider_free", true)))
	for _, f := range []string{"live_network", "real_dependency_imports", "local_execution", "provider_credentials_required"} {
		out.SetStr(f, leia.Bool(optBool(opts, f, false)))
	}
	out.SetStr("secret_values_present", leia.False)
	setEach(out, []string{"registry_id", "package_id", "package_name", "workflow_run_id", "workflow_step_id", "trace_id",
		"correlation_id", "replay_session_id"}, opts)
	descs := newList()
	for _, it := range Items(tools) {
		if contractTool(it) {
			appendTo(descs, leia.TableValue(ToolContract(it)))
		}
	}
	dv := leia.TableValue(descs)
	out.SetStr("tools", dv)
	out.SetStr("descriptors", dv)
	out.SetStr("tool_count", leia.Int(int64(descs.Len())))
	caps, seen := newList(), map[string]bool{}
	var effectful, approval int64
	for _, d := range Items(dv) {
		cs := Field(d, "capability_ids")
		if cs.Table() == nil {
			cs = Field(d, "capabilities")
		}
		for _, c := range Strings(cs) {
			if !seen[c] {
				seen[c] = true
				appendTo(caps, leia.String(c))
			}
		}
		if text(Field(d, "effect")) == "effectful" {
			effectful++
		}
		if p := text(Field(d, "approval_policy")); p != "" && p != "not_required_for_fixture" {
			approval++
		}
	}
	out.SetStr("capabilities", leia.TableValue(caps))
	out.SetStr("effectful_count", leia.Int(effectful))
	out.SetStr("approval_required_count", leia.Int(approval))
	out.SetStr("redaction", T("enabled", true, "policy", optString(opts, "redaction_policy", "tool_registry_metadata_only"),
		"raw_args_stored", false, "raw_results_stored", false, "secret_values_present", false))
	ov := leia.TableValue(out)
	sum := leia.NewTable(0, 10)
	copyScalars(sum, ov, []string{"kind", "registry_id", "package_id", "tool_count", "effectful_count",
		"approval_required_count", "provider_free", "live_network", "real_dependency_imports"})
	sum.SetStr("capability_count", leia.Int(int64(caps.Len())))
	out.SetStr("summary", leia.TableValue(sum))
	return ov
}

// findingList collects {kind, message, field} findings.
type findingList struct{ t *leia.Table }

func newFindings() *findingList { return &findingList{newList()} }

func (f *findingList) add(kind, msg, field string) {
	e := leia.NewTable(0, 3)
	e.SetStr("kind", leia.String(kind))
	e.SetStr("message", leia.String(msg))
	if field != "" {
		e.SetStr("field", leia.String(field))
	}
	appendTo(f.t, leia.TableValue(e))
}

// gate finishes a validation table: findings, finding_count, ok, status.
func (f *findingList) gate(out *leia.Table) leia.Value {
	n := f.t.Len()
	out.SetStr("findings", leia.TableValue(f.t))
	out.SetStr("finding_count", leia.Int(int64(n)))
	out.SetStr("ok", leia.Bool(n == 0))
	if n == 0 {
		out.SetStr("status", leia.String("ok"))
	} else {
		out.SetStr("status", leia.String("failed"))
	}
	return leia.TableValue(out)
}

// ValidateToolRegistry is llm.validate_tool_registry.
func ValidateToolRegistry(reg, opts leia.Value) leia.Value {
	out := leia.NewTable(0, 10)
	out.SetStr("kind", leia.String("tool_registry_validation"))
	out.SetStr("schema_version", leia.Int(1))
	out.SetStr("version", leia.String("tool_registry_validation.v1"))
	out.SetStr("provider_free", leia.True)
	f := newFindings()
	if !optBool(reg, "provider_free", false) {
		f.add("provider_free", "tool registry must be provider-free", "provider_free")
	}
	for _, c := range [][2]string{{"live_network", "tool registry must not require live network"},
		{"real_dependency_imports", "tool registry must not require real dependency imports"},
		{"provider_credentials_required", "tool registry must not require provider credentials"}} {
		if optBool(reg, c[0], false) {
			f.add(c[0], c[1], c[0])
		}
	}
	descs := Field(reg, "descriptors")
	if descs.Table() == nil {
		descs = Field(reg, "tools")
	}
	if descs.Table() == nil {
		f.add("descriptors", "tool registry must contain descriptors", "descriptors")
		return f.gate(out)
	}
	seen := map[string]bool{}
	for _, d := range Items(descs) {
		if d.Table() == nil {
			f.add("descriptor", "tool descriptor must be a table", "descriptors")
			continue
		}
		name := optString(d, "tool_name", text(Field(d, "name")))
		if name == "" {
			f.add("tool_name", "tool descriptor must have a tool name", "tool_name")
		} else if seen[name] {
			f.add("duplicate_tool", "tool descriptor names must be unique", "tool_name")
		}
		seen[name] = true
		if caps := Field(d, "capability_ids"); caps.Table() == nil || caps.Table().Len() == 0 {
			f.add("capability_ids", "tool descriptor must declare capability ids", "capability_ids")
		}
		if Field(d, "input_schema").IsNil() {
			f.add("input_schema", "tool descriptor must expose input schema", "input_schema")
		}
		if Field(d, "output_schema").IsNil() {
			f.add("output_schema", "tool descriptor must expose output schema", "output_schema")
		}
		if text(Field(d, "provider_wire_format")) != "none" {
			f.add("provider_wire_format", "tool descriptor must not require provider wire format", "provider_wire_format")
		}
		if Field(d, "live_network").Kind() == leia.KindBool && Field(d, "live_network").AsBool() {
			f.add("live_network", "tool descriptor must not require live network", "live_network")
		}
		if v := Field(d, "provider_credentials_required"); v.Kind() == leia.KindBool && v.AsBool() {
			f.add("provider_credentials_required", "tool descriptor must not require provider credentials", "provider_credentials_required")
		}
		if Field(d, "secret_parameters_allowed").Kind() == leia.KindBool && Field(d, "secret_parameters_allowed").AsBool() {
			f.add("secret_parameters_allowed", "tool descriptor must not allow secret parameters", "secret_parameters_allowed")
		}
		if text(Field(d, "effect")) == "effectful" {
			if p := text(Field(d, "approval_policy")); p == "" || p == "not_required_for_fixture" {
				f.add("approval_policy", "effectful tools must declare an approval policy", "approval_policy")
			}
		}
	}
	return f.gate(out)
}

// ToolInvocationTrace is llm.tool_invocation_trace.
func ToolInvocationTrace(call, result, opts leia.Value) leia.Value {
	out := leia.NewTable(0, 20)
	out.SetStr("kind", leia.String("tool_invocation_trace"))
	out.SetStr("schema_version", leia.Int(1))
	out.SetStr("version", leia.String("tool_invocation_trace.v1"))
	out.SetStr("provider_free", leia.True)
	for _, f := range []string{"live_network", "real_dependency_imports", "local_execution"} {
		out.SetStr(f, leia.False)
	}
	out.SetStr("trace_id", leia.String(optString(opts, "trace_id", optString(call, "trace_id", "tool-trace:1"))))
	out.SetStr("tool_name", leia.String(toolOutcomeString([]string{"tool_name", "tool", "name"}, opts, call)))
	out.SetStr("caller_id", leia.String(optString(opts, "caller_id", optString(call, "caller_id", "caller"))))
	out.SetStr("executor_id", leia.String(optString(opts, "executor_id", optString(call, "executor_id", "tool"))))
	caps := leia.TableValue(newList())
	switch {
	case Field(opts, "capability_ids").Table() != nil:
		caps = StringList(Strings(Field(opts, "capability_ids")))
	case Field(call, "capability_ids").Table() != nil:
		caps = StringList(Strings(Field(call, "capability_ids")))
	case Field(call, "capabilities").Table() != nil:
		caps = StringList(Strings(Field(call, "capabilities")))
	default:
		if c := optString(opts, "capability", optString(call, "capability", "")); c != "" {
			caps = StringList([]string{c})
		}
	}
	out.SetStr("capability_ids", caps)
	events := newList()
	for i, e := range []string{"registered", "schema_validated", "approval_checked", "invoked", "result_recorded"} {
		appendTo(events, T("event", e, "sequence", i+1))
	}
	out.SetStr("events", leia.TableValue(events))
	out.SetStr("schema_validation", T("input_valid", optBool(opts, "input_valid", true),
		"output_valid", optBool(opts, "output_valid", true),
		"additional_properties_rejected", optBool(opts, "additional_properties_rejected", true)))
	required := optBool(opts, "approval_required", optBool(call, "approval_required", false))
	decision := "allow_fixture"
	if required {
		decision = "deny"
	}
	approval := leia.NewTable(0, 4)
	approval.SetStr("required", leia.Bool(required))
	approval.SetStr("decision", leia.String(optString(opts, "approval_decision", optString(call, "approval_decision", decision))))
	if id := optString(opts, "approval_id", optString(call, "approval_id", "")); id != "" {
		approval.SetStr("approval_id", leia.String(id))
	}
	approval.SetStr("reason", leia.String(optString(opts, "approval_reason", optString(call, "approval_reason", ""))))
	out.SetStr("approval", leia.TableValue(approval))
	isErr := isErrorValue(result)
	ok := optBool(opts, "ok", !isErr)
	status := "ok"
	if isErr {
		status = "error"
	}
	if optString(opts, "approval_decision", "") == "deny" {
		ok, status = false, "denied"
	}
	meta := leia.NewTable(0, 4)
	meta.SetStr("result_present", leia.Bool(!result.IsNil()))
	meta.SetStr("result_type", leia.String(valueType(result)))
	meta.SetStr("raw_result_stored", leia.False)
	if m := Field(opts, "metadata"); m.Table() != nil {
		copyScalars(meta, m, Keys(m))
	}
	out.SetStr("result", T("ok", ok, "status", optString(opts, "status", status),
		"content", optString(opts, "content", ""), "metadata", leia.TableValue(meta)))
	out.SetStr("provenance", T("provider_free", true, "live_network", false, "real_dependency_imports", false,
		"local_execution", false, "fixture_key", optString(opts, "fixture_key", optString(call, "fixture_key", optString(call, "replay_key", "")))))
	out.SetStr("redaction", T("enabled", true, "policy", optString(opts, "redaction_policy", "tool_invocation_metadata_only"),
		"raw_args_stored", false, "raw_result_stored", false, "secret_values_present", false))
	return leia.TableValue(out)
}

// toolContractsFamily is the llm module's natives from this file (see families).
func toolContractsFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	info := func(name string, inventory bool) leia.NativeFunc {
		return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil {
				return nil, fmt.Errorf("bad argument #1 to 'llm.%s' (tool or tools table expected)", name)
			}
			return t.Ret1(ToolInfo(rt.NormalizeTools(a[0]), inventory)), nil
		}
	}
	withCamel(m, info("tool_info", true), "tool_info")
	withCamel(m, info("tool_schema", false), "tool_schema")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if leia.Arg(a, 0).Table() == nil {
			return nil, fmt.Errorf("bad argument #1 to 'llm.validate_tools' (tools table expected)")
		}
		if e := ValidateTools(rt.NormalizeTools(a[0])); !e.IsNil() {
			return t.Ret2(leia.Nil, e), nil
		}
		return t.Ret2(leia.True, leia.Nil), nil
	}, "validate_tools")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		tools, err := needTable(a, 0, "llm.tool_registry", "tools table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.tool_registry", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(ToolRegistry(rt.NormalizeTools(tools), opts)), nil
	}, "tool_registry")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		reg, err := needTable(a, 0, "llm.validate_tool_registry", "tool registry table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.validate_tool_registry", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(ValidateToolRegistry(reg, opts)), nil
	}, "validate_tool_registry")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		call, err := needTable(a, 0, "llm.tool_invocation_trace", "tool call table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 2, "llm.tool_invocation_trace", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(ToolInvocationTrace(call, leia.Arg(a, 1), opts)), nil
	}, "tool_invocation_trace")
	return m
}
