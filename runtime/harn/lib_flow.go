package harn

import (
	"encoding/hex"
	"fmt"
)

// The flow family: graded invariant results a Flow predicate returns.
// A result is {verdict, evidence?, remediation?, confidence}: verdict
// {kind: allow} | {kind: warn, reason} | {kind: block, error: {code,
// message}} | {kind: require_approval, approver: {kind: principal, id} |
// {kind: role, name}}; evidence items are atom_pointer, metadata_path,
// transcript_excerpt and external_citation records; confidence is
// clamped to [0, 1]. Empty evidence and a missing remediation are left
// out, as upstream serializes them.

func flowErr(fn, format string, a ...any) error {
	return plainError(fn + ": " + fmt.Sprintf(format, a...))
}

// flowArgs is the unpacking spec of a flow builtin: its string
// arguments refused in the family's words, named as in the table.
func flowArgs(name string) *ArgSpec {
	return ArgsOf(name).refusing(func(fn string, _ int, param string, got Value, missing bool) error {
		if missing {
			return flowErr(fn, "missing required string argument `%s`", param)
		}
		return flowErr(fn, "argument `%s` must be a string, got %s", param, got.TypeName())
	})
}

func flowUint(args []Value, i int, fn, name string) (int64, error) {
	if i >= len(args) {
		return 0, flowErr(fn, "missing required int argument `%s`", name)
	}
	if args[i].k != KindInt {
		return 0, flowErr(fn, "argument `%s` must be an int, got %s", name, args[i].TypeName())
	}
	n := args[i].AsInt()
	if n < 0 {
		return 0, flowErr(fn, "argument `%s` must be non-negative, got %d", name, n)
	}
	return n, nil
}

func flowSpan(args []Value, i int, fn, a, b string) (Value, error) {
	start, err := flowUint(args, i, fn, a)
	if err != nil {
		return Nil, err
	}
	end, err := flowUint(args, i+1, fn, b)
	if err != nil {
		return Nil, err
	}
	if end < start {
		return Nil, flowErr(fn, "span end (%d) must be >= start (%d)", end, start)
	}
	return goValue(map[string]any{"start": start, "end": end}), nil
}

func flowResult(verdict map[string]any) Value {
	return goValue(map[string]any{"verdict": verdict, "confidence": 1.0})
}

// flowInvariant checks v is an invariant result and returns a writable
// copy of it.
func flowInvariant(args []Value, fn string) (*Dict, error) {
	if len(args) == 0 {
		return nil, flowErr(fn, "missing required invariant result argument")
	}
	v := args[0]
	bad := func(why string) error { return flowErr(fn, "invalid InvariantResult: %s", why) }
	if v.k != KindDict {
		return nil, bad("expected a dict, got " + v.TypeName())
	}
	d := v.r.(*Dict)
	verdict, ok := d.Get("verdict")
	if !ok || verdict.k != KindDict {
		return nil, bad("missing field `verdict`")
	}
	kind, _ := verdict.r.(*Dict).Get("kind")
	switch Display(kind) {
	case "allow", "warn", "block", "require_approval":
	default:
		return nil, bad(fmt.Sprintf("unknown verdict kind `%s`", Display(kind)))
	}
	if c, ok := d.Get("confidence"); !ok || (c.k != KindFloat && c.k != KindInt) {
		return nil, bad("missing field `confidence`")
	}
	return d.clone(), nil
}

func flowKind(d *Dict) string {
	verdict, _ := d.Get("verdict")
	kind, _ := verdict.r.(*Dict).Get("kind")
	return Display(kind)
}

var flowEvidenceKinds = map[string]bool{"atom_pointer": true, "metadata_path": true,
	"transcript_excerpt": true, "external_citation": true}

func installFlow(lib *Library) {
	lib.Builtin("flow_invariant_allow", func(c *Call, args []Value) (Value, error) {
		return flowResult(map[string]any{"kind": "allow"}), nil
	})
	warnArgs := flowArgs("flow_invariant_warn")
	lib.Builtin("flow_invariant_warn", func(c *Call, args []Value) (Value, error) {
		var reason string
		if err := warnArgs.Unpack(c, args, &reason); err != nil {
			return Nil, err
		}
		return flowResult(map[string]any{"kind": "warn", "reason": reason}), nil
	})
	blockArgs := flowArgs("flow_invariant_block")
	lib.Builtin("flow_invariant_block", func(c *Call, args []Value) (Value, error) {
		var code, msg string
		if err := blockArgs.Unpack(c, args, &code, &msg); err != nil {
			return Nil, err
		}
		return flowResult(map[string]any{"kind": "block", "error": map[string]any{"code": code, "message": msg}}), nil
	})
	approvalArgs := flowArgs("flow_invariant_require_approval")
	lib.Builtin("flow_invariant_require_approval", func(c *Call, args []Value) (Value, error) {
		const fn = "flow_invariant_require_approval"
		var kind, id string
		if err := approvalArgs.Unpack(c, args, &kind, &id); err != nil {
			return Nil, err
		}
		var approver map[string]any
		switch kind {
		case "principal":
			approver = map[string]any{"kind": "principal", "id": id}
		case "role":
			approver = map[string]any{"kind": "role", "name": id}
		default:
			return Nil, flowErr(fn, "kind must be \"principal\" or \"role\", got \"%s\"", kind)
		}
		return flowResult(map[string]any{"kind": "require_approval", "approver": approver}), nil
	})
	atomArgs := flowArgs("flow_evidence_atom")
	lib.Builtin("flow_evidence_atom", func(c *Call, args []Value) (Value, error) {
		const fn = "flow_evidence_atom"
		var atom string
		if err := atomArgs.Unpack(c, args, &atom); err != nil {
			return Nil, err
		}
		if b, herr := hex.DecodeString(atom); herr != nil || len(b) != 32 {
			return Nil, flowErr(fn, "invalid atom id: expected 64 hex characters")
		}
		span, err := flowSpan(args, 1, fn, atomArgs.paramName(1), atomArgs.paramName(2))
		if err != nil {
			return Nil, err
		}
		return goValue(map[string]any{"kind": "atom_pointer", "atom": atom, "diff_span": span}), nil
	})
	metadataArgs := flowArgs("flow_evidence_metadata")
	lib.Builtin("flow_evidence_metadata", func(c *Call, args []Value) (Value, error) {
		var dir, ns, key string
		if err := metadataArgs.Unpack(c, args, &dir, &ns, &key); err != nil {
			return Nil, err
		}
		return goValue(map[string]any{"kind": "metadata_path", "directory": dir, "namespace": ns, "key": key}), nil
	})
	transcriptArgs := flowArgs("flow_evidence_transcript")
	lib.Builtin("flow_evidence_transcript", func(c *Call, args []Value) (Value, error) {
		const fn = "flow_evidence_transcript"
		var id string
		if err := transcriptArgs.Unpack(c, args, &id); err != nil {
			return Nil, err
		}
		span, err := flowSpan(args, 1, fn, transcriptArgs.paramName(1), transcriptArgs.paramName(2))
		if err != nil {
			return Nil, err
		}
		return goValue(map[string]any{"kind": "transcript_excerpt", "transcript_id": id, "span": span}), nil
	})
	citationArgs := flowArgs("flow_evidence_citation")
	lib.Builtin("flow_evidence_citation", func(c *Call, args []Value) (Value, error) {
		var url, quote, fetched string
		if err := citationArgs.Unpack(c, args, &url, &quote, &fetched); err != nil {
			return Nil, err
		}
		return goValue(map[string]any{"kind": "external_citation", "url": url, "quote": quote, "fetched_at": fetched}), nil
	})
	remediationArgs := flowArgs("flow_remediation")
	lib.Builtin("flow_remediation", func(c *Call, args []Value) (Value, error) {
		var desc string
		if err := remediationArgs.Unpack(c, args, &desc); err != nil {
			return Nil, err
		}
		return goValue(map[string]any{"description": desc}), nil
	})
	lib.Builtin("flow_with_evidence", func(c *Call, args []Value) (Value, error) {
		const fn = "flow_with_evidence"
		d, err := flowInvariant(args, fn)
		if err != nil {
			return Nil, err
		}
		list := Arg(args, 1)
		if list.k != KindList {
			return Nil, flowErr(fn, "argument `evidence` must be a list, got %s", list.TypeName())
		}
		items := list.r.(*List).items
		for _, it := range items {
			kind := Nil
			if it.k == KindDict {
				kind, _ = it.r.(*Dict).Get("kind")
			}
			if !flowEvidenceKinds[Display(kind)] {
				return Nil, flowErr(fn, "invalid evidence: unknown variant `%s`", Display(kind))
			}
		}
		if len(items) == 0 {
			d.Delete("evidence")
		} else {
			d.Set("evidence", NewListValue(append([]Value(nil), items...)))
		}
		return DictValue(d), nil
	})
	lib.Builtin("flow_with_remediation", func(c *Call, args []Value) (Value, error) {
		const fn = "flow_with_remediation"
		d, err := flowInvariant(args, fn)
		if err != nil {
			return Nil, err
		}
		r := Arg(args, 1)
		desc := Nil
		if r.k == KindDict {
			desc, _ = r.r.(*Dict).Get("description")
		}
		if desc.k != KindString {
			return Nil, flowErr(fn, "invalid remediation: missing field `description`")
		}
		d.Set("remediation", r)
		return DictValue(d), nil
	})
	lib.Builtin("flow_with_confidence", func(c *Call, args []Value) (Value, error) {
		const fn = "flow_with_confidence"
		d, err := flowInvariant(args, fn)
		if err != nil {
			return Nil, err
		}
		x := Arg(args, 1)
		f, ok := x.Number()
		if !ok || x.k == KindNil {
			if len(args) < 2 {
				return Nil, flowErr(fn, "missing required number argument `confidence`")
			}
			return Nil, flowErr(fn, "argument `confidence` must be a number, got %s", x.TypeName())
		}
		d.Set("confidence", Float(max(0, min(1, f))))
		return DictValue(d), nil
	})
	lib.Builtin("flow_invariant_kind", func(c *Call, args []Value) (Value, error) {
		d, err := flowInvariant(args, "flow_invariant_kind")
		if err != nil {
			return Nil, err
		}
		return Str(flowKind(d)), nil
	})
	lib.Builtin("flow_invariant_is_blocking", func(c *Call, args []Value) (Value, error) {
		d, err := flowInvariant(args, "flow_invariant_is_blocking")
		if err != nil {
			return Nil, err
		}
		return Bool(flowKind(d) == "block"), nil
	})
	lib.Builtin("flow_invariant_confidence", func(c *Call, args []Value) (Value, error) {
		d, err := flowInvariant(args, "flow_invariant_confidence")
		if err != nil {
			return Nil, err
		}
		conf, _ := d.Get("confidence")
		f, _ := conf.Number()
		return Float(f), nil
	})
}
