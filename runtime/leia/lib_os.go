package leia

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

var processStart = time.Now()

func openOS(in *Interp) {
	o := in.moduleTable("os", 16)
	reg := func(name string, fn NativeFunc) { o.SetStr(name, NewNative(name, fn)) }
	reg("time", func(t *Thread, a []Value) ([]Value, error) {
		if tb := Arg(a, 0).Table(); tb != nil {
			get := func(k string, def int64) int64 {
				if v, ok := toInteger(tb.GetStr(k)); ok {
					return v
				}
				return def
			}
			tm := time.Date(int(get("year", 1970)), time.Month(get("month", 1)), int(get("day", 1)), int(get("hour", 12)), int(get("min", 0)), int(get("sec", 0)), 0, time.Local)
			return t.Ret1(Int(tm.Unix())), nil
		}
		return t.Ret1(Int(time.Now().Unix())), nil
	})
	reg("clock", func(t *Thread, a []Value) ([]Value, error) {
		return t.Ret1(Float(time.Since(processStart).Seconds())), nil
	})
	reg("date", osDate)
	difftimeSpec := specOf("os.difftime")
	reg("difftime", func(t *Thread, a []Value) ([]Value, error) {
		var x, y float64
		if err := difftimeSpec.unpack(a, &x, &y); err != nil {
			return nil, err
		}
		return t.Ret1(Float(x - y)), nil
	})
	reg("exit", func(t *Thread, a []Value) ([]Value, error) {
		code := int64(0)
		switch v := Arg(a, 0); v.k {
		case KindBool:
			if !v.AsBool() {
				code = 1
			}
		case KindNil:
		default:
			c, err := CheckInt(a, 0, "exit")
			if err != nil {
				return nil, err
			}
			code = c
		}
		e := &Error{Kind: KindExit, Code: int(code), Message: fmt.Sprintf("exit %d", code)}
		e.Value = String(e.Message)
		return nil, e
	})
	getenvSpec := specOf("os.getenv")
	reg("getenv", func(t *Thread, a []Value) ([]Value, error) {
		var name string
		if err := getenvSpec.unpack(a, &name); err != nil {
			return nil, err
		}
		if t.in.opts.Host == nil {
			return t.Ret1(Nil), nil
		}
		v, ok := t.in.opts.Host.LookupEnv(name)
		if !ok {
			return t.Ret1(Nil), nil
		}
		return t.Ret1(String(v)), nil
	})
	in.registerLib("os", o)
}

var dateSpec = specOf("os.date")

func osDate(t *Thread, a []Value) ([]Value, error) {
	f := "%c"
	if err := dateSpec.unpack(a, &f); err != nil {
		return nil, err
	}
	tm := time.Now()
	if Arg(a, 1).k != KindNil {
		s, err := CheckInt(a, 1, "date")
		if err != nil {
			return nil, err
		}
		tm = time.Unix(s, 0)
	}
	if strings.HasPrefix(f, "!") {
		f = f[1:]
		tm = tm.UTC()
	}
	if strings.HasPrefix(f, "*t") {
		r := NewTable(0, 9)
		r.SetStr("year", Int(int64(tm.Year())))
		r.SetStr("month", Int(int64(tm.Month())))
		r.SetStr("day", Int(int64(tm.Day())))
		r.SetStr("hour", Int(int64(tm.Hour())))
		r.SetStr("min", Int(int64(tm.Minute())))
		r.SetStr("sec", Int(int64(tm.Second())))
		r.SetStr("wday", Int(int64(tm.Weekday())+1))
		r.SetStr("yday", Int(int64(tm.YearDay())))
		r.SetStr("isdst", False)
		return t.Ret1(TableValue(r)), nil
	}
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'Y':
			fmt.Fprintf(&b, "%04d", tm.Year())
		case 'y':
			fmt.Fprintf(&b, "%02d", tm.Year()%100)
		case 'm':
			fmt.Fprintf(&b, "%02d", int(tm.Month()))
		case 'd':
			fmt.Fprintf(&b, "%02d", tm.Day())
		case 'H':
			fmt.Fprintf(&b, "%02d", tm.Hour())
		case 'M':
			fmt.Fprintf(&b, "%02d", tm.Minute())
		case 'S':
			fmt.Fprintf(&b, "%02d", tm.Second())
		case 'p':
			if tm.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'A':
			b.WriteString(tm.Weekday().String())
		case 'a':
			b.WriteString(tm.Weekday().String()[:3])
		case 'B':
			b.WriteString(tm.Month().String())
		case 'b':
			b.WriteString(tm.Month().String()[:3])
		case 'c':
			b.WriteString(tm.Format("Mon Jan  2 15:04:05 2006"))
		case 'x':
			b.WriteString(tm.Format("01/02/06"))
		case 'X':
			b.WriteString(tm.Format("15:04:05"))
		case 'j':
			fmt.Fprintf(&b, "%03d", tm.YearDay())
		case 'Z':
			z, _ := tm.Zone()
			b.WriteString(z)
		case '%':
			b.WriteByte('%')
		default:
			return nil, ArgError(0, "date", fmt.Sprintf("invalid conversion specifier '%%%c'", f[i]))
		}
	}
	return t.Ret1(String(b.String())), nil
}

// openProcess installs process: the program's arguments, entry and
// exit; running other programs goes through the host (--allow-exec).
func openProcess(in *Interp) {
	// argTable is {[0] = program, arguments...}.
	argTable := func(in *Interp) *Table {
		args := in.procArgs
		if args == nil {
			args = append([]string{in.mainName}, in.opts.Args...)
		}
		t := NewTable(len(args), 1)
		for i, a := range args {
			if i == 0 {
				t.SetInt(0, String(a))
			} else {
				t.Append(String(a))
			}
		}
		return t
	}
	newModule(in, "process", map[string]NativeFunc{
		"args": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(TableValue(argTable(t.in))), nil
		},
		// setArgs(program, args...) replaces what args and entry report.
		"setArgs": func(t *Thread, a []Value) ([]Value, error) {
			if len(a) == 0 {
				return nil, ArgError(0, "setArgs", "program name expected")
			}
			args := make([]string, len(a))
			for i := range a {
				s, err := CheckString(a, i, "setArgs")
				if err != nil {
					return nil, err
				}
				args[i] = s
			}
			t.in.procArgs = args
			return nil, nil
		},
		// entry describes the program: file, args and its directory.
		"entry": func(t *Thread, a []Value) ([]Value, error) {
			args := argTable(t.in)
			file := args.GetInt(0)
			r := NewTable(0, 3)
			r.SetStr("file", file)
			r.SetStr("args", TableValue(args))
			dir := t.in.mainDir()
			if file.k == KindString && t.in.scriptDir == "" {
				dir = t.in.resolvePath(filepath.Dir(file.AsString()))
			}
			r.SetStr("dir", String(dir))
			return t.Ret1(TableValue(r)), nil
		},
		// exit(code) stops the program with code (true = 0, false = 1); a
		// pcall catches it as the error "process exit <code>".
		"exit": func(t *Thread, a []Value) ([]Value, error) {
			var code int64
			switch v := Arg(a, 0); {
			case v.k == KindNil:
			case v.k == KindBool:
				if !v.Truthy() {
					code = 1
				}
			default:
				n, err := CheckInt(a, 0, "exit")
				if err != nil {
					return nil, err
				}
				code = n
			}
			e := &Error{Kind: KindProcessExit, Code: int(code), Message: fmt.Sprintf("process exit %d", code)}
			e.Value = String(e.Message)
			return nil, e
		},
		"pid": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Int(int64(os.Getpid()))), nil },
	})
}
