package harn

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/harnlang/harn-check/catalog"
)

// Runtime tracing (enable_tracing, trace_spans, trace_summary): while it
// is on, calls of program functions, model calls, parallel blocks and
// spawned tasks are recorded as spans {span_id, parent_id, kind, name,
// start_ms, duration_ms}. A span's parent is the innermost span open
// when it started, across the run's tasks. Turning tracing on clears
// what was recorded. When it is off the cost is one atomic load per call.

type vmSpan struct {
	id, parent      int64
	kind, name      string
	start, duration time.Duration
}

type vmTracer struct {
	mu     sync.Mutex
	epoch  time.Time
	next   int64
	active []int64
	open   map[int64]*vmSpan
	done   []*vmSpan
}

func (in *Interp) tracer() *vmTracer {
	return in.State("vmtrace", func() any { return &vmTracer{next: 1, open: map[int64]*vmSpan{}, epoch: time.Now()} }).(*vmTracer)
}

// spanStart opens a span when tracing is on; it returns 0 otherwise.
func (in *Interp) spanStart(kind, name string) int64 {
	if !in.tracing.Load() {
		return 0
	}
	t := in.tracer()
	t.mu.Lock()
	defer t.mu.Unlock()
	s := &vmSpan{id: t.next, kind: kind, name: name, start: time.Since(t.epoch)}
	t.next++
	if n := len(t.active); n > 0 {
		s.parent = t.active[n-1]
	}
	t.open[s.id] = s
	t.active = append(t.active, s.id)
	return s.id
}

// spanEnd closes a span spanStart opened (0 is ignored).
func (in *Interp) spanEnd(id int64) {
	if id == 0 {
		return
	}
	t := in.tracer()
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.open[id]
	if !ok {
		return
	}
	delete(t.open, id)
	s.duration = time.Since(t.epoch) - s.start
	t.done = append(t.done, s)
	for i := len(t.active) - 1; i >= 0; i-- {
		if t.active[i] == id {
			t.active = append(t.active[:i], t.active[i+1:]...)
			break
		}
	}
}

func (s *vmSpan) value() Value {
	d := NewDict(6)
	d.Set("span_id", Int(s.id))
	if s.parent != 0 {
		d.Set("parent_id", Int(s.parent))
	} else {
		d.Set("parent_id", Nil)
	}
	d.Set("kind", Str(s.kind))
	d.Set("name", Str(s.name))
	d.Set("start_ms", Int(s.start.Milliseconds()))
	d.Set("duration_ms", Int(s.duration.Milliseconds()))
	return DictValue(d)
}

// summary is the span tree as text: a header line, then one line per span
// indented under its parent.
func (t *vmTracer) summary() string {
	if len(t.done) == 0 {
		return "No spans recorded."
	}
	var total int64
	children := map[int64][]*vmSpan{}
	for _, s := range t.done {
		if s.parent == 0 {
			total += s.duration.Milliseconds()
		}
		children[s.parent] = append(children[s.parent], s)
	}
	lines := []string{fmt.Sprintf("Trace: %d spans, %dms total", len(t.done), total), ""}
	var walk func(parent int64, depth int)
	walk = func(parent int64, depth int) {
		if depth > maxValueDepth {
			return
		}
		for _, s := range children[parent] {
			lines = append(lines, fmt.Sprintf("%s%s %s %dms", strings.Repeat("  ", depth), s.kind, s.name, s.duration.Milliseconds()))
			walk(s.id, depth+1)
		}
	}
	walk(0, 0)
	return strings.Join(lines, "\n")
}

func installVmtrace(lib *Library) {
	lib.Builtin("enable_tracing", func(c *Call, args []Value) (Value, error) {
		on := true
		if v := Arg(args, 0); v.k == KindBool {
			on = v.AsBool()
		}
		in := c.th.in
		if on {
			t := in.tracer()
			t.mu.Lock()
			t.next, t.active, t.open, t.done, t.epoch = 1, nil, map[int64]*vmSpan{}, nil, time.Now()
			t.mu.Unlock()
		}
		in.tracing.Store(on)
		return Nil, nil
	})
	lib.Builtin("trace_spans", func(c *Call, args []Value) (Value, error) {
		t := c.th.in.tracer()
		t.mu.Lock()
		defer t.mu.Unlock()
		out := make([]Value, len(t.done))
		for i, s := range t.done {
			out[i] = s.value()
		}
		return NewListValue(out), nil
	})
	lib.Builtin("trace_summary", func(c *Call, args []Value) (Value, error) {
		t := c.th.in.tracer()
		t.mu.Lock()
		defer t.mu.Unlock()
		return Str(t.summary()), nil
	})
	lib.Builtin("llm_info", func(c *Call, args []Value) (Value, error) {
		h := c.th.in.host
		model, _ := h.LookupEnv("HARN_LLM_MODEL")
		provider, _ := h.LookupEnv("HARN_LLM_PROVIDER")
		keyEnv := ""
		routes := catalog.Default().Routes()
		sort.SliceStable(routes, func(i, j int) bool { return routes[i].Name() < routes[j].Name() })
		for _, r := range routes {
			if (model != "" && (r.Model == model || r.Runtime.WireModel == model)) || (model == "" && provider != "" && r.Provider == provider) {
				if provider == "" {
					provider = r.Provider
				}
				if r.Provider == provider {
					keyEnv = r.Runtime.APIKeyEnv
					break
				}
			}
		}
		if provider == "" {
			provider = "mock"
		}
		keySet := false
		if keyEnv != "" {
			v, ok := h.LookupEnv(keyEnv)
			keySet = ok && v != ""
		}
		d := NewDict(3)
		d.Set("provider", Str(provider))
		d.Set("model", Str(model))
		d.Set("api_key_set", Bool(keySet))
		return DictValue(d), nil
	})
	lib.Builtin("llm_usage", func(c *Call, args []Value) (Value, error) {
		st := llmOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		d := NewDict(4)
		d.Set("input_tokens", Int(st.usage.input))
		d.Set("output_tokens", Int(st.usage.output))
		d.Set("total_duration_ms", Int(st.usage.durationMs))
		d.Set("call_count", Int(st.usage.calls))
		return DictValue(d), nil
	})
}
