package ai

import (
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Capability policies: llm.policy(opts) is the table {kind:
// "capability_policy", version: "capability_policy.v1", default:
// "deny_high_risk", deny, allow?}; llm.check_policy(tool_or_tools,
// policy) returns (true, nil) or (nil, {kind: "policy", message,
// capability, class, policy}); llm.policy_outcome(tool_or_tools, policy,
// opts) gives the same decision as a table, and llm.policy_outcome_event
// (alias llm.policy_outcome_trace_event) puts that into the generic
// trace event shape.
//
// A capability is denied when it belongs to a denied class and is not
// listed exactly in allow. It belongs to a class when it equals it or
// starts with the class followed by ".", ":", "-" or "_" (case
// insensitive); network also covers net.*, credential covers secret.*
// and secrets.*, generated-code covers generated_code.* and
// generated.code.*. These are gates over declared labels: they do not
// sandbox a tool body, hold credentials or enforce network limits.

// defaultDeniedClasses are the high-risk capability classes.
var defaultDeniedClasses = []string{"trading", "portfolio", "generated-code", "network", "credential", "publish"}

// NewPolicy builds a capability policy table (opts.allow and opts.deny
// lists replace the defaults).
func NewPolicy(opts leia.Value) leia.Value {
	p := leia.NewTable(0, 5)
	p.SetStr("kind", leia.String("capability_policy"))
	p.SetStr("version", leia.String("capability_policy.v1"))
	p.SetStr("default", leia.String("deny_high_risk"))
	p.SetStr("deny", StringList(defaultDeniedClasses))
	if allow := Field(opts, "allow"); allow.Table() != nil {
		p.SetStr("allow", allow)
	}
	if deny := Field(opts, "deny"); deny.Table() != nil {
		p.SetStr("deny", deny)
	}
	return leia.TableValue(p)
}

// looksLikeTool reports a tool descriptor.
func looksLikeTool(v leia.Value) bool {
	if v.Table() == nil {
		return false
	}
	if Field(v, "__llm_tool").Truthy() {
		return true
	}
	return Field(v, "name").Kind() == leia.KindString && (Field(v, "fn").IsFunction() ||
		Field(v, "requires").Table() != nil || Field(v, "capabilities").Table() != nil)
}

// policyCapabilities are the capability labels of a tool or a list of
// tools, in order.
func policyCapabilities(v leia.Value) []string {
	if looksLikeTool(v) {
		return requires(v)
	}
	var out []string
	for _, it := range Items(v) {
		if looksLikeTool(it) {
			out = append(out, requires(it)...)
		}
	}
	return out
}

func classMatches(capability, class string) bool {
	capability = strings.ToLower(strings.TrimSpace(capability))
	class = strings.ToLower(strings.TrimSpace(class))
	if capability == "" || class == "" || capability == "none" {
		return false
	}
	if capability == class {
		return true
	}
	for _, sep := range []string{".", ":", "-", "_"} {
		if strings.HasPrefix(capability, class+sep) {
			return true
		}
	}
	switch class {
	case "generated-code":
		return strings.HasPrefix(capability, "generated_code.") || strings.HasPrefix(capability, "generated.code.") ||
			strings.Contains(capability, "generated-code")
	case "network":
		return strings.HasPrefix(capability, "net.") || strings.HasPrefix(capability, "network.")
	case "credential":
		return strings.HasPrefix(capability, "secret.") || strings.HasPrefix(capability, "secrets.") ||
			strings.HasPrefix(capability, "credential.")
	}
	return false
}

// policyDecision is the first denied capability and its class ("" when
// every capability passes).
func policyDecision(caps []string, policy leia.Value) (capability, class string) {
	allow := map[string]bool{}
	for _, a := range Strings(Field(policy, "allow")) {
		allow[a] = true
	}
	deny := Strings(Field(policy, "deny"))
	for _, c := range caps {
		if allow[c] {
			continue
		}
		for _, cl := range deny {
			if classMatches(c, cl) {
				return c, cl
			}
		}
	}
	return "", ""
}

// CheckPolicy is llm.check_policy's error value (nil when allowed).
func CheckPolicy(tools, policy leia.Value) leia.Value {
	c, cl := policyDecision(policyCapabilities(tools), policy)
	if c == "" {
		return leia.Nil
	}
	return ErrorWith("policy", "capability denied by policy: "+c, "capability", c, "class", cl, "policy", Field(policy, "version"))
}

// PolicyOutcome is llm.policy_outcome: status allowed (result ok),
// denied (result blocked; approval_required) or, with opts.clean_skip,
// skipped (result skipped: a host or dependency gate skipped the work
// without granting anything). side_effect_allowed is true only when
// allowed and not skipped.
func PolicyOutcome(tools, policy, opts leia.Value) leia.Value {
	caps := policyCapabilities(tools)
	c, cl := policyDecision(caps, policy)
	denied := c != ""
	skip := optBool(opts, "clean_skip", false)
	out := leia.NewTable(0, 24)
	out.SetStr("kind", leia.String("policy_outcome"))
	out.SetStr("version", leia.String("policy_outcome.v1"))
	status, result := "allowed", "ok"
	switch {
	case skip:
		status, result = "skipped", "skipped"
	case denied:
		status, result = "denied", "blocked"
	}
	out.SetStr("status", leia.String(status))
	out.SetStr("result_status", leia.String(result))
	out.SetStr("capabilities", StringList(caps))
	if denied {
		out.SetStr("capability", leia.String(c))
		out.SetStr("class", leia.String(cl))
		out.SetStr("message", leia.String("capability denied by policy: "+c))
	}
	for _, p := range [][2]string{{"version", "policy"}, {"kind", "policy_kind"}, {"version", "policy_version"}, {"default", "policy_default"}} {
		if v := Field(policy, p[0]); v.Kind() == leia.KindString {
			out.SetStr(p[1], v)
		}
	}
	allowed := !denied && !skip
	out.SetStr("allowed", leia.Bool(allowed))
	out.SetStr("denied", leia.Bool(denied))
	out.SetStr("clean_skip", leia.Bool(skip))
	out.SetStr("approval_required", leia.Bool(optBool(opts, "approval_required", denied)))
	out.SetStr("side_effect_allowed", leia.Bool(allowed))
	copyScalars(out, opts, []string{"reason", "dependency"})
	setEach(out, append(outcomeCorrelation, "approval_id", "replay_session_id"), opts)
	return leia.TableValue(out)
}

// policyEvent projects a policy outcome (type policy_outcome;
// correlation_id defaults to the capability).
func (rt *Runtime) policyEvent(outcome, opts leia.Value) leia.Value {
	p := leia.NewTable(0, 20)
	copyScalars(p, outcome, []string{"kind", "version", "status", "result_status", "capability", "class", "policy",
		"policy_kind", "policy_version", "policy_default", "allowed", "denied", "clean_skip", "approval_required",
		"side_effect_allowed", "reason", "dependency"})
	if caps := Field(outcome, "capabilities"); caps.Table() != nil {
		p.SetStr("capabilities", StringList(Strings(caps)))
		if p.GetStr("capability").IsNil() {
			if first := Strings(caps); len(first) > 0 {
				p.SetStr("capability", leia.String(first[0]))
			}
		}
	}
	if msg := Field(outcome, "message"); msg.Kind() == leia.KindString && msg.AsString() != "" {
		p.SetStr("message", leia.String("policy outcome"))
	}
	corr := Field(outcome, "capability")
	if corr.IsNil() {
		if caps := Strings(Field(outcome, "capabilities")); len(caps) > 0 {
			corr = leia.String(caps[0])
		}
	}
	return rt.projectEvent(opts, "policy_outcome", optString(outcome, "status", "allowed"), outcome, corr, p)
}

// policyFamily is the llm module's natives from this file (see families).
func policyFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	m["policy"] = func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if len(a) > 1 {
			return nil, fmt.Errorf("bad argument to 'llm.policy' (optional table expected)")
		}
		if len(a) == 1 && a[0].Table() == nil {
			return nil, fmt.Errorf("bad argument #1 to 'llm.policy' (table expected)")
		}
		return t.Ret1(NewPolicy(leia.Arg(a, 0))), nil
	}
	policyArg := func(a []leia.Value, i int, fname string) (leia.Value, error) {
		if i >= len(a) {
			return NewPolicy(leia.Nil), nil
		}
		if a[i].Table() == nil {
			return leia.Nil, leia.ArgError(i, fname, "policy table expected")
		}
		return a[i], nil
	}
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		tools, err := needTable(a, 0, "llm.check_policy", "tool or tools table")
		if err != nil {
			return nil, err
		}
		policy, err := policyArg(a, 1, "llm.check_policy")
		if err != nil {
			return nil, err
		}
		if e := CheckPolicy(tools, policy); !e.IsNil() {
			return t.Ret2(leia.Nil, e), nil
		}
		return t.Ret2(leia.True, leia.Nil), nil
	}, "check_policy")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		tools, err := needTable(a, 0, "llm.policy_outcome", "tool or tools table")
		if err != nil {
			return nil, err
		}
		policy := NewPolicy(leia.Nil)
		if p := leia.Arg(a, 1); !p.IsNil() {
			if p.Table() == nil {
				return nil, leia.ArgError(1, "llm.policy_outcome", "policy table expected")
			}
			policy = p
		}
		opts, err := optTable(a, 2, "llm.policy_outcome", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(PolicyOutcome(tools, policy, opts)), nil
	}, "policy_outcome")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		o, err := needTable(a, 0, "llm.policy_outcome_event", "policy outcome table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.policy_outcome_event", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(rt.policyEvent(o, opts)), nil
	}, "policy_outcome_event", "policy_outcome_trace_event")
	return m
}
