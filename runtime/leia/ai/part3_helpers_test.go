package ai

import (
	"github.com/harnlang/harn-check/runtime/execution"

	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Test helpers of the part-3 families (workflows, retrieval, sections,
// outcomes, envelopes, trace helpers): a script3 provider that records
// every request, a trace sink that records every event, and a runner
// that executes a Leia source with the AI layer installed.

// script3 answers turns from a fixed list and records the requests; a
// turn past the end is an error (so a test sees unexpected calls).
type script3 struct {
	mu       sync.Mutex
	results  []llm.TurnResult
	requests []llm.TurnRequest
}

func (s *script3) Turn(_ context.Context, req llm.TurnRequest, _ func(llm.StreamEvent)) (llm.TurnResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	if len(s.requests) > len(s.results) {
		return llm.TurnResult{}, &llm.Error{Kind: llm.ErrTransport, Detail: "script3 provider: no more results"}
	}
	return s.results[len(s.requests)-1], nil
}

func answers(texts ...string) *script3 {
	s := &script3{}
	for _, t := range texts {
		s.results = append(s.results, llm.TurnResult{Status: llm.StatusFinalAnswer, Text: t})
	}
	return s
}

// traceLog records host trace events.
type traceLog struct {
	mu     sync.Mutex
	events []llm.TraceEvent
}

func (l *traceLog) Emit(ev llm.TraceEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, ev)
}

// fixedNow is the clock of test hosts.
var fixedNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

type run3Result struct {
	out    string
	err    error
	trace  *traceLog
	interp *leia.Interp
}

// run3 runs src with the AI layer on provider p (nil: no provider)
// and a host whose clock is fixed.
func run3(t *testing.T, src string, p llm.Provider) run3Result {
	t.Helper()
	var out bytes.Buffer
	h, err := host.New(host.Config{Root: t.TempDir(), Now: func() time.Time { return fixedNow }, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	in := leia.New(leia.Options{Stdout: &out, Stderr: &out, Host: h, Limits: execution.Limits{Steps: 50_000_000}})
	log := &traceLog{}
	Install(in, Config{Provider: p, Trace: log, Source: "mock", Host: h})
	chunk, err := in.Compile("test.leia", []byte(src))
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = in.Run(ctx, chunk)
	return run3Result{out: out.String(), err: err, trace: log, interp: in}
}

// mustRun3 runs src and fails the test on a run error.
func mustRun3(t *testing.T, src string, p llm.Provider) run3Result {
	t.Helper()
	r := run3(t, src, p)
	if r.err != nil {
		msg := r.err.Error()
		if e, ok := r.err.(*leia.Error); ok {
			msg = e.Format()
		}
		t.Fatalf("run failed: %s\noutput:\n%s", msg, r.out)
	}
	return r
}

// lines are the printed lines.
func (r run3Result) lines() []string {
	s := strings.TrimRight(r.out, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
