package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/leia/ai"
	"github.com/harnlang/harn-check/runtime/llm"
)

// The eval module exists only inside cases run by the harness:
//
//	eval.case(id, fn)            runs fn as a subcase: true, nil or false, message (never raises)
//	eval.metric(name, value)     records a metric on the active subcase (or the case); true
//	eval.load_jsonl(path)        the rows of a JSON-lines file next to the program
//	eval.skip_if(cond, reason?)  marks the active subcase skipped when cond is truthy; the bool
//	eval.fail_if(cond, msg?)     raises msg when cond is truthy; false otherwise
//	eval.usage()                 this case's model usage {turns, tokens, input_tokens, ...}
//	eval.budget(limits)          raises when usage exceeds a positive limit (turns, tokens, cost, calls)
//	eval.judge(opts)             one bounded llm.turn (max_tokens 200 unless set)

// DefaultJudgeMaxTokens bounds eval.judge's turn when opts sets none.
const DefaultJudgeMaxTokens = 200

// MaxJSONLLine bounds one line of eval.load_jsonl.
const MaxJSONLLine = 4 << 20

type collector struct {
	rt      *ai.Runtime
	host    *host.Host
	dir     string
	now     func() time.Time
	metrics []Metric
	subs    []Subcase
	active  []int
}

func newCollector(rt *ai.Runtime, h *host.Host, dir string, now func() time.Time) *collector {
	return &collector{rt: rt, host: h, dir: dir, now: now}
}

func (c *collector) module() *leia.Table {
	m := leia.NewTable(0, 8)
	set := func(name string, fn leia.NativeFunc) { m.SetStr(name, leia.NewNative("eval."+name, fn)) }
	set("metric", c.metric)
	set("case", c.caseFn)
	set("load_jsonl", c.loadJSONL)
	set("skip_if", c.skipIf)
	set("fail_if", c.failIf)
	set("usage", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		u := usageOf(c.rt.Usage())
		return t.Ret1(ai.T("turns", u.Turns, "tokens", u.Tokens, "input_tokens", u.InputTokens, "output_tokens", u.OutputTokens,
			"cost", u.Cost, "stream_events", u.StreamEvents, "tool_calls", u.ToolCalls)), nil
	})
	set("budget", c.budget)
	set("judge", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if leia.Arg(a, 0).Table() == nil {
			return nil, fmt.Errorf("bad argument #1 to 'eval.judge' (table expected)")
		}
		req := ai.Clone(a[0])
		if req.GetStr("max_tokens").IsNil() {
			req.SetStr("max_tokens", leia.Int(DefaultJudgeMaxTokens))
		}
		res, e, err := c.rt.Turn(t, leia.TableValue(req))
		if err != nil {
			return nil, err
		}
		return t.Ret2(res, e), nil
	})
	return m
}

func usageOf(u ai.Usage) Usage {
	return Usage{Turns: u.Turns, Tokens: u.InputTokens + u.OutputTokens, InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		Cost: u.Cost, StreamEvents: u.StreamEvents, ToolCalls: u.ToolCalls}
}

func (c *collector) metric(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
	if leia.Arg(a, 0).Kind() != leia.KindString || len(a) < 2 {
		return nil, fmt.Errorf("bad argument to 'eval.metric' (name, value expected)")
	}
	m := Metric{Name: a[0].AsString()}
	switch v := a[1]; v.Kind() {
	case leia.KindNil:
		m.Type = "nil"
	case leia.KindBool:
		m.Type, m.Value = "bool", v.AsBool()
	case leia.KindInt:
		m.Type, m.Value = "number", v.AsInt()
	case leia.KindFloat:
		m.Type, m.Value = "number", v.AsFloat()
	case leia.KindString:
		m.Type, m.Value = "string", v.AsString()
	default:
		m.Type, m.Value = v.TypeName(), llm.NormalizeValue(ai.ToGo(v))
	}
	if n := len(c.active); n > 0 {
		s := &c.subs[c.active[n-1]]
		s.Metrics = append(s.Metrics, m)
	} else {
		c.metrics = append(c.metrics, m)
	}
	return t.Ret1(leia.True), nil
}

// caseFn runs one subcase. Errors that stop the program (cancellation,
// exit, an exhausted budget) are not subcase failures: they propagate.
func (c *collector) caseFn(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
	if leia.Arg(a, 0).Kind() == leia.KindNil || !leia.Arg(a, 1).IsFunction() {
		return nil, fmt.Errorf("bad argument to 'eval.case' (id, function expected)")
	}
	start := c.now()
	idx := len(c.subs)
	c.subs = append(c.subs, Subcase{CaseID: t.ToString(a[0]), Status: "running", StartedAt: stamp(start), Metrics: []Metric{}, Diagnostics: []Diagnostic{}})
	c.active = append(c.active, idx)
	_, perr := t.PCall(a[1])
	c.active = c.active[:len(c.active)-1]
	s := &c.subs[idx]
	s.DurationMS = c.now().Sub(start).Milliseconds()
	if perr != nil {
		switch perr.Kind {
		case leia.KindCancelled, leia.KindExit, leia.KindBudget:
			return nil, perr
		}
	}
	if s.Status == "skipped" {
		return t.Ret2(leia.True, leia.Nil), nil
	}
	if perr != nil {
		s.Status = "failed"
		s.Diagnostics = append(s.Diagnostics, Diagnostic{Kind: "runtime_error", Severity: "error", Message: perr.Error()})
		return t.Ret2(leia.False, leia.String(perr.Error())), nil
	}
	s.Status = "passed"
	return t.Ret2(leia.True, leia.Nil), nil
}

func (c *collector) skipIf(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
	if len(a) < 1 {
		return nil, fmt.Errorf("bad argument to 'eval.skip_if' (condition expected)")
	}
	if !a[0].Truthy() {
		return t.Ret1(leia.False), nil
	}
	reason := "skipped"
	if r := leia.Arg(a, 1); r.Kind() == leia.KindString {
		reason = r.AsString()
	}
	if n := len(c.active); n > 0 {
		s := &c.subs[c.active[n-1]]
		s.Status = "skipped"
		s.Diagnostics = append(s.Diagnostics, Diagnostic{Kind: "skipped", Severity: "info", Message: reason})
	}
	return t.Ret1(leia.True), nil
}

func (c *collector) failIf(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
	if len(a) < 1 {
		return nil, fmt.Errorf("bad argument to 'eval.fail_if' (condition expected)")
	}
	if !a[0].Truthy() {
		return t.Ret1(leia.False), nil
	}
	msg := "eval.fail_if condition failed"
	if m := leia.Arg(a, 1); m.Kind() == leia.KindString {
		msg = m.AsString()
	}
	return nil, leia.ScriptError(leia.String(msg))
}

func (c *collector) budget(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
	lim := leia.Arg(a, 0)
	if lim.Table() == nil {
		return nil, fmt.Errorf("bad argument #1 to 'eval.budget' (limits table expected)")
	}
	u := usageOf(c.rt.Usage())
	check := func(name string, used float64) error {
		v := ai.Field(lim, name)
		if !v.IsNumber() || v.AsFloat() <= 0 || used <= v.AsFloat() {
			return nil
		}
		return leia.ScriptError(ai.ErrorWith("budget", fmt.Sprintf("eval.budget exceeded: %s %s > %s", name, fmtNum(used), leia.FormatNumber(v)),
			"dimension", name))
	}
	for _, d := range []struct {
		name string
		used float64
	}{{"turns", float64(u.Turns)}, {"tokens", float64(u.Tokens)}, {"cost", u.Cost}, {"money", u.Cost}, {"calls", float64(u.ToolCalls)}, {"stream_events", float64(u.StreamEvents)}} {
		if err := check(d.name, d.used); err != nil {
			return nil, err
		}
	}
	return t.Ret1(leia.True), nil
}

func fmtNum(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprint(int64(f))
	}
	return fmt.Sprint(f)
}

// loadJSONL reads rows relative to the program's folder, through the
// host (the program's file-system confinement applies).
func (c *collector) loadJSONL(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
	if leia.Arg(a, 0).Kind() != leia.KindString {
		return nil, fmt.Errorf("bad argument to 'eval.load_jsonl' (path expected)")
	}
	// The host resolves a relative path against the program's folder.
	data, err := c.host.ReadFile(a[0].AsString())
	if err != nil {
		return nil, fmt.Errorf("eval.load_jsonl: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), MaxJSONLLine)
	var rows []leia.Value
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("eval.load_jsonl: %s:%d: %v", a[0].AsString(), line, err)
		}
		rows = append(rows, ai.FromGo(llm.NormalizeValue(v)))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval.load_jsonl: %s: %v", a[0].AsString(), err)
	}
	return t.Ret1(ai.List(rows...)), nil
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
