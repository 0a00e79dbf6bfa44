package leia

import (
	"strings"
	"time"
)

// The time module works in seconds as floats: time.now() is the Unix time,
// time.since(t) the seconds elapsed since t, time.sleep(s) waits.
func openTime(in *Interp) {
	m := in.moduleTable("time", 12)
	reg := func(name string, fn NativeFunc) { m.SetStr(name, NewNative(name, fn)) }
	now := func() float64 { return float64(time.Now().UnixNano()) / 1e9 }
	reg("now", func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Float(now())), nil })
	// time.unix() is the current Unix time; time.unix(secs) the time
	// value (fields year, month, day, ... in UTC) of those seconds.
	reg("unix", func(t *Thread, a []Value) ([]Value, error) {
		if Arg(a, 0).k == KindNil {
			return t.Ret1(Int(time.Now().Unix())), nil
		}
		s, err := CheckFloat(a, 0, "unix")
		if err != nil {
			return nil, err
		}
		return t.Ret1(TableValue(timeFields(unixTime(s)))), nil
	})
	timeArg := func(a []Value, i int, name string) (time.Time, error) {
		s, ok := timeSeconds(Arg(a, i))
		if !ok {
			return time.Time{}, typeError(i, name, "time", Arg(a, i))
		}
		return unixTime(s), nil
	}
	reg("add", func(t *Thread, a []Value) ([]Value, error) {
		tm, err := timeArg(a, 0, "add")
		if err != nil {
			return nil, err
		}
		d, err := CheckFloat(a, 1, "add")
		if err != nil {
			return nil, err
		}
		return t.Ret1(TableValue(timeFields(tm.Add(secondsDuration(d) + negDuration(d))))), nil
	})
	reg("diff", func(t *Thread, a []Value) ([]Value, error) {
		x, err := timeArg(a, 0, "diff")
		if err != nil {
			return nil, err
		}
		y, err := timeArg(a, 1, "diff")
		if err != nil {
			return nil, err
		}
		return t.Ret1(numberValue(y.Sub(x).Seconds())), nil
	})
	reg("isBefore", func(t *Thread, a []Value) ([]Value, error) {
		x, err := timeArg(a, 0, "isBefore")
		if err != nil {
			return nil, err
		}
		y, err := timeArg(a, 1, "isBefore")
		return t.Ret1(Bool(x.Before(y))), err
	})
	reg("isAfter", func(t *Thread, a []Value) ([]Value, error) {
		x, err := timeArg(a, 0, "isAfter")
		if err != nil {
			return nil, err
		}
		y, err := timeArg(a, 1, "isAfter")
		return t.Ret1(Bool(x.After(y))), err
	})
	reg("weekday", func(t *Thread, a []Value) ([]Value, error) {
		x, err := timeArg(a, 0, "weekday")
		return t.Ret1(String(x.Weekday().String())), err
	})
	reg("month", func(t *Thread, a []Value) ([]Value, error) {
		x, err := timeArg(a, 0, "month")
		return t.Ret1(String(x.Month().String())), err
	})
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
		s := now()
		if v := Arg(a, 0); v.k != KindNil {
			x, ok := timeSeconds(v)
			if !ok {
				return nil, typeError(0, "format", "time", v)
			}
			s = x
		}
		layout, err := OptString(a, 1, "format", time.RFC3339)
		if err != nil {
			return nil, err
		}
		return t.Ret1(String(unixTime(s).Format(goLayout(layout)))), nil
	})
	// time.date(year, month, day, hour?, min?, sec?) is a Unix time (UTC).
	reg("date", func(t *Thread, a []Value) ([]Value, error) {
		var parts [6]int64
		for i := range parts {
			def := int64(0)
			if i == 1 || i == 2 {
				def = 1
			}
			v, err := OptInt(a, i, "date", def)
			if err != nil {
				return nil, err
			}
			parts[i] = v
		}
		tm := time.Date(int(parts[0]), time.Month(parts[1]), int(parts[2]), int(parts[3]), int(parts[4]), int(parts[5]), 0, time.UTC)
		return t.Ret1(Int(tm.Unix())), nil
	})
	// time.parse(text, layout?) gives the fields of the time (UTC), or nil
	// and an error.
	reg("parse", func(t *Thread, a []Value) ([]Value, error) {
		s, err := CheckString(a, 0, "parse")
		if err != nil {
			return nil, err
		}
		layout, err := OptString(a, 1, "parse", time.RFC3339)
		if err != nil {
			return nil, err
		}
		tm, perr := time.Parse(goLayout(layout), s)
		if perr != nil {
			return t.Ret2(Nil, String(perr.Error())), nil
		}
		return t.Ret1(TableValue(timeFields(tm))), nil
	})
	reg("fields", func(t *Thread, a []Value) ([]Value, error) {
		s, err := OptFloat(a, 0, "fields", now())
		if err != nil {
			return nil, err
		}
		return t.Ret1(TableValue(timeFields(unixTime(s)))), nil
	})
	// In a fixed order: the table's iteration order is its insertion order.
	for _, u := range [...]struct {
		name string
		secs float64
	}{{"NANOSECOND", 1e-9}, {"MICROSECOND", 1e-6}, {"MILLISECOND", 1e-3}, {"SECOND", 1}, {"MINUTE", 60}, {"HOUR", 3600}, {"DAY", 86400}, {"WEEK", 604800}} {
		m.SetStr(u.name, numberValue(u.secs))
	}
	in.registerLib("time", m)
}

// numberValue is an integer when f is integral, else a float.
func numberValue(f float64) Value {
	if f == float64(int64(f)) {
		return Int(int64(f))
	}
	return Float(f)
}

func negDuration(s float64) time.Duration {
	if s < 0 {
		return -secondsDuration(-s)
	}
	return 0
}

// goLayout turns a strftime-style format (%Y-%m-%d %H:%M:%S) into a Go
// time layout; a Go layout passes through unchanged.
func goLayout(f string) string {
	if !strings.Contains(f, "%") {
		return f
	}
	repl := map[byte]string{'Y': "2006", 'y': "06", 'm': "01", 'd': "02", 'e': "_2", 'H': "15", 'I': "03", 'M': "04", 'S': "05",
		'p': "PM", 'b': "Jan", 'B': "January", 'a': "Mon", 'A': "Monday", 'Z': "MST", 'z': "-0700", 'j': "002", 'f': "000000", '%': "%"}
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] == '%' && i+1 < len(f) {
			if r, ok := repl[f[i+1]]; ok {
				b.WriteString(r)
				i++
				continue
			}
		}
		b.WriteByte(f[i])
	}
	return b.String()
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

func unixTime(s float64) time.Time {
	sec := int64(s)
	return time.Unix(sec, int64((s-float64(sec))*1e9)).UTC()
}

// timeSeconds reads a time argument: Unix seconds, or a table from
// time.parse / time.fields (its unix field).
func timeSeconds(v Value) (float64, bool) {
	if n, ok := toNumber(v); ok {
		return n.AsFloat(), true
	}
	if t := v.Table(); t != nil {
		if u, ok := toNumber(t.GetStr("unix")); ok {
			return u.AsFloat(), true
		}
	}
	return 0, false
}

func timeFields(tm time.Time) *Table {
	r := NewTable(0, 10)
	r.SetStr("year", Int(int64(tm.Year())))
	r.SetStr("month", Int(int64(tm.Month())))
	r.SetStr("day", Int(int64(tm.Day())))
	r.SetStr("hour", Int(int64(tm.Hour())))
	r.SetStr("minute", Int(int64(tm.Minute())))
	r.SetStr("min", Int(int64(tm.Minute())))
	r.SetStr("second", Int(int64(tm.Second())))
	r.SetStr("sec", Int(int64(tm.Second())))
	r.SetStr("weekday", Int(int64(tm.Weekday())))
	r.SetStr("yday", Int(int64(tm.YearDay())))
	r.SetStr("unix", Int(tm.Unix()))
	return r
}
