package harn

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// trigger_test_harness(fixture) runs a named trigger scenario through the
// trigger engine (trigger_engine.go, trigger_webhook.go) on a virtual
// clock that starts at 2026-04-19T00:00:00Z, and returns what happened:
// {fixture, ok, stub, summary, emitted, attempts, dlq, alerts, bindings,
// notes, details}. The scenario names and result shapes are upstream
// Harn's; each scenario drives the engine's real parts (cron boundaries,
// HMAC schemes, the dedupe inbox, token buckets, retry backoff, the DLQ,
// the circuit breaker, the binding registry, the in-flight journal) and
// ok says whether they behaved as the scenario expects.
//
// Two parameterized scenarios of our own take a dict: {fixture:
// "webhook_delivery", provider, scheme, secret, headers, body,
// received_at, tolerance_secs} verifies and normalizes one delivery
// (ok false with details.error when it is refused), and {fixture:
// "cron_schedule", schedule, timezone, start, advance_secs, catchup,
// last_fired} lists the ticks a schedule fires while the clock advances.

// harnessStart is the virtual clock's starting instant.
var harnessStart = time.Date(2026, 4, 19, 0, 0, 0, 0, time.UTC)

// triggerFixtures are the scenario names upstream Harn defines.
var triggerFixtures = []string{
	"cost_guard_short_circuits", "crash_recovery_replays_in_flight_events", "cron_fires_on_schedule",
	"dead_man_switch_alerts_on_silent_binding", "dedupe_swallows_duplicate_key",
	"dispatcher_retries_with_exponential_backoff", "dlq_on_permanent_failure", "a2a_push_completed",
	"a2a_push_rejects_replay", "manifest_hot_reload_preserves_in_flight", "multi_tenant_isolation_stub",
	"orchestrator_backpressure_ingest_saturation", "orchestrator_circuit_breaker_trips", "rate_limit_throttles",
	"replay_binding_gc_fallback", "replay_refires_from_dlq", "slack_events_3s_ack", "slack_events_message",
	"webhook_dedupe_blocks_duplicates", "webhook_linear_issue_update", "webhook_linear_timestamp_window",
	"webhook_verifies_hmac",
}

// harnessResult is a scenario's outcome, in the order of upstream's
// result record.
type harnessResult struct {
	fixture  string
	ok, stub bool
	summary  string
	emitted  []any
	attempts []any
	dlq      []any
	alerts   []any
	bindings []any
	notes    []any
	details  any
}

func (r *harnessResult) value() Value {
	d := NewDict(11)
	d.Set("fixture", Str(r.fixture))
	d.Set("ok", Bool(r.ok))
	d.Set("stub", Bool(r.stub))
	d.Set("summary", Str(r.summary))
	for _, f := range []struct {
		k string
		v []any
	}{{"emitted", r.emitted}, {"attempts", r.attempts}, {"dlq", r.dlq}, {"alerts", r.alerts}, {"bindings", r.bindings}, {"notes", r.notes}} {
		if f.v == nil {
			f.v = []any{}
		}
		d.Set(f.k, goValue(f.v))
	}
	d.Set("details", goValue(r.details))
	return DictValue(d)
}

// goValue converts the Go data scenarios build to program values.
func goValue(x any) Value {
	switch x := x.(type) {
	case nil:
		return Nil
	case Value:
		return x
	case bool:
		return Bool(x)
	case int:
		return Int(int64(x))
	case int64:
		return Int(x)
	case float64:
		return Float(x)
	case string:
		return Str(x)
	case *string:
		if x == nil {
			return Nil
		}
		return Str(*x)
	case *int64:
		if x == nil {
			return Nil
		}
		return Int(*x)
	case []string:
		out := make([]Value, len(x))
		for i, s := range x {
			out[i] = Str(s)
		}
		return NewListValue(out)
	case []any:
		out := make([]Value, len(x))
		for i, e := range x {
			out[i] = goValue(e)
		}
		return NewListValue(out)
	case []map[string]any:
		out := make([]Value, len(x))
		for i, e := range x {
			out[i] = goValue(e)
		}
		return NewListValue(out)
	case map[string]any:
		d := NewDict(len(x))
		for k, e := range x {
			d.Set(k, goValue(e))
		}
		return DictValue(d)
	case map[string]string:
		d := NewDict(len(x))
		for k, e := range x {
			d.Set(k, Str(e))
		}
		return DictValue(d)
	}
	return fromGo(x)
}

// harness is one scenario run: its clock and what the mock connector
// registry recorded.
type harness struct {
	c       *Call
	clock   *triggerClock
	emitted []any
	alerts  []any
}

func strp(s string) *string { return &s }

// record notes an event the scenario's connector emitted.
func (h *harness) record(binding string, version int, ev *triggerEvent, note string, replayOf *string) {
	var occurred *string
	if !ev.OccurredAt.IsZero() {
		occurred = strp(triggerTime(ev.OccurredAt))
	}
	var tenant *string
	if ev.TenantID != "" {
		tenant = strp(ev.TenantID)
	}
	var n *string
	if note != "" {
		n = strp(note)
	}
	h.emitted = append(h.emitted, map[string]any{
		"binding_id": binding, "binding_version": version, "provider": ev.Provider, "kind": ev.Kind,
		"dedupe_key": ev.DedupeKey, "tenant_id": tenant, "occurred_at": occurred,
		"received_at": triggerTime(ev.ReceivedAt), "signature_state": ev.SignatureState, "note": n,
		"replay_of_event_id": replayOf,
	})
}

// attempt is one dispatch attempt record.
func (h *harness) attempt(n int, status string, errText string, backoffMs int64, replayOf string) map[string]any {
	a := map[string]any{"attempt": n, "at": triggerTime(h.clock.now()), "at_ms": h.clock.monoMs(), "status": status,
		"error": nil, "backoff_ms": nil, "replay_of_event_id": nil}
	if errText != "" {
		a["error"] = errText
	}
	if backoffMs > 0 {
		a["backoff_ms"] = backoffMs
	}
	if replayOf != "" {
		a["replay_of_event_id"] = replayOf
	}
	return a
}

// syntheticEvent is a generic webhook event made by the scenario itself.
func (h *harness) syntheticEvent(binding, key, tenant string) *triggerEvent {
	now := h.clock.now()
	return &triggerEvent{ID: "trigger_evt_" + strings.ReplaceAll(binding, ".", "_") + "_" + key, Provider: "webhook", Kind: binding,
		DedupeKey: key, TenantID: tenant, OccurredAt: now, ReceivedAt: now, SignatureState: "unsigned",
		Payload: map[string]any{"binding_id": binding}}
}

func dlqValue(e *dlqEntry) map[string]any {
	return map[string]any{"id": e.ID, "event_id": e.EventID, "binding_id": e.BindingID, "state": e.State,
		"error": e.Error, "attempts": e.Attempts, "replayed": e.Replayed}
}

// dispatchOutcome is what a handler attempt reports to the dispatcher.
type dispatchOutcome struct {
	retryable bool
	err       string
}

// dispatch runs handler attempts for an event: a retryable failure waits
// the doubling backoff on the clock and tries again, up to maxAttempts; a
// permanent failure, or the last retryable one, goes to the DLQ.
func (h *harness) dispatch(ev *triggerEvent, binding string, maxAttempts int, base time.Duration, handler func(int) *dispatchOutcome, dlq *triggerDLQ) (attempts []any, dispatched bool) {
	for n := 1; n <= maxAttempts; n++ {
		out := handler(n)
		switch {
		case out == nil:
			attempts = append(attempts, h.attempt(n, "dispatched", "", 0, ""))
			return attempts, true
		case out.retryable && n < maxAttempts:
			wait := retryBackoff(base, 0, n)
			attempts = append(attempts, h.attempt(n, "retryable_error", out.err, wait.Milliseconds(), ""))
			h.clock.advance(wait)
		default:
			attempts = append(attempts, h.attempt(n, "dlq", out.err, 0, ""))
			dlq.push(&dlqEntry{ID: "dlq_" + strings.ReplaceAll(binding, ".", "_"), EventID: ev.ID, BindingID: binding, Error: out.err, Attempts: n})
			return attempts, false
		}
	}
	return attempts, false
}

func installTriggersHarness(lib *Library) {
	lib.Builtin("trigger_test_harness", func(c *Call, args []Value) (Value, error) {
		a := Arg(args, 0)
		var name string
		var opts *Dict
		switch a.k {
		case KindString:
			name = a.AsString()
		case KindDict:
			opts = a.AsDict()
			v, ok := opts.Get("fixture")
			if !ok || v.k != KindString {
				return Nil, plainError("trigger_test_harness: missing fixture name")
			}
			name = v.AsString()
		default:
			return Nil, plainError("trigger_test_harness: expected fixture string or dict, got " + a.TypeName())
		}
		h := &harness{c: c, clock: newTriggerClock(harnessStart)}
		r, err := h.run(name, opts)
		if err != nil {
			return Nil, plainError("trigger_test_harness: " + err.Error())
		}
		r.fixture = name
		return r.value(), nil
	})
}

func (h *harness) run(name string, opts *Dict) (*harnessResult, error) {
	switch name {
	case "cron_fires_on_schedule":
		return h.cronFiresOnSchedule()
	case "webhook_verifies_hmac":
		return h.webhookVerifiesHMAC()
	case "slack_events_message":
		return h.slackEventsMessage()
	case "slack_events_3s_ack":
		return h.slackEventsAck()
	case "webhook_linear_issue_update":
		return h.linearIssueUpdate()
	case "webhook_linear_timestamp_window":
		return h.linearTimestampWindow()
	case "dispatcher_retries_with_exponential_backoff":
		return h.retriesWithBackoff()
	case "dlq_on_permanent_failure":
		return h.dlqOnPermanentFailure()
	case "replay_refires_from_dlq":
		return h.replayFromDLQ()
	case "dedupe_swallows_duplicate_key":
		return h.dedupeSwallows()
	case "webhook_dedupe_blocks_duplicates":
		return h.webhookDedupe()
	case "a2a_push_completed":
		return h.a2aPushCompleted()
	case "a2a_push_rejects_replay":
		return h.a2aPushRejectsReplay()
	case "orchestrator_backpressure_ingest_saturation":
		return h.ingestSaturation()
	case "orchestrator_circuit_breaker_trips":
		return h.circuitBreakerTrips()
	case "rate_limit_throttles":
		return h.rateLimitThrottles()
	case "cost_guard_short_circuits":
		return h.costGuard()
	case "multi_tenant_isolation_stub":
		return h.multiTenant()
	case "crash_recovery_replays_in_flight_events":
		return h.crashRecovery()
	case "manifest_hot_reload_preserves_in_flight":
		return h.hotReload()
	case "replay_binding_gc_fallback":
		return h.replayGCFallback()
	case "dead_man_switch_alerts_on_silent_binding":
		return h.deadManSwitch()
	case "webhook_delivery":
		if opts != nil {
			return h.webhookDelivery(opts)
		}
	case "cron_schedule":
		if opts != nil {
			return h.cronSchedule(opts)
		}
	}
	return nil, fmt.Errorf("unknown trigger harness fixture '%s' (known: %s)", name, strings.Join(triggerFixtures, ", "))
}

func (h *harness) cronFiresOnSchedule() (*harnessResult, error) {
	h.clock.set(time.Date(2026, 4, 19, 0, 0, 30, 0, time.UTC))
	sched, err := parseCron("* * * * *", "UTC")
	if err != nil {
		return nil, err
	}
	activated := h.clock.now()
	h.clock.advance(30 * time.Second)
	for _, t := range sched.ticks(activated, h.clock.now(), activated, "skip") {
		h.record("cron.fixture", 1, &triggerEvent{Provider: "cron", Kind: "tick", DedupeKey: "cron.fixture:" + triggerTime(t),
			OccurredAt: t, ReceivedAt: h.clock.now(), SignatureState: "unsigned"}, "cron_tick", nil)
	}
	ok := len(h.emitted) == 1
	if ok {
		e := h.emitted[0].(map[string]any)
		ok = e["provider"] == "cron" && e["kind"] == "tick" && *(e["occurred_at"].(*string)) == "2026-04-19T00:01:00Z"
	}
	return &harnessResult{ok: ok, summary: "cron connector emits a normalized tick on the scheduled boundary",
		emitted: h.emitted, details: map[string]any{"clock_ms": h.clock.monoMs()}}, nil
}

// githubPing is GitHub's documented signature example as a ping delivery.
func githubPing() *inbound {
	return &inbound{headers: map[string]string{
		"X-Hub-Signature-256": "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
		"X-GitHub-Delivery":   "delivery-123", "X-GitHub-Event": "ping", "Content-Type": "application/json",
	}, body: []byte("Hello, World!"), receivedAt: time.Unix(1_700_000_000, 0).UTC()}
}

const githubExampleSecret = "It's a Secret to Everybody"

func (h *harness) webhookVerifiesHMAC() (*harnessResult, error) {
	ev, err := normalizeWebhook("webhook", "github", []byte(githubExampleSecret), githubPing(), 0)
	if err != nil {
		return nil, err
	}
	h.record("webhook.fixture", 1, ev, "verified", nil)
	return &harnessResult{ok: len(h.emitted) == 1 && ev.SignatureState == "verified" && ev.Kind == "ping",
		summary: "generic webhook connector verifies a GitHub-style HMAC delivery", emitted: h.emitted,
		details: map[string]any{"provider": ev.Provider}}, nil
}

const slackTestSecret = "8f742231b10e8888abcd99yyyzzz85a5"

// slackMessage is a signed Events API message delivery.
func slackMessage() *inbound {
	body, _ := json.Marshal(map[string]any{
		"team_id": "T123ABC456", "api_app_id": "A123ABC456", "type": "event_callback",
		"event_id": "Ev123MESSAGE", "event_time": 1715000000,
		"event": map[string]any{"type": "message", "user": "U123ABC456", "text": "hello from slack",
			"ts": "1715000000.000100", "channel": "C123ABC456", "channel_type": "channel", "event_ts": "1715000000.000100"},
	})
	ts := "1715000000"
	sig := "v0=" + hexString(hmacSHA256([]byte(slackTestSecret), []byte("v0:"+ts+":"+string(body))))
	return &inbound{headers: map[string]string{"Content-Type": "application/json", "X-Slack-Request-Timestamp": ts,
		"X-Slack-Signature": sig}, body: body, receivedAt: time.Unix(1_715_000_000, 0).UTC()}
}

func (h *harness) slackEventsMessage() (*harnessResult, error) {
	ev, err := normalizeWebhook("slack", "slack", []byte(slackTestSecret), slackMessage(), 0)
	if err != nil {
		return nil, err
	}
	h.record("slack.fixture", 1, ev, "verified", nil)
	return &harnessResult{ok: len(h.emitted) == 1 && ev.Provider == "slack" && ev.Kind == "message.channels" && ev.SignatureState == "verified",
		summary: "slack connector verifies the signature and emits a typed message event", emitted: h.emitted,
		details: map[string]any{"expected_kind": "message.channels"}}, nil
}

func (h *harness) slackEventsAck() (*harnessResult, error) {
	// The ack path's own cost, measured: verify, normalize, claim the
	// dedupe key and append the event for later dispatch.
	started := time.Now()
	ev, err := normalizeWebhook("slack", "slack", []byte(slackTestSecret), slackMessage(), 0)
	if err != nil {
		return nil, err
	}
	inbox := newTriggerInbox()
	if !inbox.claim("slack.fixture", ev.DedupeKey, ev.ReceivedAt, time.Minute) {
		return nil, errors.New("slack ack fixture unexpectedly dropped the event")
	}
	pending := newTenantLog()
	if err := pending.append("", "triggers.harness.pending", map[string]any{"trigger_id": "slack.fixture", "binding_version": 1, "event_id": ev.ID}); err != nil {
		return nil, err
	}
	elapsed := time.Since(started).Milliseconds()
	return &harnessResult{ok: elapsed < 200, summary: "slack ack-first ingress path stays below 200ms before dispatch",
		details: map[string]any{"elapsed_ms": elapsed}}, nil
}

const linearTestSecret = "linear-signing-secret"

// linearIssueUpdate is a signed Linear issue update sent at webhookMs and
// received at receivedMs.
func linearIssueUpdate(webhookMs, receivedMs int64) *inbound {
	body, _ := json.Marshal(map[string]any{
		"action": "update", "type": "Issue", "organizationId": "org_123", "webhookTimestamp": webhookMs,
		"actor": map[string]any{"id": "user_1", "name": "Ada"}, "data": map[string]any{"id": "ISS-1", "title": "Fix connector"},
		"updatedFrom": map[string]any{"title": "Old title", "priority": 2, "labelIds": []string{"lbl_1"}},
	})
	return &inbound{headers: map[string]string{"Linear-Signature": hexString(hmacSHA256([]byte(linearTestSecret), body)),
		"Linear-Delivery": "delivery-123", "Content-Type": "application/json"}, body: body, receivedAt: time.UnixMilli(receivedMs).UTC()}
}

func (h *harness) linearIssueUpdate() (*harnessResult, error) {
	ev, err := normalizeWebhook("linear", "linear", []byte(linearTestSecret), linearIssueUpdate(1_715_000_000_000, 1_715_000_000_000), 15*time.Second)
	if err != nil {
		return nil, err
	}
	h.record("linear.fixture", 1, ev, "issue_update", nil)
	changes := linearIssueChanges(ev.Payload)
	return &harnessResult{ok: len(h.emitted) == 1 && ev.Kind == "issue.update" && len(changes) == 3,
		summary: "linear webhook issue.update normalizes into typed payload + change-set", emitted: h.emitted,
		details: map[string]any{"changes": changes}}, nil
}

func (h *harness) linearTimestampWindow() (*harnessResult, error) {
	rejections := 0
	_, err := normalizeWebhook("linear", "linear", []byte(linearTestSecret), linearIssueUpdate(1_715_000_000_000, 1_715_000_100_000), 15*time.Second)
	var we *webhookError
	if errors.As(err, &we) && we.kind == "timestamp_window" {
		rejections++
	}
	if err == nil {
		return nil, errors.New("stale linear webhook was accepted")
	}
	return &harnessResult{ok: rejections == 1, summary: "linear webhook replay window rejects stale timestamps and increments metrics",
		details: map[string]any{"error": err.Error(), "linear_timestamp_rejections_total": rejections}}, nil
}

func (h *harness) retriesWithBackoff() (*harnessResult, error) {
	ev := h.syntheticEvent("dispatcher.retry", "retry-key", "")
	dlq := &triggerDLQ{}
	attempts, ok := h.dispatch(ev, "dispatcher.retry", 3, 100*time.Millisecond, func(n int) *dispatchOutcome {
		if n < 3 {
			return &dispatchOutcome{retryable: true, err: "rate_limit"}
		}
		return nil
	}, dlq)
	if ok {
		h.record("dispatcher.retry", 1, ev, "dispatched_after_retry", nil)
	}
	at := make([]int64, len(attempts))
	for i, a := range attempts {
		at[i] = a.(map[string]any)["at_ms"].(int64)
	}
	return &harnessResult{ok: fmt.Sprint(at) == "[0 100 300]" && len(h.emitted) == 1,
		summary: "dispatcher retries retryable failures with doubling backoff", emitted: h.emitted, attempts: attempts}, nil
}

func (h *harness) dlqOnPermanentFailure() (*harnessResult, error) {
	ev := h.syntheticEvent("dispatcher.dlq", "dlq-key", "")
	dlq := &triggerDLQ{}
	attempts, _ := h.dispatch(ev, "dispatcher.dlq", 5, 100*time.Millisecond, func(int) *dispatchOutcome {
		return &dispatchOutcome{err: "permanent_failure"}
	}, dlq)
	var entries []any
	for _, e := range dlq.entries {
		entries = append(entries, dlqValue(e))
	}
	return &harnessResult{ok: len(dlq.entries) == 1 && len(attempts) == 1,
		summary: "permanent dispatcher failures land in the DLQ immediately", attempts: attempts, dlq: entries,
		details: map[string]any{"event_id": ev.ID}}, nil
}

func (h *harness) replayFromDLQ() (*harnessResult, error) {
	ev := h.syntheticEvent("dispatcher.replay", "replay-key", "")
	dlq := &triggerDLQ{}
	attempts, _ := h.dispatch(ev, "dispatcher.replay", 5, 100*time.Millisecond, func(int) *dispatchOutcome {
		return &dispatchOutcome{err: "permanent_failure"}
	}, dlq)
	h.clock.advance(5 * time.Second)
	entry, err := dlq.replay(ev.ID)
	if err != nil {
		return nil, err
	}
	attempts = append(attempts, h.attempt(entry.Attempts, "replayed", "", 0, ev.ID))
	h.record("dispatcher.replay", 1, ev, "replayed_from_dlq", strp(ev.ID))
	return &harnessResult{ok: len(h.emitted) == 1 && entry.Replayed,
		summary: "DLQ replay re-fires the stored event and annotates lineage", emitted: h.emitted, attempts: attempts,
		dlq: []any{dlqValue(entry)}, details: map[string]any{"replay_of_event_id": ev.ID}}, nil
}

// deliverTwice normalizes the same delivery twice and lets the inbox
// decide which copies go on.
func (h *harness) deliverTwice(provider, scheme, secret, binding string, raw func() *inbound) (first, second *triggerEvent, firstOK, secondOK bool, err error) {
	inbox := newTriggerInbox()
	if first, err = normalizeWebhook(provider, scheme, []byte(secret), raw(), 0); err != nil {
		return
	}
	if firstOK = inbox.claim(binding, first.DedupeKey, first.ReceivedAt, defaultInboxRetention); firstOK {
		h.record(binding, 1, first, "first_delivery", nil)
	}
	if second, err = normalizeWebhook(provider, scheme, []byte(secret), raw(), 0); err != nil {
		return
	}
	if secondOK = inbox.claim(binding, second.DedupeKey, second.ReceivedAt, defaultInboxRetention); secondOK {
		h.record(binding, 1, second, "duplicate_delivery", nil)
	}
	return
}

func (h *harness) dedupeSwallows() (*harnessResult, error) {
	raw := func() *inbound {
		return &inbound{headers: map[string]string{"webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
			"webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", "webhook-timestamp": "1614265330",
			"Content-Type": "application/json"}, body: []byte(`{"test": 2432232314}`), receivedAt: time.Unix(1_614_265_330, 0).UTC()}
	}
	first, second, a, b, err := h.deliverTwice("webhook", "standard", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "webhook.fixture", raw)
	if err != nil {
		return nil, err
	}
	dup := ""
	if !b {
		dup = fmt.Sprintf("duplicate delivery `%s` for binding `%s` dropped by post-normalize dedupe", second.DedupeKey, "webhook.fixture")
	}
	return &harnessResult{ok: a && !b && len(h.emitted) == 1, summary: "duplicate inbound deliveries are swallowed by the dedupe guard",
		emitted: h.emitted, details: map[string]any{"dedupe_key": first.DedupeKey, "first_claim": a, "second_claim": b, "duplicate_error": dup}}, nil
}

func (h *harness) webhookDedupe() (*harnessResult, error) {
	_, _, a, b, err := h.deliverTwice("github", "github", githubExampleSecret, "github.webhook.fixture", githubPing)
	if err != nil {
		return nil, err
	}
	ok := a && !b && len(h.emitted) == 1 && h.emitted[0].(map[string]any)["dedupe_key"] == "delivery-123"
	return &harnessResult{ok: ok, summary: "duplicate GitHub-style webhook deliveries are dropped before append",
		emitted: h.emitted, details: map[string]any{"delivery_id": "delivery-123", "first_appended": a, "second_appended": b}}, nil
}

// a2aFixture is the binding's expectations and a signed push for a jti.
func (h *harness) a2aPush(jti string) (a2aPushConfig, *inbound) {
	cfg := a2aPushConfig{issuer: "reviewer.prod", audience: "https://orchestrator.test/a2a/review", token: "opaque-token",
		keys: map[string][]byte{"test-key": []byte("secret")}}
	now := h.clock.now()
	tok := signJWTHS256("test-key", []byte("secret"), map[string]any{"iss": cfg.issuer, "aud": cfg.audience,
		"iat": now.Unix(), "exp": now.Unix() + 300, "jti": jti, "token": "opaque-token", "taskId": "task-123"})
	body, _ := json.Marshal(map[string]any{"statusUpdate": map[string]any{"taskId": "task-123", "contextId": "ctx-123",
		"status": map[string]any{"state": "completed"}}})
	return cfg, &inbound{headers: map[string]string{"authorization": "Bearer " + tok, "content-type": "application/a2a+json"},
		body: body, receivedAt: now}
}

func (h *harness) a2aPushCompleted() (*harnessResult, error) {
	cfg, raw := h.a2aPush("a2a-jti-completed")
	ev, err := verifyA2APush(cfg, raw, newTriggerInbox(), "a2a.push.fixture")
	if err != nil {
		return nil, err
	}
	h.record("a2a.push.fixture", 1, ev, "completed", nil)
	taskID, _ := ev.Payload["task_id"].(string)
	state, _ := ev.Payload["task_state"].(string)
	return &harnessResult{ok: ev.Kind == "a2a.task.completed" && ev.DedupeKey == "a2a-jti-completed" && taskID == "task-123" && state == "completed" && len(h.emitted) == 1,
		summary: "A2A push status updates normalize into task-state trigger events", emitted: h.emitted,
		details: map[string]any{"task_id": taskID, "task_state": state, "kind": ev.Kind, "dedupe_claimed": true}}, nil
}

func (h *harness) a2aPushRejectsReplay() (*harnessResult, error) {
	inbox := newTriggerInbox()
	cfg, raw := h.a2aPush("a2a-jti-replay")
	if _, err := verifyA2APush(cfg, raw, inbox, "a2a.push.fixture"); err != nil {
		return nil, err
	}
	_, err := verifyA2APush(cfg, raw, inbox, "a2a.push.fixture")
	var we *webhookError
	rejected := errors.As(err, &we) && we.kind == "duplicate"
	return &harnessResult{ok: rejected, summary: "A2A push JWT jti values are single-use through the trigger inbox",
		details: map[string]any{"jti": "a2a-jti-replay", "replay_rejected": rejected}}, nil
}

func (h *harness) ingestSaturation() (*harnessResult, error) {
	bucket := newTokenBucket(h.clock, 1, 1, time.Minute)
	admitted, _ := bucket.tryAcquire("github", "ingest")
	ok2, retryAfter := bucket.tryAcquire("github", "ingest")
	saturated := !ok2
	attempts := []any{h.attempt(1, "ingest_admitted", "", 0, "")}
	if saturated {
		attempts = append(attempts, h.attempt(2, "ingest_saturated", "503 Retry-After", retryAfter.Milliseconds(), ""))
	}
	return &harnessResult{ok: admitted && saturated,
		summary: "ingest token bucket admits the first webhook and returns Retry-After on saturation", attempts: attempts,
		details: map[string]any{"status": 503, "retry_after_ms": retryAfter.Milliseconds(),
			"metric": `harn_backpressure_events_total{dimension="ingest", action="reject"}`}}, nil
}

func (h *harness) circuitBreakerTrips() (*harnessResult, error) {
	const cooldown = 30 * time.Second
	circuit := newTriggerCircuit(5, cooldown)
	now := func() time.Duration { return time.Duration(h.clock.monoMs()) * time.Millisecond }
	var attempts []any
	opened := false
	for n := 1; n <= 5 && !opened; n++ {
		if !circuit.allow(now()) {
			break
		}
		opened = circuit.record(false, now()) // the destination answers 503
		status := "failed"
		if opened {
			status = "circuit_opened"
		}
		attempts = append(attempts, h.attempt(n, status, "provider 503", 0, ""))
	}
	fastFailed := !circuit.allow(now())
	dlq := &triggerDLQ{}
	if fastFailed {
		dlq.push(&dlqEntry{ID: "dlq_circuit_fixture", EventID: "circuit-event", BindingID: "circuit.fixture",
			Error: "destination circuit open", Attempts: len(attempts)})
	}
	h.clock.advance(cooldown)
	probe := circuit.allow(now())
	circuit.record(true, now())
	closes := probe && circuit.state == "closed"
	var entries []any
	for _, e := range dlq.entries {
		entries = append(entries, dlqValue(e))
	}
	return &harnessResult{ok: len(attempts) == 5 && len(entries) == 1,
		summary:  "five consecutive destination failures open the circuit and send dependent events to DLQ",
		attempts: attempts, dlq: entries, details: map[string]any{"destination": "a2a://reviewer.prod/triage",
			"opened": opened, "fast_failed": fastFailed, "probe_closes_after_success": closes,
			"metric": `harn_backpressure_events_total{dimension="circuit", action="opened"}`}}, nil
}

func (h *harness) rateLimitThrottles() (*harnessResult, error) {
	bucket := newTokenBucket(h.clock, 1, 1, time.Minute)
	firstAt := h.clock.monoMs()
	first, _ := bucket.tryAcquire("webhook", "fixture")
	firstTime := h.clock.now()
	ok, wait := bucket.tryAcquire("webhook", "fixture")
	blocked := !ok
	h.clock.advance(wait)
	secondAt := h.clock.monoMs()
	second, _ := bucket.tryAcquire("webhook", "fixture")
	if first {
		h.record("rate.limit", 1, h.syntheticEvent("rate.limit", "rate-limit-1", ""), "immediate", nil)
	}
	if second {
		h.record("rate.limit", 1, h.syntheticEvent("rate.limit", "rate-limit-2", ""), "after_throttle", nil)
	}
	a1 := h.attempt(1, "dispatched", "", 0, "")
	a1["at"], a1["at_ms"] = triggerTime(firstTime), firstAt
	attempts := []any{a1, h.attempt(2, "dispatched_after_throttle", "", wait.Milliseconds(), "")}
	return &harnessResult{ok: first && blocked && second && len(h.emitted) == 2,
		summary: "provider-scoped rate limits throttle subsequent dispatches", emitted: h.emitted, attempts: attempts,
		details: map[string]any{"throttled_for_ms": secondAt - firstAt}}, nil
}

// costGuard decides whether a dispatch may start: spent plus the
// projected cost of the next run must stay within the daily limit.
func costGuard(spentUSD, projectedUSD, limitUSD float64) (bool, float64) {
	total := spentUSD + projectedUSD
	return total <= limitUSD, total
}

func (h *harness) costGuard() (*harnessResult, error) {
	allowed, projected := costGuard(0.5, 0.75, 1.0)
	var attempts []any
	if !allowed {
		attempts = append(attempts, h.attempt(1, "cost_guard_blocked", "daily_cost_usd_exceeded", 0, ""))
	}
	return &harnessResult{ok: !allowed && len(h.emitted) == 0,
		summary:  "budget guard aborts dispatch before work starts when spend is exhausted",
		attempts: attempts, details: map[string]any{"projected_cost_usd": projected, "limit_usd": 1.0}}, nil
}

// tenantLog is an in-memory event log whose topics are scoped per tenant:
// a tenant writes and reads only topics under its own prefix.
type tenantLog struct {
	topics map[string][]map[string]any
}

func newTenantLog() *tenantLog { return &tenantLog{topics: map[string][]map[string]any{}} }

// scoped is the topic a tenant's name maps to.
func tenantTopic(tenant, topic string) string {
	if tenant == "" {
		return topic
	}
	return "tenant." + tenant + "." + topic
}

// append writes to a topic as tenant; a topic already scoped to another
// tenant is refused.
func (l *tenantLog) append(tenant, topic string, record map[string]any) error {
	if strings.HasPrefix(topic, "tenant.") && !strings.HasPrefix(topic, "tenant."+tenant+".") {
		return fmt.Errorf("tenant %s may not write topic %s", tenant, topic)
	}
	if !strings.HasPrefix(topic, "tenant.") {
		topic = tenantTopic(tenant, topic)
	}
	l.topics[topic] = append(l.topics[topic], record)
	return nil
}

func (l *tenantLog) read(tenant, topic string) []map[string]any {
	return l.topics[tenantTopic(tenant, topic)]
}

func (h *harness) multiTenant() (*harnessResult, error) {
	a := h.syntheticEvent("tenant.event", "tenant-a", "tenant-a")
	b := h.syntheticEvent("tenant.event", "tenant-b", "tenant-b")
	log := newTenantLog()
	const topic = "trigger.outbox"
	if err := log.append("tenant-a", topic, map[string]any{"event_id": a.ID}); err != nil {
		return nil, err
	}
	if err := log.append("tenant-b", topic, map[string]any{"event_id": b.ID}); err != nil {
		return nil, err
	}
	denied := log.append("tenant-a", tenantTopic("tenant-b", topic), map[string]any{"event_id": b.ID}) != nil
	na, nb := len(log.read("tenant-a", topic)), len(log.read("tenant-b", topic))
	h.record("tenant.fixture", 1, a, "tenant_a", nil)
	h.record("tenant.fixture", 1, b, "tenant_b", nil)
	return &harnessResult{ok: len(h.emitted) == 2 && na == 1 && nb == 1 && denied,
		summary: "tenant-scoped EventLog wrappers keep tenant trigger envelopes on isolated topics", emitted: h.emitted,
		details: map[string]any{"cross_tenant_leak": !denied, "cross_tenant_denied": denied, "tenant_a_events": na, "tenant_b_events": nb}}, nil
}

// inFlightRecord is one line of the durable in-flight journal.
type inFlightRecord struct {
	EventID   string `json:"event_id"`
	BindingID string `json:"binding_id"`
	Provider  string `json:"provider"`
	Kind      string `json:"kind"`
	DedupeKey string `json:"dedupe_key"`
	Status    string `json:"status"`
}

// inFlightJournal appends dispatch states to a JSON-lines file through the
// host (so it stays where the run may write) and reads back the events a
// crash left started but not acknowledged.
type inFlightJournal struct {
	c    *Call
	path string
}

func (j *inFlightJournal) write(r inFlightRecord) error {
	b, _ := json.Marshal(r)
	return j.c.th.in.host.AppendFile(j.path, append(b, '\n'))
}

func (j *inFlightJournal) pending() ([]inFlightRecord, error) {
	data, err := j.c.th.in.host.ReadFile(j.path)
	if err != nil {
		return nil, err
	}
	latest := map[string]inFlightRecord{}
	var order []string
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		var r inFlightRecord
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue
		}
		if _, seen := latest[r.EventID]; !seen {
			order = append(order, r.EventID)
		}
		latest[r.EventID] = r
	}
	var out []inFlightRecord
	for _, id := range order {
		if latest[id].Status == "started" {
			out = append(out, latest[id])
		}
	}
	return out, nil
}

func (h *harness) crashRecovery() (*harnessResult, error) {
	ev := h.syntheticEvent("recovery.event", "recover-key", "")
	dir, err := h.c.th.in.host.MkdirTemp("harn-trigger-harness-*")
	if err != nil {
		return nil, err
	}
	defer func() { _ = h.c.th.in.host.Remove(dir, true) }()
	path := filepath.Join(dir, "inflight.jsonl")
	first := &inFlightJournal{c: h.c, path: path}
	if err := first.write(inFlightRecord{EventID: ev.ID, BindingID: "recovery.fixture", Provider: ev.Provider, Kind: ev.Kind, DedupeKey: ev.DedupeKey, Status: "started"}); err != nil {
		return nil, err
	}
	// The dispatcher stops here; a new one opens the same journal.
	reopened := &inFlightJournal{c: h.c, path: path}
	pending, err := reopened.pending()
	if err != nil {
		return nil, err
	}
	ids := []string{}
	for _, r := range pending {
		h.record("recovery.fixture", 1, ev, "recovered", strp(r.EventID))
		r.Status = "acknowledged"
		if err := reopened.write(r); err != nil {
			return nil, err
		}
		ids = append(ids, r.EventID)
	}
	after, err := reopened.pending()
	if err != nil {
		return nil, err
	}
	return &harnessResult{ok: len(pending) == 1 && len(h.emitted) == 1 && len(after) == 0,
		summary: "restarted dispatcher replays unfinished events from durable in-flight state", emitted: h.emitted,
		details: map[string]any{"recovered_event_ids": ids}}, nil
}

// bindingSnapshotValue is a manifest binding version as trigger records
// show it.
func bindingSnapshotValue(b bindingVersion) map[string]any {
	return map[string]any{"id": b.ID, "version": b.Version, "source": "manifest", "kind": "webhook", "provider": "github",
		"autonomy_tier": "act_auto", "handler_kind": "worker", "state": b.State,
		"metrics": map[string]any{"received": 0, "dispatched": 0, "failed": 0, "dlq": 0, "in_flight": b.InFlight,
			"last_received_ms": nil, "cost_total_usd_micros": 0, "cost_today_usd_micros": 0, "cost_hour_usd_micros": 0},
		"daily_cost_usd": 5.0, "hourly_cost_usd": nil, "max_autonomous_decisions_per_hour": nil,
		"max_autonomous_decisions_per_day": nil, "on_budget_exhausted": "false"}
}

func stateOf(bs []bindingVersion, version int) string {
	for _, b := range bs {
		if b.Version == version {
			return b.State
		}
	}
	return ""
}

func (h *harness) hotReload() (*harnessResult, error) {
	reg := newTriggerRegistry(0)
	reg.install("reload.fixture", "v1", h.clock.now())
	if err := reg.begin("reload.fixture", 1); err != nil {
		return nil, err
	}
	reg.install("reload.fixture", "v2", h.clock.now())
	during := reg.snapshot()
	reg.finish("reload.fixture", 1)
	after := reg.snapshot()
	var bindings []any
	for _, b := range after {
		bindings = append(bindings, bindingSnapshotValue(b))
	}
	return &harnessResult{ok: stateOf(during, 1) == "draining" && stateOf(during, 2) == "active" && stateOf(after, 1) == "terminated",
		summary:  "manifest hot-reload keeps the old binding draining until in-flight work completes",
		bindings: bindings}, nil
}

func (h *harness) replayGCFallback() (*harnessResult, error) {
	reg := newTriggerRegistry(1)
	for _, fp := range []string{"v1", "v2", "v3"} {
		reg.install("replay.gc.fixture", fp, h.clock.now())
	}
	h.clock.advance(time.Second)
	received := h.clock.now()
	h.clock.advance(time.Second)
	reg.install("replay.gc.fixture", "v4", h.clock.now())
	resolved, err := reg.resolveAsOf("replay.gc.fixture", 1, received)
	if err != nil {
		return nil, err
	}
	return &harnessResult{ok: resolved == 3,
		summary: "replay falls back to lifecycle-history binding selection after old versions are GC'd",
		details: map[string]any{"trigger_id": "replay.gc.fixture", "recorded_version": 1, "received_at": triggerTime(received), "resolved_version": resolved}}, nil
}

func (h *harness) deadManSwitch() (*harnessResult, error) {
	const window = 5 * time.Minute
	lastEvent := h.clock.monoMs()
	for tick := 0; tick < 5; tick++ {
		h.clock.advance(time.Minute)
		silent := time.Duration(h.clock.monoMs()-lastEvent) * time.Millisecond
		if silent >= window && len(h.alerts) == 0 {
			h.alerts = append(h.alerts, map[string]any{"kind": "dead_man_switch", "binding_id": "deadman.fixture",
				"at": triggerTime(h.clock.now()), "message": "no events observed for deadman.fixture within the silent window"})
		}
	}
	return &harnessResult{ok: len(h.alerts) == 1, summary: "silent bindings trip the dead-man switch and surface an alert",
		alerts: h.alerts, details: map[string]any{"silent_for_ms": h.clock.monoMs() - lastEvent}}, nil
}

// ---- our parameterized scenarios ----

func harnessOpt(d *Dict, k, def string) string {
	if v, ok := d.Get(k); ok && v.k != KindNil {
		return Display(v)
	}
	return def
}

func harnessInt(d *Dict, k string, def int64) int64 {
	if v, ok := d.Get(k); ok {
		if f, ok := v.Number(); ok {
			return int64(f)
		}
	}
	return def
}

// parseInstant reads an RFC 3339 instant or unix seconds.
func parseInstant(d *Dict, k string, def time.Time) (time.Time, error) {
	v, ok := d.Get(k)
	if !ok || v.k == KindNil {
		return def, nil
	}
	if f, ok := v.Number(); ok {
		return time.Unix(int64(f), 0).UTC(), nil
	}
	t, err := time.Parse(time.RFC3339, Display(v))
	if err != nil {
		return def, fmt.Errorf("%s: %v", k, err)
	}
	return t.UTC(), nil
}

func (h *harness) webhookDelivery(o *Dict) (*harnessResult, error) {
	provider := harnessOpt(o, "provider", "webhook")
	scheme := harnessOpt(o, "scheme", "github")
	headers := map[string]string{}
	if v, ok := o.Get("headers"); ok && v.k == KindDict {
		hd := v.AsDict()
		for _, k := range hd.Keys() {
			x, _ := hd.Get(k)
			headers[k] = Display(x)
		}
	}
	var body []byte
	if v, ok := o.Get("body"); ok {
		if v.k == KindBytes {
			body = v.AsBytes()
		} else {
			body = []byte(Display(v))
		}
	}
	received, err := parseInstant(o, "received_at", h.clock.now())
	if err != nil {
		return nil, err
	}
	raw := &inbound{headers: headers, body: body, receivedAt: received}
	tol := time.Duration(harnessInt(o, "tolerance_secs", 0)) * time.Second
	binding := harnessOpt(o, "binding_id", provider+".fixture")
	ev, err := normalizeWebhook(provider, scheme, []byte(harnessOpt(o, "secret", "")), raw, tol)
	if err != nil {
		kind := "error"
		var we *webhookError
		if errors.As(err, &we) {
			kind = we.kind
		}
		return &harnessResult{ok: false, summary: "webhook delivery refused",
			details: map[string]any{"error": err.Error(), "rejected": kind}}, nil
	}
	h.record(binding, 1, ev, "verified", nil)
	return &harnessResult{ok: true, summary: "webhook delivery verified and normalized", emitted: h.emitted,
		details: map[string]any{"event_id": ev.ID}}, nil
}

func (h *harness) cronSchedule(o *Dict) (*harnessResult, error) {
	sched, err := parseCron(harnessOpt(o, "schedule", ""), harnessOpt(o, "timezone", "UTC"))
	if err != nil {
		return nil, err
	}
	start, err := parseInstant(o, "start", h.clock.now())
	if err != nil {
		return nil, err
	}
	h.clock.set(start)
	last, err := parseInstant(o, "last_fired", start)
	if err != nil {
		return nil, err
	}
	mode := cronCatchup(harnessOpt(o, "catchup", "skip"))
	switch mode {
	case "skip", "latest", "all":
	default:
		return nil, fmt.Errorf("catchup must be skip, latest or all, not %q", mode)
	}
	binding := harnessOpt(o, "binding_id", "cron.fixture")
	h.clock.advance(time.Duration(harnessInt(o, "advance_secs", 0)) * time.Second)
	ticks := sched.ticks(last, h.clock.now(), start, mode)
	for _, t := range ticks {
		h.record(binding, 1, &triggerEvent{Provider: "cron", Kind: "tick", DedupeKey: binding + ":" + triggerTime(t),
			OccurredAt: t, ReceivedAt: h.clock.now(), SignatureState: "unsigned"}, "cron_tick", nil)
	}
	next := sched.next(h.clock.now())
	names := make([]string, len(ticks))
	for i, t := range ticks {
		names[i] = triggerTime(t)
	}
	sort.Strings(names)
	return &harnessResult{ok: true, summary: "cron schedule ticks on the virtual clock", emitted: h.emitted,
		details: map[string]any{"ticks": names, "next": triggerTime(next), "clock_ms": h.clock.monoMs()}}, nil
}
