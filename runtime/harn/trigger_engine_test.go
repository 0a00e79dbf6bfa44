package harn

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestCronNext(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		expr, zone, from, want string
	}{
		{"* * * * *", "UTC", "2026-04-19T00:00:30Z", "2026-04-19T00:01:00Z"},
		{"*/15 * * * *", "", "2026-04-19T00:15:00Z", "2026-04-19T00:30:00Z"},
		{"0 9 * * MON-FRI", "UTC", "2026-04-17T10:00:00Z", "2026-04-20T09:00:00Z"}, // Friday after 9 -> Monday
		{"0 0 1 jan *", "UTC", "2026-04-19T00:00:00Z", "2027-01-01T00:00:00Z"},
		{"@hourly", "", "2026-04-19T03:59:59Z", "2026-04-19T04:00:00Z"},
		{"0 0 * * 7", "", "2026-04-19T00:00:00Z", "2026-04-26T00:00:00Z"},   // 7 is Sunday
		{"0 12 13 * 5", "", "2026-04-01T00:00:00Z", "2026-04-03T12:00:00Z"}, // dom or dow: Friday the 3rd first
		{"0 0 31 2 *", "", "2026-01-01T00:00:00Z", ""},                      // never
		{"0 9 * * *", "America/New_York", "2026-04-19T00:00:00Z", "2026-04-19T13:00:00Z"},
	} {
		s, err := parseCron(tc.expr, tc.zone)
		if err != nil {
			if strings.Contains(err.Error(), "unknown time zone") {
				t.Logf("%s: no zone data: %v", tc.expr, err)
				continue
			}
			t.Fatalf("%s: %v", tc.expr, err)
		}
		got := s.next(at(tc.from))
		gotS := ""
		if !got.IsZero() {
			gotS = triggerTime(got)
		}
		if gotS != tc.want {
			t.Errorf("next(%q after %s) = %q, want %q", tc.expr, tc.from, gotS, tc.want)
		}
	}
	for _, bad := range []string{"* * * *", "60 * * * *", "* * * * * *", "5-1 * * * *", "*/0 * * * *", "x * * * *"} {
		if _, err := parseCron(bad, ""); err == nil {
			t.Errorf("parseCron(%q) accepted", bad)
		}
	}
}

func TestWebhookSignatureSchemes(t *testing.T) {
	now := time.Unix(1_715_000_000, 0).UTC()
	body := []byte(`{"a":1}`)
	gh := "sha256=" + hexString(hmacSHA256([]byte("s"), body))
	slack := "v0=" + hexString(hmacSHA256([]byte("s"), []byte("v0:1715000000:"+string(body))))
	stripe := "t=1715000000,v1=" + hexString(hmacSHA256([]byte("s"), []byte("1715000000."+string(body))))
	for _, tc := range []struct {
		name, scheme string
		headers      map[string]string
		received     time.Time
		wantKind     string // "" accepted
	}{
		{"github ok", "github", map[string]string{"x-hub-signature-256": gh}, now, ""},
		{"github forged", "github", map[string]string{"X-Hub-Signature-256": "sha256=" + hexString(hmacSHA256([]byte("t"), body))}, now, "signature"},
		{"github missing", "github", map[string]string{}, now, "missing_header"},
		{"slack ok", "slack", map[string]string{"X-Slack-Request-Timestamp": "1715000000", "X-Slack-Signature": slack}, now, ""},
		{"slack stale", "slack", map[string]string{"X-Slack-Request-Timestamp": "1715000000", "X-Slack-Signature": slack}, now.Add(6 * time.Minute), "timestamp_window"},
		{"stripe ok", "stripe", map[string]string{"Stripe-Signature": stripe}, now, ""},
		{"stripe tampered", "stripe", map[string]string{"Stripe-Signature": strings.Replace(stripe, "t=1715000000", "t=1715000001", 1)}, now, "signature"},
	} {
		err := verifyWebhookSignature(tc.scheme, []byte("s"), &inbound{headers: tc.headers, body: body, receivedAt: tc.received}, 0)
		var we *webhookError
		switch {
		case tc.wantKind == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.wantKind != "" && (!errors.As(err, &we) || we.kind != tc.wantKind):
			t.Errorf("%s: got %v, want a %s refusal", tc.name, err, tc.wantKind)
		}
	}
	// Standard Webhooks' published example verifies.
	std := &inbound{headers: map[string]string{"webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
		"webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", "webhook-timestamp": "1614265330"},
		body: []byte(`{"test": 2432232314}`), receivedAt: time.Unix(1_614_265_330, 0)}
	if err := verifyWebhookSignature("standard", []byte("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), std, 0); err != nil {
		t.Errorf("standard webhooks example: %v", err)
	}
}

func TestTokenBucketAndBackoff(t *testing.T) {
	clock := newTriggerClock(harnessStart)
	b := newTokenBucket(clock, 2, 1, time.Minute)
	for i, want := range []bool{true, true, false} {
		if ok, _ := b.tryAcquire("p", "s"); ok != want {
			t.Fatalf("acquire %d = %v, want %v", i, ok, want)
		}
	}
	if ok, _ := b.tryAcquire("p", "other"); !ok {
		t.Fatal("a second scope shares the first one's bucket")
	}
	_, wait := b.tryAcquire("p", "s")
	if wait != time.Minute {
		t.Fatalf("wait = %v, want 1m", wait)
	}
	clock.advance(wait)
	if ok, _ := b.tryAcquire("p", "s"); !ok {
		t.Fatal("no token after the refill interval")
	}
	for n, want := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 4: 800 * time.Millisecond, 10: time.Second} {
		if got := retryBackoff(100*time.Millisecond, time.Second, n); got != want {
			t.Errorf("retryBackoff(%d) = %v, want %v", n, got, want)
		}
	}
}

func TestTriggerRegistryReloadAndResolve(t *testing.T) {
	r := newTriggerRegistry(1)
	t0 := harnessStart
	r.install("b", "v1", t0)
	if err := r.begin("b", 1); err != nil {
		t.Fatal(err)
	}
	r.install("b", "v1", t0) // same definition: no new version
	r.install("b", "v2", t0.Add(time.Minute))
	if s := stateOf(r.snapshot(), 1); s != "draining" {
		t.Fatalf("v1 with work in flight is %s, want draining", s)
	}
	if err := r.begin("b", 1); err == nil {
		t.Fatal("a draining version took new work")
	}
	r.finish("b", 1)
	if s := stateOf(r.snapshot(), 1); s != "terminated" {
		t.Fatalf("v1 after its work is %s, want terminated", s)
	}
	r.install("b", "v3", t0.Add(2*time.Minute))
	r.install("b", "v4", t0.Add(3*time.Minute))
	if s := stateOf(r.snapshot(), 1); s != "" {
		t.Fatalf("v1 kept after gc (%s)", s)
	}
	for _, tc := range []struct {
		version int
		at      time.Duration
		want    int
	}{{1, 90 * time.Second, 2}, {1, 150 * time.Second, 3}, {3, 0, 3}, {4, time.Hour, 4}} {
		got, err := r.resolveAsOf("b", tc.version, t0.Add(tc.at))
		if err != nil || got != tc.want {
			t.Errorf("resolveAsOf(v%d, +%v) = %d, %v; want %d", tc.version, tc.at, got, err, tc.want)
		}
	}
	if _, err := r.resolveAsOf("b", 1, t0.Add(-time.Second)); err == nil {
		t.Error("resolved a version before the first was installed")
	}
}

func TestTriggerCircuitAndDLQ(t *testing.T) {
	c := newTriggerCircuit(3, time.Second)
	for i := 0; i < 2; i++ {
		if c.record(false, 0) {
			t.Fatalf("opened after %d failures", i+1)
		}
	}
	if !c.record(false, 0) || c.allow(500*time.Millisecond) {
		t.Fatal("third failure did not open the circuit")
	}
	if !c.allow(time.Second) {
		t.Fatal("no probe after the cooldown")
	}
	if !c.record(false, time.Second) {
		t.Fatal("a failed probe did not reopen the circuit")
	}
	q := &triggerDLQ{}
	q.push(&dlqEntry{ID: "d", EventID: "e", Attempts: 1})
	if _, err := q.replay("nope"); err == nil {
		t.Error("replayed an unknown event")
	}
	if e, err := q.replay("e"); err != nil || !e.Replayed || e.Attempts != 2 {
		t.Errorf("replay = %+v, %v", e, err)
	}
	if _, err := q.replay("e"); err == nil {
		t.Error("replayed the same dead letter twice")
	}
}
