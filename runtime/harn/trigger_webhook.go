package harn

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Inbound webhook verification and normalization: a delivery (headers,
// body, the instant it arrived) is checked against the binding's signing
// secret under one of the signature schemes providers use, its timestamp
// must fall in the scheme's window around the arrival, and it becomes a
// trigger event (provider, kind, dedupe key, payload).

// inbound is a raw webhook delivery.
type inbound struct {
	headers    map[string]string // names compared case-insensitively
	body       []byte
	receivedAt time.Time
}

func (r *inbound) header(name string) (string, bool) {
	for k, v := range r.headers {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}

// triggerEvent is a normalized delivery.
type triggerEvent struct {
	ID             string
	Provider       string
	Kind           string
	DedupeKey      string
	TenantID       string
	OccurredAt     time.Time
	ReceivedAt     time.Time
	SignatureState string // verified, unsigned, failed
	Payload        map[string]any
	Headers        map[string]string
}

// webhookError is a delivery refused before it became an event; its kind
// says why (signature, timestamp_window, missing_header, duplicate, json).
type webhookError struct {
	kind string
	msg  string
}

func (e *webhookError) Error() string { return e.msg }

func hmacSHA256(secret, data []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write(data)
	return m.Sum(nil)
}

// verifyWindow checks a delivery's timestamp against its arrival.
func verifyWindow(ts, now time.Time, window time.Duration) error {
	d := now.Sub(ts)
	if d < 0 {
		d = -d
	}
	if d > window {
		return &webhookError{kind: "timestamp_window", msg: fmt.Sprintf("timestamp %s is outside the allowed verification window of %s around %s", triggerTime(ts), window, triggerTime(now))}
	}
	return nil
}

func missingHeader(name string) error {
	return &webhookError{kind: "missing_header", msg: fmt.Sprintf("missing required header `%s`", name)}
}

func badSignature(msg string) error { return &webhookError{kind: "signature", msg: msg} }

// verifyWebhookSignature checks a delivery under a scheme: "github"
// (X-Hub-Signature-256: sha256=hex of the body), "standard" (Standard
// Webhooks: webhook-id, webhook-timestamp, webhook-signature v1,base64 of
// id.timestamp.body, secret whsec_base64), "stripe" (Stripe-Signature
// t=..,v1=hex of t.body), "slack" (X-Slack-Signature v0=hex of
// v0:timestamp:body) and "linear" (Linear-Signature hex of the body, the
// body's webhookTimestamp in milliseconds, 75 s by default). tolerance bounds the
// timestamp's distance from the arrival (0: the scheme's default).
func verifyWebhookSignature(scheme string, secret []byte, r *inbound, tolerance time.Duration) error {
	switch scheme {
	case "github":
		sig, ok := r.header("X-Hub-Signature-256")
		if !ok {
			return missingHeader("X-Hub-Signature-256")
		}
		want := "sha256=" + hex.EncodeToString(hmacSHA256(secret, r.body))
		if !hmac.Equal([]byte(strings.ToLower(strings.TrimSpace(sig))), []byte(want)) {
			return badSignature("invalid GitHub webhook signature")
		}
		return nil
	case "standard":
		id, ok := r.header("webhook-id")
		if !ok {
			return missingHeader("webhook-id")
		}
		tsRaw, ok := r.header("webhook-timestamp")
		if !ok {
			return missingHeader("webhook-timestamp")
		}
		sigs, ok := r.header("webhook-signature")
		if !ok {
			return missingHeader("webhook-signature")
		}
		ts, err := strconv.ParseInt(strings.TrimSpace(tsRaw), 10, 64)
		if err != nil {
			return &webhookError{kind: "invalid_header", msg: "invalid header `webhook-timestamp`: not a unix timestamp"}
		}
		if tolerance == 0 {
			tolerance = 5 * time.Minute
		}
		if err := verifyWindow(time.Unix(ts, 0), r.receivedAt, tolerance); err != nil {
			return err
		}
		key := secret
		if s := string(secret); strings.HasPrefix(s, "whsec_") {
			if k, err := base64.StdEncoding.DecodeString(s[len("whsec_"):]); err == nil {
				key = k
			}
		}
		want := base64.StdEncoding.EncodeToString(hmacSHA256(key, []byte(id+"."+tsRaw+"."+string(r.body))))
		for _, s := range strings.Fields(sigs) {
			if v, sig, ok := strings.Cut(s, ","); ok && v == "v1" && hmac.Equal([]byte(sig), []byte(want)) {
				return nil
			}
		}
		return badSignature("invalid Standard Webhooks signature")
	case "stripe":
		h, ok := r.header("Stripe-Signature")
		if !ok {
			return missingHeader("Stripe-Signature")
		}
		var ts string
		var v1 []string
		for _, part := range strings.Split(h, ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
			switch k {
			case "t":
				ts = v
			case "v1":
				v1 = append(v1, v)
			}
		}
		n, err := strconv.ParseInt(ts, 10, 64)
		if err != nil {
			return &webhookError{kind: "invalid_header", msg: "invalid header `Stripe-Signature`: no timestamp"}
		}
		if tolerance == 0 {
			tolerance = 5 * time.Minute
		}
		if err := verifyWindow(time.Unix(n, 0), r.receivedAt, tolerance); err != nil {
			return err
		}
		want := hex.EncodeToString(hmacSHA256(secret, []byte(ts+"."+string(r.body))))
		for _, s := range v1 {
			if hmac.Equal([]byte(s), []byte(want)) {
				return nil
			}
		}
		return badSignature("invalid Stripe webhook signature")
	case "slack":
		tsRaw, ok := r.header("X-Slack-Request-Timestamp")
		if !ok {
			return missingHeader("X-Slack-Request-Timestamp")
		}
		sig, ok := r.header("X-Slack-Signature")
		if !ok {
			return missingHeader("X-Slack-Signature")
		}
		ts, err := strconv.ParseInt(strings.TrimSpace(tsRaw), 10, 64)
		if err != nil {
			return &webhookError{kind: "invalid_header", msg: "invalid header `X-Slack-Request-Timestamp`: not a unix timestamp"}
		}
		if tolerance == 0 {
			tolerance = 5 * time.Minute
		}
		if err := verifyWindow(time.Unix(ts, 0), r.receivedAt, tolerance); err != nil {
			return err
		}
		want := "v0=" + hex.EncodeToString(hmacSHA256(secret, []byte("v0:"+tsRaw+":"+string(r.body))))
		if !hmac.Equal([]byte(sig), []byte(want)) {
			return badSignature("invalid Slack request signature")
		}
		return nil
	case "linear":
		sig, ok := r.header("Linear-Signature")
		if !ok {
			return missingHeader("Linear-Signature")
		}
		want := hex.EncodeToString(hmacSHA256(secret, r.body))
		if !hmac.Equal([]byte(strings.ToLower(strings.TrimSpace(sig))), []byte(want)) {
			return badSignature("invalid Linear webhook signature")
		}
		var body struct {
			WebhookTimestamp *int64 `json:"webhookTimestamp"`
		}
		if err := json.Unmarshal(r.body, &body); err != nil {
			return &webhookError{kind: "json", msg: "linear webhook body is not JSON: " + err.Error()}
		}
		if body.WebhookTimestamp == nil {
			return &webhookError{kind: "missing_field", msg: "linear webhook body has no webhookTimestamp"}
		}
		if tolerance == 0 {
			tolerance = 75 * time.Second
		}
		return verifyWindow(time.UnixMilli(*body.WebhookTimestamp), r.receivedAt, tolerance)
	case "none", "":
		return nil
	}
	return fmt.Errorf("unknown webhook signature scheme %q (known: github, standard, stripe, slack, linear)", scheme)
}

// normalizeWebhook verifies a delivery and turns it into an event of the
// provider: its kind and dedupe key come from the provider's headers and
// body.
func normalizeWebhook(provider, scheme string, secret []byte, r *inbound, tolerance time.Duration) (*triggerEvent, error) {
	if err := verifyWebhookSignature(scheme, secret, r, tolerance); err != nil {
		return nil, err
	}
	ev := &triggerEvent{Provider: provider, ReceivedAt: r.receivedAt, SignatureState: "verified", Headers: r.headers}
	if scheme == "none" || scheme == "" {
		ev.SignatureState = "unsigned"
	}
	var payload map[string]any
	if json.Valid(r.body) {
		_ = json.Unmarshal(r.body, &payload)
	}
	ev.Payload = payload
	switch provider {
	case "slack":
		inner, _ := payload["event"].(map[string]any)
		typ, _ := inner["type"].(string)
		ev.Kind = typ
		if typ == "message" {
			if ct, _ := inner["channel_type"].(string); ct != "" {
				ev.Kind = "message." + slackChannelKind(ct)
			}
		}
		ev.DedupeKey, _ = payload["event_id"].(string)
		if t, ok := payload["event_time"].(float64); ok {
			ev.OccurredAt = time.Unix(int64(t), 0)
		}
	case "linear":
		typ, _ := payload["type"].(string)
		action, _ := payload["action"].(string)
		ev.Kind = strings.ToLower(typ) + "." + action
		ev.DedupeKey, _ = r.header("Linear-Delivery")
		if t, ok := payload["webhookTimestamp"].(float64); ok {
			ev.OccurredAt = time.UnixMilli(int64(t))
		}
	default:
		switch scheme {
		case "github":
			ev.Kind, _ = r.header("X-GitHub-Event")
			ev.DedupeKey, _ = r.header("X-GitHub-Delivery")
		case "standard":
			ev.DedupeKey, _ = r.header("webhook-id")
			if t, ok := payload["type"].(string); ok {
				ev.Kind = t
			}
		}
		if ev.Kind == "" {
			ev.Kind = "webhook"
		}
	}
	if ev.DedupeKey == "" {
		ev.DedupeKey = hex.EncodeToString(hmacSHA256([]byte("dedupe"), r.body))[:16]
	}
	ev.ID = "trigger_evt_" + hex.EncodeToString(hmacSHA256([]byte(provider), []byte(ev.DedupeKey)))[:24]
	return ev, nil
}

// slackChannelKind is the event-type suffix Slack uses for a channel type.
func slackChannelKind(ct string) string {
	switch ct {
	case "channel":
		return "channels"
	case "group":
		return "groups"
	}
	return ct
}

// linearIssueChanges reads a Linear issue update's updatedFrom into
// change records, one per changed field, in field-name order.
func linearIssueChanges(payload map[string]any) []map[string]any {
	from, _ := payload["updatedFrom"].(map[string]any)
	names := map[string]string{"title": "title", "description": "description", "priority": "priority",
		"estimate": "estimate", "stateId": "state_id", "teamId": "team_id", "assigneeId": "assignee_id",
		"projectId": "project_id", "cycleId": "cycle_id", "dueDate": "due_date", "parentId": "parent_id",
		"sortOrder": "sort_order", "labelIds": "label_ids", "completedAt": "completed_at"}
	keys := make([]string, 0, len(from))
	for k := range from {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]map[string]any, 0, len(keys))
	for _, k := range keys {
		if n, ok := names[k]; ok {
			out = append(out, map[string]any{"field_name": n, "previous": from[k]})
		} else {
			out = append(out, map[string]any{"field_name": "other", "field": k, "previous": from[k]})
		}
	}
	return out
}

// ---- A2A push (JWT bearer, HS256) ----

// a2aPushConfig is what a binding expects of a push notification's token.
type a2aPushConfig struct {
	issuer, audience, token string
	keys                    map[string][]byte // kid -> HMAC key
}

// verifyA2APush checks the bearer JWT of an A2A push delivery (HS256 with
// a key of the binding's JWKS, issuer, audience, the opaque token claim,
// expiry) and claims its jti in the inbox, so a token is single-use.
func verifyA2APush(cfg a2aPushConfig, r *inbound, inbox *triggerInbox, binding string) (*triggerEvent, error) {
	auth, ok := r.header("authorization")
	if !ok {
		return nil, missingHeader("authorization")
	}
	tok, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		return nil, badSignature("a2a push authorization is not a bearer token")
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return nil, badSignature("a2a push token is not a JWT")
	}
	hb, err1 := base64.RawURLEncoding.DecodeString(parts[0])
	cb, err2 := base64.RawURLEncoding.DecodeString(parts[1])
	sig, err3 := base64.RawURLEncoding.DecodeString(parts[2])
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, badSignature("a2a push token is not base64url")
	}
	var header struct{ Alg, Kid string }
	var claims map[string]any
	if json.Unmarshal(hb, &header) != nil || json.Unmarshal(cb, &claims) != nil {
		return nil, badSignature("a2a push token is not JSON")
	}
	key, ok := cfg.keys[header.Kid]
	if header.Alg != "HS256" || !ok {
		return nil, badSignature(fmt.Sprintf("a2a push token key %q (%s) is not in the binding's key set", header.Kid, header.Alg))
	}
	if !hmac.Equal(sig, hmacSHA256(key, []byte(parts[0]+"."+parts[1]))) {
		return nil, badSignature("invalid a2a push token signature")
	}
	str := func(k string) string { s, _ := claims[k].(string); return s }
	switch {
	case str("iss") != cfg.issuer:
		return nil, badSignature("a2a push token issuer " + str("iss") + " is not " + cfg.issuer)
	case str("aud") != cfg.audience:
		return nil, badSignature("a2a push token audience " + str("aud") + " is not " + cfg.audience)
	case cfg.token != "" && str("token") != cfg.token:
		return nil, badSignature("a2a push token does not carry the expected notification token")
	}
	if exp, ok := claims["exp"].(float64); ok && r.receivedAt.Unix() > int64(exp) {
		return nil, badSignature("a2a push token expired")
	}
	jti := str("jti")
	if jti == "" {
		return nil, badSignature("a2a push token has no jti")
	}
	if !inbox.claim(binding, jti, r.receivedAt, defaultInboxRetention) {
		return nil, &webhookError{kind: "duplicate", msg: fmt.Sprintf("duplicate delivery `%s` for binding `%s`: a2a push token already used", jti, binding)}
	}
	var body map[string]any
	if err := json.Unmarshal(r.body, &body); err != nil {
		return nil, &webhookError{kind: "json", msg: "a2a push body is not JSON: " + err.Error()}
	}
	update, _ := body["statusUpdate"].(map[string]any)
	status, _ := update["status"].(map[string]any)
	state, _ := status["state"].(string)
	ev := &triggerEvent{Provider: "a2a-push", Kind: "a2a.task." + state, DedupeKey: jti, ReceivedAt: r.receivedAt,
		OccurredAt: r.receivedAt, SignatureState: "verified", Payload: map[string]any{
			"task_id": update["taskId"], "context_id": update["contextId"], "task_state": state, "raw": body}}
	ev.ID = "trigger_evt_" + hex.EncodeToString(hmacSHA256([]byte("a2a-push"), []byte(jti)))[:24]
	return ev, nil
}

// signJWTHS256 makes an HS256 token (for scenarios that play the sender).
func signJWTHS256(kid string, key []byte, claims map[string]any) string {
	h, _ := json.Marshal(map[string]string{"alg": "HS256", "typ": "JWT", "kid": kid})
	c, _ := json.Marshal(claims)
	head := base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(c)
	return head + "." + base64.RawURLEncoding.EncodeToString(hmacSHA256(key, []byte(head)))
}

func hexString(b []byte) string { return hex.EncodeToString(b) }
