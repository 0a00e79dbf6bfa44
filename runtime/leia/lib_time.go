package leia

import (
	"time"
)

// The time module works in seconds as floats: time.now() is the Unix time,
// time.since(t) the seconds elapsed since t, time.sleep(s) waits.
func openTime(in *Interp) {
	m := NewTable(0, 12)
	reg := func(name string, fn NativeFunc) { m.SetStr(name, NewNative(name, fn)) }
	now := func() float64 { return float64(time.Now().UnixNano()) / 1e9 }
	reg("now", func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Float(now())), nil })
	reg("unix", func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Int(time.Now().Unix())), nil })
	reg("unix_ms", func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Int(time.Now().UnixMilli())), nil })
	reg("millis", func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Int(time.Now().UnixMilli())), nil })
	reg("nanos", func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Int(time.Now().UnixNano())), nil })
	reg("since", func(t *Thread, a []Value) ([]Value, error) {
		t0, err := CheckFloat(a, 0, "since")
		if err != nil {
			return nil, err
		}
		return t.Ret1(Float(now() - t0)), nil
	})
	reg("clock", func(t *Thread, a []Value) ([]Value, error) {
		return t.Ret1(Float(time.Since(processStart).Seconds())), nil
	})
	reg("sleep", func(t *Thread, a []Value) ([]Value, error) {
		s, err := OptFloat(a, 0, "sleep", 0)
		if err != nil {
			return nil, err
		}
		t.sleep(secondsDuration(s), -1)
		return nil, nil
	})
	reg("after", func(t *Thread, a []Value) ([]Value, error) {
		s, err := OptFloat(a, 0, "after", 0)
		if err != nil {
			return nil, err
		}
		return t.Ret1(channelValue(t.after(secondsDuration(s)))), nil
	})
	reg("duration", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "duration")
		if err != nil {
			return nil, err
		}
		d, ok := parseDuration(s)
		if !ok {
			return t.Ret2(Nil, String("invalid duration "+s)), nil
		}
		return t.Ret1(Float(d)), nil
	})
	reg("format", func(t *Thread, a []Value) ([]Value, error) {
		s, err := OptFloat(a, 0, "format", now())
		if err != nil {
			return nil, err
		}
		layout, err := OptString(a, 1, "format", time.RFC3339)
		if err != nil {
			return nil, err
		}
		sec := int64(s)
		tm := time.Unix(sec, int64((s-float64(sec))*1e9)).UTC()
		return t.Ret1(String(tm.Format(layout))), nil
	})
	in.RegisterModule("time", m)
}

func secondsDuration(s float64) time.Duration {
	if s <= 0 || s != s {
		return 0
	}
	if s > 1e9 {
		s = 1e9
	}
	return time.Duration(s * float64(time.Second))
}

// parseDuration reads Go-style durations (250ms, 1h30m, 2.5s) and legacy
// suffix literals, in seconds; a bare number is seconds.
func parseDuration(s string) (float64, bool) {
	if d, err := time.ParseDuration(s); err == nil {
		return d.Seconds(), true
	}
	if n, ok := parseNumber(s); ok {
		return n.AsFloat(), true
	}
	// days
	if len(s) > 1 && s[len(s)-1] == 'd' {
		if n, ok := parseNumber(s[:len(s)-1]); ok {
			return n.AsFloat() * 86400, true
		}
	}
	return 0, false
}
