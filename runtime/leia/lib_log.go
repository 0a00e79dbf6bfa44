package leia

// The log module: levelled logging to the interpreter's error stream,
// with a history a program can read back.

import (
	"fmt"
	"strings"
	"time"
)

// openLog installs log: levelled messages to standard error, kept in a
// history the program can read (log.history, log.count, log.clear).
func openLog(in *Interp) {
	names := []string{"DEBUG", "INFO", "WARN", "ERROR", "FATAL"}
	level, prefix := int64(1), ""
	showLevel, timestamp := true, true
	var history []string
	format := func(t *Thread, lv int64, a []Value) string {
		var parts []string
		if showLevel && lv >= 0 && lv < int64(len(names)) {
			parts = append(parts, "["+names[lv]+"]")
		}
		if prefix != "" {
			parts = append(parts, prefix)
		}
		for _, v := range a {
			parts = append(parts, t.tostring(v, -1))
		}
		return strings.Join(parts, " ")
	}
	write := func(lv int64) NativeFunc {
		return func(t *Thread, a []Value) ([]Value, error) {
			if lv < level {
				return nil, nil
			}
			line := format(t, lv, a)
			if len(history) < 10000 {
				history = append(history, line)
			}
			out := line
			if timestamp {
				out = time.Now().Format("2006-01-02T15:04:05 ") + line
			}
			t.in.outMu.Lock()
			fmt.Fprintln(t.in.stderr, out)
			t.in.outMu.Unlock()
			return nil, nil
		}
	}
	m := newModule(in, "log", map[string]NativeFunc{
		"debug": write(0), "info": write(1), "warn": write(2), "error": write(3), "fatal": write(4),
		"format": func(t *Thread, a []Value) ([]Value, error) {
			lv, err := CheckInt(a, 0, "format")
			if err != nil {
				return nil, err
			}
			return t.Ret1(String(format(t, lv, a[1:]))), nil
		},
		"setLevel": func(t *Thread, a []Value) ([]Value, error) {
			if s := Arg(a, 0); s.k == KindString {
				for i, n := range names {
					if strings.EqualFold(n, s.AsString()) {
						level = int64(i)
						return nil, nil
					}
				}
				return nil, ArgError(0, "setLevel", "unknown level '"+s.AsString()+"'")
			}
			lv, err := CheckInt(a, 0, "setLevel")
			if err != nil {
				return nil, err
			}
			level = lv
			return nil, nil
		},
		"getLevel": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Int(level)), nil },
		"setPrefix": func(t *Thread, a []Value) ([]Value, error) {
			p, err := OptString(a, 0, "setPrefix", "")
			prefix = p
			return nil, err
		},
		"setShowLevel": func(t *Thread, a []Value) ([]Value, error) { showLevel = Arg(a, 0).Truthy(); return nil, nil },
		"setTimestamp": func(t *Thread, a []Value) ([]Value, error) { timestamp = Arg(a, 0).Truthy(); return nil, nil },
		"history": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(FromGo(append([]string(nil), history...))), nil
		},
		"count": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Int(int64(len(history)))), nil },
		"clear": func(t *Thread, a []Value) ([]Value, error) { history = nil; return nil, nil },
	})
	for i, n := range names {
		m.SetStr(n, Int(int64(i)))
	}
}
