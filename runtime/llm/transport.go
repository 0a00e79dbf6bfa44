package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/redact"
)

// NewHTTPClient returns the client every provider request goes through:
// redirects are not followed (the 3xx comes back as the response, which
// the Transport reports as ErrRedirect), requests to loopback addresses
// bypass any proxy from the environment, and nothing retries.
func NewHTTPClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = func(r *http.Request) (*url.URL, error) {
		if isLoopback(r.URL.Hostname()) {
			return nil, nil
		}
		return http.ProxyFromEnvironment(r)
	}
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// AuthStyle is how a credential is sent.
type AuthStyle int

// Credential header styles.
const (
	AuthBearer    AuthStyle = iota // Authorization: Bearer KEY
	AuthAPIKeyHdr                  // x-api-key: KEY
)

// Transport sends one request to one route.
type Transport struct {
	client   *http.Client
	baseURL  string
	keyEnv   string
	getenv   func(string) (string, bool)
	timeout  time.Duration
	checkNet func(string) error
	// provider and noLive decide CheckLive before each request.
	provider string
	noLive   bool
}

// NewTransport returns the transport of a route.
func NewTransport(route catalog.Route, opts Options) *Transport {
	c := opts.Client
	if c == nil {
		c = NewHTTPClient()
	} else if c.CheckRedirect == nil {
		cc := *c
		cc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		c = &cc
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = time.Duration(route.Runtime.TimeoutMS) * time.Millisecond
	}
	if timeout <= 0 {
		timeout = catalog.DefaultTimeoutMS * time.Millisecond
	}
	return &Transport{client: c, baseURL: strings.TrimRight(route.Runtime.BaseURL, "/"),
		keyEnv: route.Runtime.APIKeyEnv, getenv: opts.getenv, timeout: timeout, checkNet: opts.CheckNet,
		provider: route.Provider, noLive: opts.NoLiveCalls}
}

// BaseURL is the route's endpoint root without a trailing slash.
func (t *Transport) BaseURL() string { return t.baseURL }

// Post is one JSON POST.
type Post struct {
	// URL is absolute, or a path appended to the route's base URL.
	URL     string
	Auth    AuthStyle
	Headers map[string]string
	Body    []byte
}

// Reply is a 2xx response.
type Reply struct {
	Status int
	Header http.Header
	// Body is the whole body (Do) or nil (Stream).
	Body []byte
}

// Do sends p once and returns the 2xx reply, or a typed *Error.
func (t *Transport) Do(ctx context.Context, p Post) (*Reply, error) {
	resp, cancel, err := t.send(ctx, p, false)
	if err != nil {
		return nil, err
	}
	defer cancel()
	defer resp.Body.Close()
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if rerr != nil {
		return nil, t.failure(ctx, rerr, 1)
	}
	// Everything a provider sends back (served model, content, error
	// prose) is kept by receipts, tapes and records: a key it echoes is
	// removed here, before anything reads it.
	body = redact.Bytes(body)
	if len(body) > MaxResponseBytes {
		return nil, &Error{Kind: ErrMalformed, Status: resp.StatusCode, Attempts: 1, Detail: "response body exceeds the size bound"}
	}
	if e := classify(resp, body); e != nil {
		return nil, e
	}
	return &Reply{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}

// Stream sends p once and calls onEvent for each server-sent event of a
// 2xx reply (event name, data); a non-2xx reply is read whole and
// classified. onEvent's error stops reading and is returned.
func (t *Transport) Stream(ctx context.Context, p Post, onEvent func(event, data string) error) (*Reply, error) {
	resp, cancel, err := t.send(ctx, p, true)
	if err != nil {
		return nil, err
	}
	defer cancel()
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes))
		return nil, classify(resp, redact.Bytes(body))
	}
	if err := parseSSE(&boundedBody{r: resp.Body}, onEvent); err != nil {
		var pe *Error
		if errors.As(err, &pe) {
			return nil, pe
		}
		if _, isEvent := err.(eventError); isEvent {
			return nil, err.(eventError).err
		}
		return nil, t.failure(ctx, err, 1)
	}
	return &Reply{Status: resp.StatusCode, Header: resp.Header}, nil
}

// boundedBody reads a stream up to MaxResponseBytes and then fails: an
// endless stream of small events is refused, not read forever.
type boundedBody struct {
	r io.Reader
	n int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.n >= MaxResponseBytes {
		return 0, malformed("the streamed response exceeds the size bound")
	}
	if rest := MaxResponseBytes - b.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	return n, err
}

// eventError carries an onEvent callback's error out of parseSSE.
type eventError struct{ err error }

func (e eventError) Error() string { return e.err.Error() }

// parseSSE reads server-sent events, calling onEvent(event, data) for
// each; data lines join with newlines; comments are skipped; a final
// event without a blank line still counts. Lines are bounded by
// MaxSSELine.
func parseSSE(body io.Reader, onEvent func(event, data string) error) error {
	r := bufio.NewReaderSize(body, 64<<10)
	var event string
	var data strings.Builder
	emit := func() error {
		if data.Len() == 0 && event == "" {
			return nil
		}
		err := onEvent(event, redact.String(strings.TrimSuffix(data.String(), "\n")))
		event = ""
		data.Reset()
		if err != nil {
			return eventError{err}
		}
		return nil
	}
	for {
		line, rerr := readLine(r)
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return rerr
		}
		switch {
		case line == "" && rerr == nil:
			if err := emit(); err != nil {
				return err
			}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event:"):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			d := strings.TrimPrefix(line, "data:")
			data.WriteString(strings.TrimPrefix(d, " "))
			data.WriteByte('\n')
		}
		if errors.Is(rerr, io.EOF) {
			if data.Len() > 0 {
				return emit()
			}
			return nil
		}
	}
}

func readLine(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		b = append(b, chunk...)
		if len(b) > MaxSSELine {
			return "", &Error{Kind: ErrMalformed, Attempts: 1, Detail: "stream line exceeds the size bound"}
		}
		if err != nil {
			return string(b), err
		}
		if !isPrefix {
			return string(b), nil
		}
	}
}

// send performs the one physical request.
func (t *Transport) send(ctx context.Context, p Post, stream bool) (*http.Response, context.CancelFunc, error) {
	target := p.URL
	if !strings.HasPrefix(target, "http://") && !strings.HasPrefix(target, "https://") {
		if t.baseURL == "" {
			return nil, nil, &Error{Kind: ErrUnconfigured, Detail: "the route declares no base_url"}
		}
		target = t.baseURL + p.URL
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, t.failure(ctx, err, 0)
	}
	if err := (Options{NoLiveCalls: t.noLive}).CheckLive(t.provider); err != nil {
		return nil, nil, err
	}
	if t.checkNet != nil {
		u, err := url.Parse(target)
		if err != nil || u.Hostname() == "" {
			return nil, nil, &Error{Kind: ErrUnconfigured, Detail: "the route's base_url is not a valid URL"}
		}
		port := u.Port()
		if port == "" {
			port = map[string]string{"https": "443"}[u.Scheme]
			if port == "" {
				port = "80"
			}
		}
		if err := t.checkNet(net.JoinHostPort(u.Hostname(), port)); err != nil {
			return nil, nil, &Error{Kind: ErrAuthorityDenied, Detail: "network access to " + u.Hostname() + " is not granted (--allow-net)"}
		}
	}
	var key string
	if t.keyEnv != "" {
		v, ok := t.getenv(t.keyEnv)
		if !ok || strings.TrimSpace(v) == "" {
			return nil, nil, &Error{Kind: ErrAuthorityDenied, Detail: "credential variable " + t.keyEnv + " is not set"}
		}
		key = strings.TrimSpace(v)
		redact.Credential(key) // never persisted, whatever echoes it
	}
	cctx, cancel := context.WithTimeout(ctx, t.timeout)
	req, err := http.NewRequestWithContext(cctx, http.MethodPost, target, bytes.NewReader(p.Body))
	if err != nil {
		cancel()
		return nil, nil, &Error{Kind: ErrUnconfigured, Detail: "the route's base_url is not a valid URL"}
	}
	req.GetBody = nil // nothing may resend this body
	req.Header.Set("Content-Type", "application/json")
	if stream {
		req.Header.Set("Accept", "text/event-stream")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	for k, v := range p.Headers {
		req.Header.Set(k, v)
	}
	if key != "" {
		switch p.Auth {
		case AuthAPIKeyHdr:
			req.Header.Set("x-api-key", key)
		default:
			req.Header.Set("Authorization", "Bearer "+key)
		}
	}
	resp, err := t.client.Do(req)
	if err != nil {
		cancel()
		return nil, nil, t.failureIn(ctx, cctx, err, 1)
	}
	return resp, cancel, nil
}

// failure types an error that happened outside the timeout context.
func (t *Transport) failure(ctx context.Context, err error, attempts int) *Error {
	return t.failureIn(ctx, ctx, err, attempts)
}

// failureIn types err: the caller's cancellation and deadline first, then
// the route's timeout, then transport failures. Error texts from net/http
// name the URL, so none is kept.
func (t *Transport) failureIn(parent, inner context.Context, err error, attempts int) *Error {
	switch {
	case errors.Is(parent.Err(), context.Canceled):
		return &Error{Kind: ErrCancelled, Attempts: attempts, Detail: "the caller cancelled the request"}
	case errors.Is(parent.Err(), context.DeadlineExceeded):
		return &Error{Kind: ErrDeadline, Attempts: attempts, Detail: "the caller's deadline passed"}
	case errors.Is(inner.Err(), context.DeadlineExceeded):
		return &Error{Kind: ErrTimeout, Attempts: attempts, Detail: "no complete response within " + t.timeout.String()}
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &Error{Kind: ErrTimeout, Attempts: attempts, Detail: "no complete response within " + t.timeout.String()}
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return &Error{Kind: ErrTransport, Attempts: attempts, Detail: "could not connect to the provider"}
	}
	return &Error{Kind: ErrTransport, Attempts: attempts, Detail: "the request failed in transport"}
}

// classify returns nil for a 2xx response and the typed error otherwise.
func classify(resp *http.Response, body []byte) *Error {
	status := resp.StatusCode
	if status >= 200 && status <= 299 {
		return nil
	}
	code, message := errorCode(body)
	e := &Error{Status: status, Attempts: 1, Code: safeCode(code)}
	lower := strings.ToLower(message)
	switch {
	case status >= 300 && status <= 399:
		e.Kind, e.Detail = ErrRedirect, "the provider answered with a redirect, which is not followed"
	case status == 429:
		e.Kind, e.Detail = ErrRateLimited, "the provider rate-limited the request"
		e.RetryAfterMS = retryAfter(resp.Header)
	case status == 529 || status == 503:
		e.Kind, e.Detail = ErrOverloaded, "the provider is overloaded"
	case status == 401 || status == 403:
		e.Kind, e.Detail = ErrAuthorityDenied, "the provider refused the credential"
	case status == 413 || contextCodes[code] ||
		strings.Contains(lower, "prompt is too long") || strings.Contains(lower, "context length") ||
		strings.Contains(lower, "maximum context"):
		e.Kind, e.Detail = ErrContextWindow, "the provider reports the input exceeds its window"
	default:
		e.Kind, e.Detail = ErrStatus, "the provider returned an error status"
	}
	return e
}

var contextCodes = map[string]bool{
	"context_length_exceeded": true, "max_tokens_exceeded": true,
	"string_above_max_length": true, "request_too_large": true,
}

// errorCode reads {"error": {"code"|"type", "message"}} (OpenAI, Anthropic,
// OpenRouter, gateways) or {"error": "text"}.
func errorCode(body []byte) (code, message string) {
	var doc struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &doc) != nil || len(doc.Error) == 0 {
		return "", ""
	}
	var e struct {
		Code    any    `json:"code"`
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	if json.Unmarshal(doc.Error, &e) != nil {
		var s string
		_ = json.Unmarshal(doc.Error, &s)
		return "", s
	}
	if c, ok := e.Code.(string); ok && c != "" {
		return c, e.Message
	}
	return e.Type, e.Message
}

// retryAfter reads retry-after-ms, then Retry-After (seconds or date).
func retryAfter(h http.Header) *int64 {
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && f < 1e12 {
			ms := int64(f)
			return &ms
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return nil
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && f < 1e9 {
		ms := int64(f * 1000)
		return &ms
	}
	if t, err := http.ParseTime(v); err == nil {
		ms := max(time.Until(t).Milliseconds(), 0)
		return &ms
	}
	return nil
}
