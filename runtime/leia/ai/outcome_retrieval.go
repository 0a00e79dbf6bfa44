package ai

import (
	"github.com/harnlang/harn-check/runtime/leia"
)

// Retrieval and evidence outcomes: llm.memory_outcome (alias
// llm.retrieval_outcome) and llm.evidence_outcome (alias
// llm.citation_outcome) project a retrieval, context wrapper, collection
// or list of matches into a ref-only table; their _event projections
// (memory_outcome_event = memory_outcome_trace_event =
// retrieval_outcome_event; evidence_outcome_event =
// evidence_outcome_trace_event = citation_outcome_event) put that table
// into the generic trace event shape.
//
// Refs keep identity only: rank, id, doc_id, chunk_id, title, source,
// artifact_id, section, score and a citation of the same fields. Text,
// snippets, prompts and completions are never copied, whatever the
// input holds. Nothing is verified, stored or fetched.

// refFields are the identity fields a match ref and its citation keep.
var refFields = []string{"id", "doc_id", "chunk_id", "title", "source", "artifact_id", "section", "score"}

// outcomeCorrelation are the correlation ids outcomes copy (options
// first, then the source).
var outcomeCorrelation = []string{"workflow_run_id", "workflow_step_id", "agent_run_id", "turn_id", "tool_call_id", "correlation_id"}

// matchRefs are the refs of a source's matches (or docs, or list items).
func matchRefs(src leia.Value) *leia.Table {
	items := Field(src, "matches")
	if items.Table() == nil {
		items = Field(src, "docs")
	}
	if items.Table() == nil {
		items = src
	}
	refs := newList()
	for i, it := range Items(items) {
		if it.Table() == nil {
			continue
		}
		ref := leia.NewTable(0, 10)
		ref.SetStr("rank", leia.Int(int64(i+1)))
		copyScalars(ref, it, refFields)
		c := Field(it, "citation")
		if c.Table() == nil {
			c = leia.TableValue(citation(it))
		}
		cref := leia.NewTable(0, 8)
		copyScalars(cref, c, refFields)
		ref.SetStr("citation", leia.TableValue(cref))
		appendTo(refs, leia.TableValue(ref))
	}
	return refs
}

// copyScalars copies the string, number and boolean fields among keys
// (identity fields are scalars; a table there is not an identity and is
// left out rather than copied wholesale).
func copyScalars(dst *leia.Table, src leia.Value, keys []string) {
	for _, k := range keys {
		switch v := Field(src, k); v.Kind() {
		case leia.KindString, leia.KindInt, leia.KindFloat, leia.KindBool:
			dst.SetStr(k, v)
		}
	}
}

func sourceKind(src leia.Value, fallback string, evidence bool) string {
	switch {
	case evidence && Field(src, contextMarker).Truthy():
		return "evidence"
	case Field(src, "matches").Table() != nil:
		return "retrieval"
	case Field(src, contextMarker).Truthy():
		return "context"
	case Field(src, collectionMarker).Truthy():
		return "collection"
	}
	return optString(src, "kind", fallback)
}

// MemoryOutcome projects a retrieval into a memory_outcome table.
func MemoryOutcome(src, opts leia.Value) leia.Value {
	refs := matchRefs(src)
	n := int64(refs.Len())
	out := leia.NewTable(0, 20)
	out.SetStr("kind", leia.String("memory_outcome"))
	out.SetStr("version", leia.String("memory_outcome.v1"))
	out.SetStr("source_kind", leia.String(sourceKind(src, "memory", false)))
	out.SetStr("ok", leia.True)
	out.SetStr("empty", leia.Bool(n == 0))
	out.SetStr("match_count", leia.Int(n))
	if n == 0 {
		out.SetStr("status", leia.String("empty"))
		out.SetStr("result_status", leia.String("empty"))
	} else {
		out.SetStr("status", leia.String("matched"))
		out.SetStr("result_status", leia.String("ok"))
	}
	setEach(out, []string{"query", "label", "operation", "component"}, opts, src)
	setEach(out, outcomeCorrelation, opts, src)
	out.SetStr("match_refs", leia.TableValue(refs))
	if top := refs.GetInt(1); top.Table() != nil {
		out.SetStr("top_match", deepClone(top))
		if sc := Field(top, "score"); !sc.IsNil() {
			out.SetStr("top_score", sc)
		}
		if id := Field(top, "id"); !id.IsNil() {
			out.SetStr("top_id", id)
		}
	}
	out.SetStr("redaction", refOnlyRedaction("memory_outcome_ref_only", opts))
	return leia.TableValue(out)
}

// EvidenceOutcome projects evidence into an evidence_outcome table.
func EvidenceOutcome(src, opts leia.Value) leia.Value {
	refs := matchRefs(src)
	n := int64(refs.Len())
	out := leia.NewTable(0, 28)
	out.SetStr("kind", leia.String("evidence_outcome"))
	out.SetStr("schema_version", leia.Int(1))
	out.SetStr("version", leia.String("evidence_outcome.v1"))
	out.SetStr("source_kind", leia.String(sourceKind(src, "evidence", true)))
	out.SetStr("provider_free", leia.True)
	out.SetStr("ok", leia.True)
	out.SetStr("empty", leia.Bool(n == 0))
	out.SetStr("evidence_count", leia.Int(n))
	if n == 0 {
		out.SetStr("status", leia.String("empty"))
		out.SetStr("result_status", leia.String("empty"))
	} else {
		out.SetStr("status", leia.String("cited"))
		out.SetStr("result_status", leia.String("ok"))
	}
	setEach(out, []string{"query", "label", "operation", "component", "report_id", "section", "artifact_id"}, opts, src)
	setEach(out, append(outcomeCorrelation, "replay_session_id"), opts, src)
	out.SetStr("evidence_refs", leia.TableValue(refs))
	var cited int64
	sources, artifacts := map[string]bool{}, map[string]bool{}
	for _, r := range Items(leia.TableValue(refs)) {
		if Field(r, "citation").Table() != nil {
			cited++
		}
		if s := text(Field(r, "source")); s != "" {
			sources[s] = true
		}
		if s := text(Field(r, "artifact_id")); s != "" {
			artifacts[s] = true
		}
	}
	out.SetStr("citation_count", leia.Int(cited))
	out.SetStr("source_count", leia.Int(int64(len(sources))))
	out.SetStr("artifact_count", leia.Int(int64(len(artifacts))))
	if top := refs.GetInt(1); top.Table() != nil {
		out.SetStr("top_evidence", deepClone(top))
		for _, p := range [][2]string{{"id", "top_id"}, {"source", "top_source"}, {"artifact_id", "top_artifact_id"}} {
			if v := Field(top, p[0]); !v.IsNil() {
				out.SetStr(p[1], v)
			}
		}
	}
	out.SetStr("redaction", refOnlyRedaction("evidence_outcome_ref_only", opts))
	return leia.TableValue(out)
}

// refOnlyRedaction is the redaction table of ref-only outcomes: nothing
// raw stored; opts.redaction may add fields (its booleans only say what
// a caller asserts, they never make this helper copy text).
func refOnlyRedaction(policy string, opts leia.Value) leia.Value {
	r := leia.NewTable(0, 8)
	r.SetStr("enabled", leia.True)
	r.SetStr("policy", leia.String(policy))
	for _, f := range []string{"raw_text_stored", "raw_snippet_stored", "raw_prompt_stored", "raw_completion_stored", "secret_values_present"} {
		r.SetStr(f, leia.False)
	}
	if o := Field(opts, "redaction").Table(); o != nil {
		o.Iter(func(k, v leia.Value) bool {
			if v.Table() == nil && v.Kind() != leia.KindFunction && v.Kind() != leia.KindNative {
				r.Set(k, v)
			}
			return true
		})
	}
	return leia.TableValue(r)
}

// outcomePayload copies the listed fields of an outcome (deep copies of
// its own ref-only tables).
func outcomePayload(outcome leia.Value, keys []string) *leia.Table {
	p := leia.NewTable(0, len(keys))
	setEach(p, keys, outcome)
	return p
}

// memoryEvent projects a memory outcome into a trace event (type
// memory_outcome; correlation_id defaults to the query).
func (rt *Runtime) memoryEvent(outcome, opts leia.Value) leia.Value {
	p := outcomePayload(outcome, []string{"kind", "version", "source_kind", "status", "result_status", "ok", "empty",
		"match_count", "query", "label", "operation", "component", "top_id", "top_score", "match_refs", "top_match"})
	ev := rt.eventFrom(opts, "memory_outcome", optString(outcome, "status", "matched"), outcome, Field(outcome, "query"), p)
	return ev
}

// evidenceEvent projects an evidence outcome into a trace event (type
// evidence_outcome; correlation_id defaults to the report id, then the
// query).
func (rt *Runtime) evidenceEvent(outcome, opts leia.Value) leia.Value {
	p := outcomePayload(outcome, []string{"kind", "schema_version", "version", "source_kind", "status", "result_status",
		"ok", "empty", "evidence_count", "citation_count", "source_count", "artifact_count", "query", "label",
		"report_id", "section", "artifact_id", "top_id", "top_source", "top_artifact_id", "evidence_refs", "top_evidence"})
	corr := Field(outcome, "report_id")
	if corr.IsNil() {
		corr = Field(outcome, "query")
	}
	return rt.eventFrom(opts, "evidence_outcome", optString(outcome, "status", "cited"), outcome, corr, p)
}

// eventFrom is projectEvent with the outcome's redaction table (unless
// the options give one) and its replay_session_id.
func (rt *Runtime) eventFrom(opts leia.Value, eventType, status string, outcome, corr leia.Value, payload *leia.Table) leia.Value {
	o := deepClone(opts)
	if o.Table() == nil {
		o = leia.TableValue(leia.NewTable(0, 2))
	}
	if Field(o, "redaction").IsNil() {
		if r := Field(outcome, "redaction"); r.Table() != nil {
			o.Table().SetStr("redaction", deepClone(r))
		}
	}
	return rt.projectEvent(o, eventType, status, outcome, corr, payload)
}

// outcomeRetrievalFamily is the llm module's natives from this file (see families).
func outcomeRetrievalFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	withCamel(m, tableAndOptions("memory_outcome", "memory table", MemoryOutcome), "memory_outcome", "retrieval_outcome")
	withCamel(m, tableAndOptions("evidence_outcome", "evidence table", EvidenceOutcome), "evidence_outcome", "citation_outcome")
	withCamel(m, tableAndOptions("memory_outcome_event", "memory outcome table", rt.memoryEvent),
		"memory_outcome_event", "memory_outcome_trace_event", "retrieval_outcome_event")
	withCamel(m, tableAndOptions("evidence_outcome_event", "evidence outcome table", rt.evidenceEvent),
		"evidence_outcome_event", "evidence_outcome_trace_event", "citation_outcome_event")
	return m
}
