package dates

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // IANA zones even where the system has none

	"github.com/harnlang/harn-check/runtime/harn"
)

// Date builtins. A date is a Unix timestamp in seconds (an int when whole,
// a float otherwise) or a dict with a timestamp field; zones are IANA
// names. Formats use strftime directives (%Y %m %d %H %M %S %3f %z %:z
// %Z %A %B %j %s ...).

func dateErr(format string, a ...any) error {
	return harn.ThrowValue(harn.Str(fmt.Sprintf(format, a...)))
}

// timeOf reads a timestamp argument.
func timeOf(v harn.Value, name string) (time.Time, error) {
	switch v.Kind() {
	case harn.KindDict:
		ts, _ := v.AsDict().Get("timestamp")
		return timeOf(ts, name)
	case harn.KindInt:
		return time.Unix(v.AsInt(), 0).UTC(), nil
	case harn.KindFloat:
		f := v.AsFloat()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return time.Time{}, dateErr("%s: timestamp must be finite", name)
		}
		micros := math.Round(f * 1e6)
		if math.Abs(micros) > 9e18 {
			return time.Time{}, dateErr("%s: timestamp out of range", name)
		}
		m := int64(micros)
		secs, rem := m/1_000_000, m%1_000_000
		if rem < 0 {
			secs--
			rem += 1_000_000
		}
		return time.Unix(secs, rem*1000).UTC(), nil
	case harn.KindNil:
		return time.Time{}, dateErr("%s: missing timestamp argument", name)
	}
	return time.Time{}, dateErr("%s: expected timestamp number or date dict, got %s", name, v.TypeName())
}

func timestampValue(t time.Time) harn.Value {
	if t.Nanosecond() == 0 {
		return harn.Int(t.Unix())
	}
	return harn.Float(float64(t.Unix()) + float64(t.Nanosecond())/1e9)
}

func zoneOf(v harn.Value, name string) (*time.Location, error) {
	z := harn.Display(v)
	if z == "UTC" || z == "utc" || z == "Z" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(z)
	if err != nil || z == "" || z == "Local" {
		return nil, dateErr("%s: unknown timezone '%s'", name, z)
	}
	return loc, nil
}

// rfc3339 renders t like chrono's to_rfc3339: fractional seconds only when
// present (3, 6 or 9 digits), offsets as +00:00.
func rfc3339(t time.Time) string {
	frac := ""
	if ns := t.Nanosecond(); ns != 0 {
		switch {
		case ns%1_000_000 == 0:
			frac = fmt.Sprintf(".%03d", ns/1_000_000)
		case ns%1000 == 0:
			frac = fmt.Sprintf(".%06d", ns/1000)
		default:
			frac = fmt.Sprintf(".%09d", ns)
		}
	}
	return t.Format("2006-01-02T15:04:05") + frac + t.Format("-07:00")
}

// strftime formats t with strftime/chrono directives.
func strftime(t time.Time, f string) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' || i+1 >= len(f) {
			b.WriteByte(c)
			continue
		}
		i++
		d := f[i]
		// %3f %6f %9f %.3f %.f %:z
		if d == '.' || d >= '1' && d <= '9' {
			j := i
			if f[j] == '.' {
				j++
			}
			digits := 0
			if j < len(f) && f[j] >= '1' && f[j] <= '9' {
				digits = int(f[j] - '0')
				j++
			}
			if j < len(f) && f[j] == 'f' {
				ns := fmt.Sprintf("%09d", t.Nanosecond())
				if digits == 0 {
					digits = 9
				}
				if d == '.' {
					b.WriteByte('.')
				}
				b.WriteString(ns[:digits])
				i = j
				continue
			}
		}
		if d == ':' && i+1 < len(f) && f[i+1] == 'z' {
			b.WriteString(t.Format("-07:00"))
			i++
			continue
		}
		switch d {
		case 'Y':
			b.WriteString(strconv.Itoa(t.Year()))
		case 'C':
			fmt.Fprintf(&b, "%02d", t.Year()/100)
		case 'y':
			fmt.Fprintf(&b, "%02d", t.Year()%100)
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'e':
			fmt.Fprintf(&b, "%2d", t.Day())
		case 'H':
			fmt.Fprintf(&b, "%02d", t.Hour())
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			fmt.Fprintf(&b, "%02d", h)
		case 'M':
			fmt.Fprintf(&b, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&b, "%02d", t.Second())
		case 'f':
			fmt.Fprintf(&b, "%09d", t.Nanosecond())
		case 'p':
			if t.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'A':
			b.WriteString(t.Weekday().String())
		case 'a':
			b.WriteString(t.Weekday().String()[:3])
		case 'B':
			b.WriteString(t.Month().String())
		case 'b', 'h':
			b.WriteString(t.Month().String()[:3])
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case 'u':
			w := int(t.Weekday())
			if w == 0 {
				w = 7
			}
			b.WriteString(strconv.Itoa(w))
		case 'w':
			b.WriteString(strconv.Itoa(int(t.Weekday())))
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'D':
			b.WriteString(t.Format("01/02/06"))
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'R':
			b.WriteString(t.Format("15:04"))
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(d)
		}
	}
	return b.String()
}

// parseDate accepts RFC 3339, "Y-m-d H:M:S[.f]", "Y-m-dTH:M[:S]", "Y-m-d"
// and, as a last resort, the first runs of digits as Y M D h m s.
func parseDate(in string) (time.Time, error) {
	s := strings.TrimSpace(in)
	if s == "" {
		return time.Time{}, dateErr("Cannot parse date: ")
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, nil
		}
	}
	var parts []int64
	cur := ""
	flush := func() {
		if cur != "" {
			n, _ := strconv.ParseInt(cur, 10, 64)
			parts = append(parts, n)
			cur = ""
		}
	}
	for _, r := range s {
		if r >= '0' && r <= '9' {
			cur += string(r)
		} else {
			flush()
		}
	}
	flush()
	if len(parts) < 3 {
		return time.Time{}, dateErr("Cannot parse date: %s", in)
	}
	for len(parts) < 6 {
		parts = append(parts, 0)
	}
	y, mo, d, h, mi, se := parts[0], parts[1], parts[2], parts[3], parts[4], parts[5]
	switch {
	case mo < 1 || mo > 12:
		return time.Time{}, dateErr("Invalid month: %d (must be 1-12)", mo)
	case d < 1 || d > 31:
		return time.Time{}, dateErr("Invalid day: %d (must be 1-31)", d)
	case h > 23:
		return time.Time{}, dateErr("Invalid hour: %d (must be 0-23)", h)
	case mi > 59:
		return time.Time{}, dateErr("Invalid minute: %d (must be 0-59)", mi)
	case se > 59:
		return time.Time{}, dateErr("Invalid second: %d (must be 0-59)", se)
	}
	t := time.Date(int(y), time.Month(mo), int(d), int(h), int(mi), int(se), 0, time.UTC)
	if t.Day() != int(d) {
		return time.Time{}, dateErr("Invalid date: %04d-%02d-%02d", y, mo, d)
	}
	return t, nil
}

func dateDict(t time.Time, zone string) harn.Value {
	d := harn.NewDict(10)
	d.Set("year", harn.Int(int64(t.Year())))
	d.Set("month", harn.Int(int64(t.Month())))
	d.Set("day", harn.Int(int64(t.Day())))
	d.Set("hour", harn.Int(int64(t.Hour())))
	d.Set("minute", harn.Int(int64(t.Minute())))
	d.Set("second", harn.Int(int64(t.Second())))
	d.Set("weekday", harn.Int(int64(t.Weekday())))
	if zone != "" {
		_, off := t.Zone()
		d.Set("offset_seconds", harn.Int(int64(off)))
		d.Set("timestamp", timestampValue(t))
		d.Set("iso8601", harn.Str(rfc3339(t)))
		d.Set("zone", harn.Str(zone))
	}
	return harn.DictValue(d)
}

func install(lib *harn.Library) {
	lib.Builtin("date_now", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		now := c.Interp().Host().Now().UTC()
		d := dateDict(now, "").AsDict()
		d.Set("timestamp", harn.Float(float64(now.UnixMilli())/1000))
		d.Set("iso8601", harn.Str(now.Format("2006-01-02T15:04:05.000Z")))
		return harn.DictValue(d), nil
	})
	lib.Builtin("date_now_iso", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		return harn.Str(c.Interp().Host().Now().UTC().Format("2006-01-02T15:04:05.000Z")), nil
	})
	lib.Builtin("date_parse", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		t, err := parseDate(harn.Display(harn.Arg(args, 0)))
		if err != nil {
			return harn.Nil, err
		}
		return timestampValue(t), nil
	})
	lib.Builtin("date_format", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		t, err := timeOf(harn.Arg(args, 0), "date_format")
		if err != nil {
			return harn.Nil, err
		}
		f := "%Y-%m-%d %H:%M:%S"
		if len(args) > 1 && args[1].Kind() != harn.KindNil {
			f = harn.Display(args[1])
		}
		if len(args) > 2 && args[2].Kind() != harn.KindNil {
			loc, err := zoneOf(args[2], "date_format")
			if err != nil {
				return harn.Nil, err
			}
			t = t.In(loc)
		}
		return harn.Str(strftime(t, f)), nil
	})
	lib.Builtin("date_in_zone", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		t, err := timeOf(harn.Arg(args, 0), "date_in_zone")
		if err != nil {
			return harn.Nil, err
		}
		loc, err := zoneOf(harn.Arg(args, 1), "date_in_zone")
		if err != nil {
			return harn.Nil, err
		}
		return dateDict(t.In(loc), harn.Display(harn.Arg(args, 1))), nil
	})
	lib.Builtin("date_to_zone", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		t, err := timeOf(harn.Arg(args, 0), "date_to_zone")
		if err != nil {
			return harn.Nil, err
		}
		loc, err := zoneOf(harn.Arg(args, 1), "date_to_zone")
		if err != nil {
			return harn.Nil, err
		}
		return harn.Str(rfc3339(t.In(loc))), nil
	})
	lib.Builtin("date_from_components", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		comp := harn.Arg(args, 0)
		if comp.Kind() != harn.KindDict {
			return harn.Nil, dateErr("date_from_components: expected dict, got %s", comp.TypeName())
		}
		loc := time.UTC
		if len(args) > 1 && args[1].Kind() != harn.KindNil {
			l, err := zoneOf(args[1], "date_from_components")
			if err != nil {
				return harn.Nil, err
			}
			loc = l
		}
		get := func(k string, def int64) int64 {
			if v, ok := comp.AsDict().Get(k); ok && v.Kind() == harn.KindInt {
				return v.AsInt()
			}
			return def
		}
		t := time.Date(int(get("year", 1970)), time.Month(get("month", 1)), int(get("day", 1)),
			int(get("hour", 0)), int(get("minute", 0)), int(get("second", 0)), int(get("millisecond", 0))*1_000_000, loc)
		return timestampValue(t.UTC()), nil
	})
	lib.Builtin("date_add", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		t, err := timeOf(harn.Arg(args, 0), "date_add")
		if err != nil {
			return harn.Nil, err
		}
		ms, ok := harn.DurationMillis(harn.Arg(args, 1))
		if !ok {
			return harn.Nil, dateErr("date_add: expected a duration, got %s", harn.Arg(args, 1).TypeName())
		}
		millis := t.UnixMilli() + ms
		if millis%1000 == 0 {
			return harn.Int(millis / 1000), nil
		}
		return harn.Float(float64(millis) / 1000), nil
	})
	lib.Builtin("date_diff", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		a, err := timeOf(harn.Arg(args, 0), "date_diff")
		if err != nil {
			return harn.Nil, err
		}
		b, err := timeOf(harn.Arg(args, 1), "date_diff")
		if err != nil {
			return harn.Nil, err
		}
		return harn.DurationValue(a.UnixMilli() - b.UnixMilli()), nil
	})
	named := func(name, layout string) {
		lib.Builtin(name, func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			t, err := timeOf(harn.Arg(args, 0), name)
			if err != nil {
				return harn.Nil, err
			}
			if len(args) > 1 && args[1].Kind() != harn.KindNil {
				loc, err := zoneOf(args[1], name)
				if err != nil {
					return harn.Nil, err
				}
				t = t.In(loc)
			}
			return harn.Str(strftime(t, layout)), nil
		})
	}
	named("weekday_name", "%A")
	named("month_name", "%B")
}
