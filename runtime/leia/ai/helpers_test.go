package ai_test

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/llm"
)

// TestTraceHelpers: trace events, envelopes, summaries and assertions in
// upstream Leia's shapes (runtime/leia/ai/trace.go).
func TestTraceHelpers(t *testing.T) {
	mustRun(t, `
		e1 := llm.trace_event({trace_id: "t1", event_type: "turn_start", status: "ok", replay_key: "k1", payload: {model: "m"}, turn_id: "u1"})
		assert(e1.schema_version == 1 && e1.event_id == "t1:event:1" && e1.type == "turn_start" && e1.sequence == 1)
		assert(e1.provider_free == true && e1.live_network == false && e1.replay.replay_key == "k1" && e1.correlation.turn_id == "u1")
		assert(e1.redaction.raw_prompt_stored == false && e1.payload.model == "m")
		e2 := llm.trace_event({trace_id: "t1", event_type: "turn_end", status: "ok", sequence: 2, replay_key: "k1", payload: {model: "m", tokens: 3}})
		e3 := llm.traceEvent({trace_id: "t1", event_type: "tool_call", status: "error", sequence: 3, redaction: {raw_prompt_stored: true}})
		env := llm.trace_envelope([e1, e2], {trace_id: "t1"})
		assert(env.kind == "generic_ai_trace_envelope" && #env.events == 2 && env.provider_free && !env.live_network)
		s := llm.trace_summary(env)
		assert(s.events == 2 && s.event_types[1] == "turn_start" && s.status_counts.ok == 2 && s.sequence_gaps == 0)
		assert(#s.replay_keys == 1 && s.replay_keys[1] == "k1" && s.missing_correlation == 0)
		ok := llm.trace_assert(env, {require_provider_free: true, deny_live_network: true, required_event_types: ["turn_start", "turn_end"],
			required_payload_fields_by_event_type: {turn_end: ["tokens"]}, require_status_counts: {ok: 2}, max_status_counts: {error: 0},
			deny_raw_prompt_stored: true, require_correlation_fields: ["trace_id"]})
		assert(ok.ok && ok.status == "ok" && #ok.findings == 0)
		bad := llm.trace_assert(llm.trace_envelope([e1, e3], {live_network: true}), {deny_live_network: true, required_event_types: ["turn_end"],
			deny_raw_prompt_stored: true, require_event_payload_fields: {turn_start: ["tokens"]}, limit_status_counts: {error: 0}})
		assert(!bad.ok && bad.status == "failed")
		kinds := {}
		for _, f := range ipairs(bad.findings) { kinds[f.kind] = true }
		assert(kinds["generic.ai.trace.live_network"] && kinds["generic.ai.trace.missing_event_type"] && kinds["generic.ai.trace.raw_prompt_stored"])
		assert(kinds["generic.ai.trace.missing_payload_field"] && kinds["generic.ai.trace.status_count_above_limit"])
	`, nil)
}

// TestReplayHelpers: script replay records, the strict ordered matcher and
// fixture.replay answering a turn without a provider (replay.go).
func TestReplayHelpers(t *testing.T) {
	e := mustRun(t, `
		req := {model: "m", messages: [llm.user("hi")]}
		rec, err := llm.replay_record({replay_key: "greet", request: req, response: {status: "final_answer", text: "hello"}})
		assert(err == nil && rec.operation == "llm.turn" && string.sub(rec.request_hash, 1, 7) == "blake3:" && rec.replay.response.text == "hello")
		dflt, derr := llm.replay_record({request: req})
		assert(derr == nil && dflt.replay_key == "record:1" && dflt.request_hash == rec.request_hash)

		idx := llm.replay_index([rec, rec])
		m := idx.match({operation: "llm.turn", capability: "generic.ai.turn", replay_key: "greet", request_hash: rec.request_hash})
		assert(m.ok && m.status == "matched" && m.next_index == 0 && m.summary.matched == 1 && m.summary.unconsumed == 1)
		m = idx.match({operation: "llm.turn", capability: "generic.ai.turn", replay_key: "other", request_hash: rec.request_hash})
		assert(!m.ok && m.status == "mismatch" && m.finding_kind == "generic.ai.replay.mismatch")
		assert(m.message == "replay identity mismatch on replay_key: got other want greet" && m.summary.unconsumed == 1)
		m = idx.match({operation: "llm.turn", capability: "generic.ai.turn", replay_key: "greet", request_hash: rec.request_hash})
		m = idx.match({replay_key: "greet"})
		assert(m.status == "exhausted" && m.finding_kind == "generic.ai.replay.exhausted")
		ev := llm.replay_trace_event(m, {trace_id: "t"})
		assert(ev.event_type == "replay_record_exhausted" && ev.status == "exhausted" && ev.payload.request == nil)

		fx := llm.replay_fixture([rec], {fixture_id: "f1"})
		opts, ferr := fx.replay(req, "greet")
		assert(ferr == nil && opts.response.text == "hello" && opts.replay_key == "greet")
		r, terr := llm.turn({model: "m", messages: [llm.user("hi")], replay: opts})
		assert(terr == nil && r.text == "hello")
		_, again := fx.replay(req, "greet")
		assert(again.kind == "validation" && again.status == "exhausted")
		print(r.text)
	`, nil)
	if e.out.String() != "hello\n" {
		t.Errorf("output %q", e.out.String())
	}
}

func TestPlanExecuteAndReflect(t *testing.T) {
	p := &scripted{answers: []llm.TurnResult{final("1. look 2. answer"), final("draft"), final("better")}}
	mustRun(t, `
		r, err := loop.plan_execute({model: "m", user: "do it", plan_max_tokens: 50})
		assert(err == nil && r.status == "done" && r.plan == "1. look 2. answer" && r.text == "draft")
		r2, err2 := loop.reflect({model: "m", user: "do it", max_iters: 1})
		assert(err2 == nil && r2.text == "better" && #r2.reflection == 1)
	`, p)
	if p.reqs[0].Messages[0].Text != "Create a concise execution plan. Do not call tools." || p.reqs[0].MaxTokens != 50 {
		t.Errorf("plan turn %+v", p.reqs[0])
	}
	if p.reqs[1].Messages[0].Text != "Execution plan:\n1. look 2. answer" {
		t.Errorf("exec turn %+v", p.reqs[1])
	}
	// plan, exec, the reflected loop's turn, one review turn
	if len(p.reqs) != 4 || p.reqs[3].Messages[0].Text != "Review the answer. If it can be improved, return the improved final answer only." {
		t.Errorf("reflect turns %d %+v", len(p.reqs), p.reqs[len(p.reqs)-1])
	}
}

func TestConfigKeepsSecretsOut(t *testing.T) {
	t.Setenv("CFG_TEST_KEY", "sk-config-secret-42")
	e := mustRun(t, `
		config := llm.config
		cfg := config.table({provider: "local", api_key: config.secret("CFG_TEST_KEY"), backup: config.secret("CFG_TEST_MISSING", {required: false}), retry: {max: 2}})
		shown := config.display(cfg)
		assert(shown.api_key == "<secret:CFG_TEST_KEY>" && shown.retry.max == 2)
		resolved, err := config.resolve(cfg)
		assert(err == nil && resolved.api_key == "sk-config-secret-42" && resolved.backup == nil)
		safe := config.redact(resolved)
		assert(safe.api_key == "<redacted>" && safe.provider == "local")
		bad, berr := config.resolve(config.table({k: config.secret("CFG_TEST_MISSING")}))
		assert(bad == nil && berr.kind == "config" && berr.env == "CFG_TEST_MISSING")
		print(json.encode(shown), json.encode(safe))
	`, nil)
	if strings.Contains(e.out.String(), "sk-config-secret-42") {
		t.Errorf("a secret was printed: %s", e.out.String())
	}
}

func TestConfigRoutes(t *testing.T) {
	mustRun(t, `
		config := llm.config
		models, err := config.aliases({default: "analyst", analyst: "cheap", cheap: {provider: "local", provider_model: "mock-analyst"}, reviewer: {provider: "audit", model: "mock-reviewer"}})
		assert(err == nil && models.kind == "model_aliases")
		r, rerr := config.route(models, {model: "analyst"})
		assert(rerr == nil && r.provider == "local" && r.provider_model == "mock-analyst" && r.trace.event_type == "model_route_selected")
		again, _ := config.route(models, {model: "reviewer", replay: r.replay})
		assert(again.replayed && again.provider_model == "mock-analyst" && again.replay.decision.alias == "analyst")
		_, cyc := config.aliases({a: "b", b: "a"})
		assert(cyc.kind == "config")
	`, nil)
}
