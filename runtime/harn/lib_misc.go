package harn

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Smaller builtin families: progress lines, UUID variants, seeded
// generators, the mock clock, terminal colours, log levels, JSON pointer
// updates, parallel_race.

// clockState is the mock clock (mock_time): when set, now_ms, timestamp
// and monotonic_ms read it and sleeps advance it instantly.
type clockState struct {
	mu      sync.Mutex
	mocked  bool
	wallMs  int64
	monoMs  int64
	color   string // "auto", "always", "never"
	minLog  int
	spanSeq int
	spans   []string // trace ids of the open spans, innermost last
}

func clockOf(c *Call) *clockState {
	return c.Interp().State("clock", func() any { return &clockState{color: "auto"} }).(*clockState)
}

// mockedNow returns the mocked wall and monotonic milliseconds.
func (c *Call) mockedNow() (wall, mono int64, ok bool) {
	cs := clockOf(c)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.wallMs, cs.monoMs, cs.mocked
}

type rngHandle struct {
	mu sync.Mutex
	r  *rand.Rand
}

var uuidNamespaces = map[string]string{
	"dns": "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "url": "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
	"oid": "6ba7b812-9dad-11d1-80b4-00c04fd430c8", "x500": "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
}

func uuidBytes(s string) ([]byte, bool) {
	h := strings.ReplaceAll(strings.ToLower(s), "-", "")
	b, err := hex.DecodeString(h)
	return b, err == nil && len(b) == 16
}

func installMisc(lib *Library) {
	lib.Builtin("progress", func(c *Call, args []Value) (Value, error) {
		phase, msg := Display(Arg(args, 0)), Display(Arg(args, 1))
		if o := Arg(args, 2); o.k == KindDict {
			d := o.r.(*Dict)
			geti := func(k string) (int64, bool) {
				if v, ok := d.Get(k); ok && v.k == KindInt {
					return int64(v.n), true
				}
				return 0, false
			}
			switch OptStr(d, "mode") {
			case "spinner":
				step, ok := geti("step")
				if !ok {
					step, _ = geti("current")
				}
				frame := [...]string{"|", "/", "-", "\\"}[((step%4)+4)%4]
				return Nil, c.print("[" + phase + "] " + frame + " " + msg + "\n")
			case "bar":
				cur, _ := geti("current")
				total, _ := geti("total")
				width, ok := geti("width")
				if !ok {
					width = 10
				}
				width = clampInt(width, 3, 40)
				bar := strings.Repeat("-", int(width))
				if total > 0 {
					filled := int64(float64(clampInt(cur, 0, total))/float64(total)*float64(width) + 0.5)
					filled = min(filled, width)
					bar = strings.Repeat("#", int(filled)) + strings.Repeat("-", int(width-filled))
				}
				return Nil, c.print("[" + phase + "] [" + bar + "] " + msg + " (" + itoa(cur) + "/" + itoa(total) + ")\n")
			}
		}
		p, t := Arg(args, 2), Arg(args, 3)
		switch {
		case p.k == KindInt && t.k == KindInt:
			return Nil, c.print("[" + phase + "] " + msg + " (" + itoa(int64(p.n)) + "/" + itoa(int64(t.n)) + ")\n")
		case p.k == KindInt:
			return Nil, c.print("[" + phase + "] " + msg + " (" + itoa(int64(p.n)) + "%)\n")
		}
		return Nil, c.print("[" + phase + "] " + msg + "\n")
	})
	lib.Builtin("uuid_v7", func(c *Call, args []Value) (Value, error) {
		b := c.th.in.host.SecureBytes(16)
		ms := uint64(c.th.in.host.Now().UnixMilli())
		var ts [8]byte
		binary.BigEndian.PutUint64(ts[:], ms)
		copy(b[:6], ts[2:])
		b[6] = b[6]&0x0f | 0x70
		b[8] = b[8]&0x3f | 0x80
		return Str(formatUUID(b)), nil
	})
	lib.Builtin("uuid_v5", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, runtimeError("uuid_v5(namespace, name): requires namespace and name")
		}
		ns := Display(args[0])
		if v, ok := uuidNamespaces[strings.TrimPrefix(strings.ToLower(ns), "namespace_")]; ok {
			ns = v
		}
		nb, ok := uuidBytes(ns)
		if !ok {
			return Nil, runtimeError("uuid_v5: namespace must be a UUID or one of dns/url/oid/x500")
		}
		h := sha1.New()
		h.Write(nb)
		h.Write([]byte(Display(args[1])))
		b := h.Sum(nil)[:16]
		b[6] = b[6]&0x0f | 0x50
		b[8] = b[8]&0x3f | 0x80
		return Str(formatUUID(b)), nil
	})
	lib.Builtin("rng_seed", func(c *Call, args []Value) (Value, error) {
		seed := uint64(IntArg(Arg(args, 0), 0))
		var s [32]byte
		binary.LittleEndian.PutUint64(s[:], seed)
		return Value{k: KindObject, r: &Object{TypeName: "rng", Data: &rngHandle{r: rand.New(rand.NewChaCha8(s))}}}, nil
	})
	// random, random_int, random_choice and random_shuffle take an
	// optional seeded generator first.
	rngArg := func(args []Value) (*rngHandle, []Value) {
		if len(args) > 0 && args[0].k == KindObject {
			if h, ok := args[0].r.(*Object).Data.(*rngHandle); ok {
				return h, args[1:]
			}
		}
		return nil, args
	}
	intn := func(c *Call, h *rngHandle, n int64) int64 {
		if h == nil {
			return c.th.in.host.IntN(n)
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.r.Int64N(n)
	}
	lib.Builtin("random", func(c *Call, args []Value) (Value, error) {
		if h, _ := rngArg(args); h != nil {
			h.mu.Lock()
			defer h.mu.Unlock()
			return Float(h.r.Float64()), nil
		}
		return Float(c.th.in.host.Float64()), nil
	})
	lib.Builtin("random_int", func(c *Call, args []Value) (Value, error) {
		h, rest := rngArg(args)
		lo, hi := IntArg(Arg(rest, 0), 0), IntArg(Arg(rest, 1), 0)
		if len(rest) == 1 {
			lo, hi = 0, lo
		}
		if hi < lo {
			return Nil, nil
		}
		return Int(lo + intn(c, h, hi-lo+1)), nil
	})
	lib.Builtin("random_choice", func(c *Call, args []Value) (Value, error) {
		h, rest := rngArg(args)
		items, err := c.th.collect(Arg(rest, 0))
		if err != nil || len(items) == 0 {
			return Nil, err
		}
		return items[intn(c, h, int64(len(items)))], nil
	})
	lib.Builtin("random_shuffle", func(c *Call, args []Value) (Value, error) {
		h, rest := rngArg(args)
		items, err := c.th.collect(Arg(rest, 0))
		if err != nil {
			return Nil, err
		}
		out := append([]Value(nil), items...)
		for i := len(out) - 1; i > 0; i-- {
			j := intn(c, h, int64(i+1))
			out[i], out[j] = out[j], out[i]
		}
		return NewListValue(out), nil
	})
	lib.Builtin("mock_time", func(c *Call, args []Value) (Value, error) {
		cs := clockOf(c)
		cs.mu.Lock()
		cs.mocked, cs.wallMs, cs.monoMs = true, IntArg(Arg(args, 0), 0), 0
		cs.mu.Unlock()
		return Nil, nil
	})
	lib.Builtin("advance_time", func(c *Call, args []Value) (Value, error) {
		cs := clockOf(c)
		cs.mu.Lock()
		defer cs.mu.Unlock()
		d, _ := DurationMillis(Arg(args, 0))
		cs.wallMs += d
		cs.monoMs += d
		return Int(cs.wallMs), nil
	})
	lib.Builtin("unmock_time", func(c *Call, args []Value) (Value, error) {
		cs := clockOf(c)
		cs.mu.Lock()
		cs.mocked = false
		cs.mu.Unlock()
		return Nil, nil
	})
	lib.Builtin("set_color_mode", func(c *Call, args []Value) (Value, error) {
		m := Display(Arg(args, 0))
		if m != "auto" && m != "always" && m != "never" {
			return Nil, runtimeError("set_color_mode: mode must be auto, always or never")
		}
		cs := clockOf(c)
		cs.mu.Lock()
		cs.color = m
		cs.mu.Unlock()
		return Nil, nil
	})
	ansi := map[string]string{"black": "30", "red": "31", "green": "32", "yellow": "33", "blue": "34",
		"magenta": "35", "cyan": "36", "white": "37", "gray": "90", "grey": "90", "bold": "1", "dim": "2"}
	paint := func(c *Call, text, code string) string {
		cs := clockOf(c)
		cs.mu.Lock()
		mode := cs.color
		cs.mu.Unlock()
		if mode != "always" || code == "" {
			return text
		}
		return "\x1b[" + code + "m" + text + "\x1b[0m"
	}
	lib.Builtin("color", func(c *Call, args []Value) (Value, error) {
		return Str(paint(c, Display(Arg(args, 0)), ansi[strings.ToLower(Display(Arg(args, 1)))])), nil
	})
	lib.Builtin("bold", func(c *Call, args []Value) (Value, error) { return Str(paint(c, Display(Arg(args, 0)), "1")), nil })
	lib.Builtin("dim", func(c *Call, args []Value) (Value, error) { return Str(paint(c, Display(Arg(args, 0)), "2")), nil })
	levels := map[string]int{"debug": 0, "info": 1, "warn": 2, "warning": 2, "error": 3}
	lib.Builtin("log_set_level", func(c *Call, args []Value) (Value, error) {
		l, ok := levels[strings.ToLower(Display(Arg(args, 0)))]
		if !ok {
			return Nil, runtimeError("log_set_level: level must be debug, info, warn or error")
		}
		cs := clockOf(c)
		cs.mu.Lock()
		cs.minLog = l
		cs.mu.Unlock()
		return Nil, nil
	})
	for name, lvl := range map[string]int{"log_debug": 0, "log_info": 1, "log_warn": 2, "log_error": 3} {
		level := strings.TrimPrefix(name, "log_")
		lv := lvl
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			cs := clockOf(c)
			cs.mu.Lock()
			minLog := cs.minLog
			cs.mu.Unlock()
			if lv < minLog {
				return Nil, nil
			}
			var b strings.Builder
			b.WriteString(`{"ts":`)
			writeJSONString(&b, c.th.in.host.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
			b.WriteString(`,"level":`)
			writeJSONString(&b, level)
			b.WriteString(`,"msg":`)
			writeJSONString(&b, Display(Arg(args, 0)))
			if f := Arg(args, 1); f.k == KindDict {
				for _, k := range f.r.(*Dict).Keys() {
					b.WriteByte(',')
					writeJSONString(&b, k)
					b.WriteByte(':')
					writeJSON(&b, f.r.(*Dict).m[k], 0)
				}
			}
			b.WriteString("}\n")
			return Nil, c.print(b.String())
		})
	}
	// Spans: trace_start opens one (a trace per outermost span),
	// trace_end closes it; trace_id names the innermost open span's trace.
	lib.Builtin("trace_start", func(c *Call, args []Value) (Value, error) {
		cs := clockOf(c)
		cs.mu.Lock()
		defer cs.mu.Unlock()
		cs.spanSeq++
		trace := "trace-" + strconv.Itoa(cs.spanSeq)
		if n := len(cs.spans); n > 0 {
			trace = cs.spans[n-1]
		}
		d := NewDict(4)
		d.Set("name", Str(Display(Arg(args, 0))))
		d.Set("trace_id", Str(trace))
		d.Set("span_id", Str("span-"+strconv.Itoa(cs.spanSeq)))
		d.Set("start_ms", Int(c.th.in.host.Monotonic().Milliseconds()))
		cs.spans = append(cs.spans, trace)
		return DictValue(d), nil
	})
	lib.Builtin("trace_end", func(c *Call, args []Value) (Value, error) {
		cs := clockOf(c)
		cs.mu.Lock()
		defer cs.mu.Unlock()
		if n := len(cs.spans); n > 0 {
			cs.spans = cs.spans[:n-1]
		}
		return Nil, nil
	})
	lib.Builtin("trace_id", func(c *Call, args []Value) (Value, error) {
		cs := clockOf(c)
		cs.mu.Lock()
		defer cs.mu.Unlock()
		if n := len(cs.spans); n > 0 {
			return Str(cs.spans[n-1]), nil
		}
		return Nil, nil
	})
	lib.Builtin("json_pointer_set", func(c *Call, args []Value) (Value, error) {
		return pointerUpdate(Arg(args, 0), pointerTokens(Display(Arg(args, 1))), Arg(args, 2), false, 0)
	})
	lib.Builtin("json_pointer_delete", func(c *Call, args []Value) (Value, error) {
		return pointerUpdate(Arg(args, 0), pointerTokens(Display(Arg(args, 1))), Nil, true, 0)
	})
	lib.Builtin("parallel_race", func(c *Call, args []Value) (Value, error) {
		items, err := c.th.collect(Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		fn, err := argCallable(c, args, 1)
		if err != nil {
			return Nil, err
		}
		if len(items) == 0 {
			return Nil, throwValue(Str("parallel_race: no items"))
		}
		th := c.th
		group := th.task.childID("parallel")
		done := make(chan int, len(items))
		tasks := make([]*Task, len(items))
		for i, it := range items {
			item, idx := it, i
			var err error
			tasks[i], err = th.spawnTask(group+":"+strconv.Itoa(i), "parallel", group, func(child *thread) (Value, error) {
				defer func() { done <- idx }()
				return child.callValue(fn, []Value{item})
			})
			if err != nil {
				return Nil, err
			}
		}
		var failures []Value
		for range items {
			var idx int
			th.wait("parallel_race's first success", func() {
				select {
				case idx = <-done:
				case <-th.ctx.Done():
					idx = -1
				}
			})
			if idx < 0 {
				return Nil, th.checkLimits()
			}
			t := tasks[idx]
			if t.err == nil && !isResult(t.result, "Err") {
				for _, o := range tasks {
					if o != t {
						o.cancel()
					}
				}
				if isResult(t.result, "Ok") {
					return resultPayload(t.result), nil
				}
				return t.result, nil
			}
			if t.err != nil {
				failures = append(failures, Str(asError(t.err).Message()))
			} else {
				failures = append(failures, resultPayload(t.result))
			}
		}
		d := NewDict(2)
		d.Set("message", Str("parallel_race: every task failed"))
		d.Set("errors", NewListValue(failures))
		return Nil, throwValue(DictValue(d))
	})
}

// pointerUpdate returns v with the JSON pointer target set (or deleted).
func pointerUpdate(v Value, toks []string, nv Value, del bool, depth int) (Value, error) {
	if len(toks) == 0 {
		if del {
			return Nil, nil
		}
		return nv, nil
	}
	if depth > maxValueDepth {
		return Nil, runtimeError("json pointer too deep")
	}
	tok := toks[0]
	switch v.k {
	case KindDict:
		d := v.r.(*Dict).clone()
		if len(toks) == 1 && del {
			d.Delete(tok)
			return DictValue(d), nil
		}
		child, _ := d.raw(tok)
		if child.k == KindNil && len(toks) > 1 {
			child = DictValue(NewDict(0))
		}
		nc, err := pointerUpdate(child, toks[1:], nv, del, depth+1)
		if err != nil {
			return Nil, err
		}
		d.Set(tok, nc)
		return DictValue(d), nil
	case KindList:
		items := append([]Value(nil), v.r.(*List).items...)
		shareAll(items)
		if tok == "-" && len(toks) == 1 && !del {
			return NewListValue(append(items, nv)), nil
		}
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(items) {
			return Nil, throwValue(Str("json pointer: index " + tok + " out of range"))
		}
		if len(toks) == 1 && del {
			return NewListValue(append(items[:i], items[i+1:]...)), nil
		}
		nc, err := pointerUpdate(items[i], toks[1:], nv, del, depth+1)
		if err != nil {
			return Nil, err
		}
		items[i] = nc
		return NewListValue(items), nil
	}
	return Nil, throwValue(Str("json pointer: cannot descend into " + v.TypeName()))
}

var _ = time.Millisecond
