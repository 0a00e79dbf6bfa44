package ai

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Agent state checkpoints: llm.agent_state_checkpoint(state, opts)
// (aliases agentStateCheckpoint, state_checkpoint, stateCheckpoint)
// projects a custom flow's state into a ref-only table {kind:
// "agent_state_checkpoint", schema_version: 1, version:
// "agent_state_checkpoint.v1", status, result_status, agent_run_id,
// session_id, state_version, turn_id, ..., input_refs, output_refs,
// memory_refs, checkpoint_key, cache_key, resume_token, checkpoint,
// redaction, trace_correlation}; llm.agent_state_checkpoint_event
// (alias agent_state_checkpoint_trace_event) puts it into the generic
// trace event shape.
//
// Refs keep identity fields only (refFieldsKept); raw values, text,
// prompts, completions and credentials in a ref are dropped. The keys
// are "sha256:" + the SHA-256 of the identity fields and ref material
// (the layout is written in checkpointKey), so the same state gives the
// same keys on every run and in replay. Nothing is stored, resumed or
// locked here.

// refFieldsKept are the ref fields a checkpoint keeps.
var refFieldsKept = []string{"ref_id", "id", "kind", "type", "digest", "hash", "uri", "path", "source", "title",
	"summary", "role", "index", "bytes", "size", "media_type", "raw_value_stored", "redacted", "version"}

var checkpointIDs = []string{"agent_run_id", "session_id", "state_version", "turn_id", "trace_id", "event_id",
	"parent_event_id", "workflow_run_id", "workflow_step_id", "correlation_id", "replay_session_id", "operation", "component"}

func sanitizeRefs(v leia.Value) leia.Value {
	out := newList()
	for _, it := range Items(v) {
		if it.Table() == nil {
			continue
		}
		r := leia.NewTable(0, 6)
		copyScalars(r, it, refFieldsKept)
		appendTo(out, leia.TableValue(r))
	}
	return leia.TableValue(out)
}

// checkpointKey is "sha256:" + hex(SHA-256(prefix, then for each of
// agent_run_id session_id state_version turn_id trace_id workflow_run_id
// workflow_step_id "|NAME=VALUE", then for each of input_refs
// output_refs memory_refs "|NAME=" followed, per ref, by
// "FIELD:VALUE;" for ref_id id kind digest summary raw_value_stored)).
func checkpointKey(prefix string, cp leia.Value) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, f := range []string{"agent_run_id", "session_id", "state_version", "turn_id", "trace_id", "workflow_run_id", "workflow_step_id"} {
		b.WriteString("|" + f + "=" + text(Field(cp, f)))
	}
	for _, f := range []string{"input_refs", "output_refs", "memory_refs"} {
		b.WriteString("|" + f + "=")
		for _, r := range Items(Field(cp, f)) {
			if r.Table() == nil {
				continue
			}
			for _, g := range []string{"ref_id", "id", "kind", "digest", "summary", "raw_value_stored"} {
				b.WriteString(g + ":" + text(Field(r, g)) + ";")
			}
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// AgentStateCheckpoint builds the checkpoint.
func AgentStateCheckpoint(state, opts leia.Value) leia.Value {
	out := leia.NewTable(0, 28)
	ov := leia.TableValue(out)
	out.SetStr("kind", leia.String("agent_state_checkpoint"))
	out.SetStr("schema_version", leia.Int(1))
	out.SetStr("version", leia.String("agent_state_checkpoint.v1"))
	out.SetStr("provider_free", leia.True)
	out.SetStr("status", leia.String(optString(state, "status", "checkpointed")))
	out.SetStr("result_status", leia.String(optString(state, "result_status", "ok")))
	for _, k := range checkpointIDs {
		for _, from := range []leia.Value{opts, state} {
			if v := Field(from, k); isScalar(v) {
				out.SetStr(k, v)
				break
			}
		}
	}
	for _, k := range []string{"input_refs", "output_refs", "memory_refs"} {
		if v := Field(state, k); v.Table() != nil {
			out.SetStr(k, sanitizeRefs(v))
		}
	}
	ck := optString(opts, "checkpoint_key", optString(state, "checkpoint_key", ""))
	if ck == "" {
		ck = checkpointKey("checkpoint", ov)
	}
	cache := optString(opts, "cache_key", optString(state, "cache_key", ""))
	if cache == "" {
		cache = checkpointKey("cache", ov)
	}
	out.SetStr("checkpoint_key", leia.String(ck))
	out.SetStr("cache_key", leia.String(cache))
	out.SetStr("resume_token", leia.String(optString(opts, "resume_token", optString(state, "resume_token", "checkpoint:"+ck))))
	out.SetStr("checkpoint", T("checkpoint_key", ck, "cache_key", cache, "key_algorithm", "sha256",
		"cache_key_algorithm", "sha256", "stable_across_replay", true,
		"key_material_fields", StringList([]string{"agent_run_id", "session_id", "state_version", "turn_id",
			"input_ref_ids", "output_ref_ids", "memory_ref_ids"}),
		"excluded_fields", StringList([]string{"raw_input", "raw_output", "raw_prompt", "raw_completion", "secret",
			"credentials", "token", "authorization", "cookie", "api_key", "access_token", "refresh_token", "password"})))
	red := leia.NewTable(0, 8)
	for _, from := range []leia.Value{Field(state, "redaction"), Field(opts, "redaction")} {
		copyScalars(red, from, Keys(from))
	}
	red.SetStr("enabled", leia.True)
	for _, f := range []string{"secret_values_present", "raw_prompt_stored", "raw_completion_stored", "raw_inputs_stored", "raw_outputs_stored"} {
		red.SetStr(f, leia.False)
	}
	red.SetStr("policy", leia.String("agent_state_checkpoint_ref_only"))
	out.SetStr("redaction", leia.TableValue(red))
	corr := leia.NewTable(0, 12)
	copyScalars(corr, ov, []string{"trace_id", "event_id", "parent_event_id", "agent_run_id", "session_id", "state_version",
		"turn_id", "workflow_run_id", "workflow_step_id", "replay_session_id", "checkpoint_key", "cache_key"})
	out.SetStr("trace_correlation", leia.TableValue(corr))
	return ov
}

// checkpointEvent projects a checkpoint (type agent_state_checkpoint;
// correlation_id defaults to the agent run id, then the checkpoint key).
// The resume token is not copied.
func (rt *Runtime) checkpointEvent(cp, opts leia.Value) leia.Value {
	p := leia.NewTable(0, 20)
	copyScalars(p, cp, []string{"kind", "schema_version", "version", "status", "result_status", "agent_run_id", "session_id",
		"state_version", "turn_id", "checkpoint_key", "cache_key", "operation", "component"})
	for _, k := range []string{"input_refs", "output_refs", "memory_refs"} {
		if v := Field(cp, k); v.Table() != nil {
			p.SetStr(k, sanitizeRefs(v))
			p.SetStr(strings.TrimSuffix(k, "s")+"_count", leia.Int(int64(len(Items(v)))))
		}
	}
	p.SetStr("resume_token_present", leia.Bool(!Field(cp, "resume_token").IsNil()))
	corr := Field(cp, "agent_run_id")
	if corr.IsNil() {
		corr = Field(cp, "checkpoint_key")
	}
	src := deepClone(opts)
	if src.Table() == nil {
		src = leia.TableValue(leia.NewTable(0, 4))
	}
	if Field(src, "redaction").IsNil() {
		if r := Field(cp, "redaction"); r.Table() != nil {
			red := leia.NewTable(0, 8)
			copyScalars(red, r, Keys(r))
			src.Table().SetStr("redaction", leia.TableValue(red))
		}
	}
	return rt.projectEvent(src, "agent_state_checkpoint", optString(cp, "status", "checkpointed"), cp, corr, p)
}

// checkpointFamily is the llm module's natives from this file (see families).
func checkpointFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		st, err := needTable(a, 0, "llm.agent_state_checkpoint", "state table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.agent_state_checkpoint", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(AgentStateCheckpoint(st, opts)), nil
	}, "agent_state_checkpoint", "state_checkpoint")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		cp, err := needTable(a, 0, "llm.agent_state_checkpoint_event", "checkpoint table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.agent_state_checkpoint_event", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(rt.checkpointEvent(cp, opts)), nil
	}, "agent_state_checkpoint_event", "agent_state_checkpoint_trace_event")
	return m
}
