package harn

import (
	"strconv"
	"strings"
	"time"
)

// Clock and timer builtins. Dates are UTC unless a zone is given.

func installTime(lib *Library) {
	lib.Builtin("timestamp", func(c *Call, args []Value) (Value, error) {
		if wall, _, ok := c.mockedNow(); ok {
			return Float(float64(wall) / 1000), nil
		}
		return Float(float64(c.th.in.host.Now().UnixMilli()) / 1000), nil
	})
	lib.Builtin("now_ms", func(c *Call, args []Value) (Value, error) {
		if wall, _, ok := c.mockedNow(); ok {
			return Int(wall), nil
		}
		return Int(c.th.in.host.Now().UnixMilli()), nil
	})
	mono := func(c *Call, args []Value) (Value, error) {
		if _, m, ok := c.mockedNow(); ok {
			return Int(m), nil
		}
		return Int(c.th.in.host.Monotonic().Milliseconds()), nil
	}
	lib.Builtin("monotonic_ms", mono)
	lib.Builtin("elapsed", mono)
	sleep := func(c *Call, ms int64) (Value, error) {
		if ms <= 0 {
			return Nil, nil
		}
		if cs := clockOf(c); true {
			cs.mu.Lock()
			if cs.mocked {
				cs.wallMs += ms
				cs.monoMs += ms
				cs.mu.Unlock()
				return Nil, nil
			}
			cs.mu.Unlock()
		}
		var err error
		c.Block(func() { err = c.th.in.host.Sleep(c.th.ctx, time.Duration(ms)*time.Millisecond) })
		if err != nil {
			if lerr := c.th.checkLimits(); lerr != nil {
				return Nil, lerr
			}
			return Nil, plainError("Deadline exceeded")
		}
		return Nil, nil
	}
	lib.Builtin("sleep", func(c *Call, args []Value) (Value, error) {
		ms, _ := DurationMillis(Arg(args, 0))
		return sleep(c, ms)
	})
	lib.Builtin("sleep_ms", func(c *Call, args []Value) (Value, error) { return sleep(c, IntArg(Arg(args, 0), 0)) })
	dur := func(name string, unit int64) {
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			f, ok := Arg(args, 0).Number()
			if !ok {
				return Nil, typeError("%s: expected a number", name)
			}
			return DurationValue(int64(f * float64(unit))), nil
		})
	}
	dur("duration_ms", 1)
	dur("duration_seconds", 1000)
	dur("duration_minutes", 60_000)
	dur("duration_hours", 3_600_000)
	dur("duration_days", 86_400_000)
	lib.Builtin("duration_to_seconds", func(c *Call, args []Value) (Value, error) {
		ms, _ := DurationMillis(Arg(args, 0))
		return Int(ms / 1000), nil
	})
	lib.Builtin("duration_to_human", func(c *Call, args []Value) (Value, error) {
		ms, _ := DurationMillis(Arg(args, 0))
		return Str(humanDuration(ms)), nil
	})
	lib.Builtin("date_iso", func(c *Call, args []Value) (Value, error) {
		return Str(c.th.in.host.Now().UTC().Format("2006-01-02T15:04:05.000Z")), nil
	})
	// Timers read the wall clock in milliseconds, as upstream does: a
	// timer's start_ms is a Unix time, and the mocked clock moves it.
	wallMs := func(c *Call) int64 {
		if wall, _, ok := c.mockedNow(); ok {
			return wall
		}
		return c.th.in.host.Now().UnixMilli()
	}
	lib.Builtin("timer_start", func(c *Call, args []Value) (Value, error) {
		name := "default"
		if len(args) > 0 {
			name = Display(args[0])
		}
		d := NewDict(2)
		d.Set("name", Str(name))
		d.Set("start_ms", Int(wallMs(c)))
		return DictValue(d), nil
	})
	lib.Builtin("timer_end", func(c *Call, args []Value) (Value, error) {
		t := Arg(args, 0)
		if t.k != KindDict {
			return Nil, throwValue(Str("timer_end: argument must be a timer dict from timer_start"))
		}
		now := wallMs(c)
		start, ok := t.r.(*Dict).Get("start_ms")
		if !ok || start.k != KindInt {
			start = Int(now)
		}
		el := now - start.AsInt()
		name, _ := t.r.(*Dict).Get("name")
		if err := c.print("[timer] " + Display(name) + ": " + strconv.FormatInt(el, 10) + "ms\n"); err != nil {
			return Nil, err
		}
		return Int(el), nil
	})
}

// humanDuration renders milliseconds as up to three units ("3h 14m").
func humanDuration(ms int64) string {
	if ms == 0 {
		return "0s"
	}
	sign := ""
	rem := uint64(ms)
	if ms < 0 {
		sign, rem = "-", uint64(-ms)
	}
	var parts []string
	for _, u := range []struct {
		label string
		size  uint64
	}{{"d", 86_400_000}, {"h", 3_600_000}, {"m", 60_000}, {"s", 1000}, {"ms", 1}} {
		if n := rem / u.size; n > 0 {
			parts = append(parts, strconv.FormatUint(n, 10)+u.label)
			rem %= u.size
		}
		if len(parts) == 3 {
			break
		}
	}
	return sign + strings.Join(parts, " ")
}
