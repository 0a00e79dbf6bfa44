package leia

// The debug module (tracebacks, call-stack inspection, hooks) and the
// globals sleep and dofile.

import (
	"fmt"
	"path/filepath"
	goruntime "runtime"
)

// openDebug installs debug (tracebacks and call-stack inspection).
func openDebug(in *Interp) {
	newModule(in, "debug", map[string]NativeFunc{
		"traceback": func(t *Thread, a []Value) ([]Value, error) {
			msg := ""
			if m := Arg(a, 0); m.k == KindString {
				msg = m.AsString() + "\n"
			} else if m.k != KindNil {
				return t.Ret1(m), nil
			}
			e := &Error{}
			t.locate(e, -1)
			return t.Ret1(String(msg + e.TracebackText())), nil
		},
		"getinfo": func(t *Thread, a []Value) ([]Value, error) {
			r := NewTable(0, 4)
			if f := Arg(a, 0); f.k == KindFunction {
				p := f.closure().proto
				line, _ := p.chunk.position(int(p.pos))
				r.SetStr("source", String(p.chunk.Name))
				r.SetStr("short_src", String(p.chunk.Name))
				r.SetStr("linedefined", Int(int64(line)))
				r.SetStr("what", String("Leia"))
				r.SetStr("nparams", Int(int64(p.nparams)))
				r.SetStr("isvararg", Bool(p.variadic))
				if p.Name != "" {
					r.SetStr("name", String(p.Name))
				}
				return t.Ret1(TableValue(r)), nil
			}
			if f := Arg(a, 0); f.k == KindNative {
				r.SetStr("what", String("Go"))
				r.SetStr("source", String("=[Go]"))
				r.SetStr("name", String(f.Native().Name))
				return t.Ret1(TableValue(r)), nil
			}
			level, _ := toInteger(Arg(a, 0))
			d := t.depth - int(level) + 1
			if d < 1 || d > t.depth {
				return t.Ret1(Nil), nil
			}
			fr := t.frames[d]
			p := fr.cl.proto
			r.SetStr("source", String(p.chunk.Name))
			r.SetStr("short_src", String(p.chunk.Name))
			if fr.callPos >= 0 {
				line, _ := p.chunk.position(int(fr.callPos))
				r.SetStr("currentline", Int(int64(line)))
			}
			if p.Name != "" {
				r.SetStr("name", String(p.Name))
			}
			r.SetStr("what", String("Leia"))
			return t.Ret1(TableValue(r)), nil
		},
		"getmetatable": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(TableValue(t.in.metaOf(Arg(a, 0)))), nil
		},
		// stack lists the active Leia calls, outermost first.
		"stack": func(t *Thread, a []Value) ([]Value, error) {
			out := NewTable(t.depth, 0)
			for d := 1; d <= t.depth; d++ {
				out.Append(TableValue(frameInfo(t, d)))
			}
			return t.Ret1(TableValue(out)), nil
		},
		// info(level) describes the level-th active function (0: the
		// caller of info); info(f) describes a function.
		"info": func(t *Thread, a []Value) ([]Value, error) {
			if f := Arg(a, 0); f.IsFunction() {
				return t.Ret1(TableValue(debugFuncInfo(f))), nil
			}
			level, _ := toInteger(Arg(a, 0))
			d := t.depth - int(level)
			if d < 1 || d > t.depth {
				return t.Ret1(Nil), nil
			}
			return t.Ret1(TableValue(frameInfo(t, d))), nil
		},
		"setHook": func(t *Thread, a []Value) ([]Value, error) {
			if v := Arg(a, 0); v.k != KindNil && !v.IsFunction() {
				return nil, typeError(0, "setHook", "function or nil", v)
			}
			t.in.hook = Arg(a, 0)
			return nil, nil
		},
		"getHook": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(t.in.hook), nil },
		"setSink": func(t *Thread, a []Value) ([]Value, error) {
			if v := Arg(a, 0); v.k != KindNil && !v.IsFunction() {
				return nil, typeError(0, "setSink", "function or nil", v)
			}
			t.in.sink = Arg(a, 0)
			return nil, nil
		},
		// emit reports a named event to the hook and the sink.
		"emit": func(t *Thread, a []Value) ([]Value, error) {
			name, err := CheckString(a, 0, "emit")
			if err != nil {
				return nil, err
			}
			t.fireHook("emit", "event", name)
			if t.in.sink.k != KindNil {
				e := NewTable(0, 2)
				e.SetStr("event", String(name))
				e.SetStr("data", Arg(a, 1))
				t.Call(t.in.sink, TableValue(e))
			}
			return nil, nil
		},
		"value": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(TableValue(describeValue(t, Arg(a, 0)))), nil
		},
		// globals is the table of global variables itself.
		"globals": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(TableValue(t.in.globals)), nil
		},
		// goStack is the Go stack of the running goroutine (for
		// debugging the runtime itself), at most 64 KiB.
		"goStack": func(t *Thread, a []Value) ([]Value, error) {
			buf := make([]byte, 64<<10)
			return t.Ret1(String(string(buf[:goruntime.Stack(buf, false)]))), nil
		},
	})
}

// openSleepDofile installs the globals sleep and dofile.
func openSleepDofile(in *Interp) {
	in.Register("sleep", func(t *Thread, a []Value) ([]Value, error) {
		s, err := OptFloat(a, 0, "sleep", 0)
		if err != nil {
			return nil, err
		}
		t.sleep(secondsDuration(s), -1)
		return nil, nil
	})
	in.Register("dofile", func(t *Thread, a []Value) ([]Value, error) {
		p, err := CheckString(a, 0, "dofile")
		if err != nil {
			return nil, err
		}
		if !filepath.IsAbs(p) && t.in.scriptDir != "" {
			p = filepath.Join(t.in.scriptDir, p)
		}
		p = t.in.resolvePath(p)
		h, herr := t.in.host()
		if herr != nil {
			return nil, herr
		}
		src, rerr := h.ReadFile(p)
		if rerr != nil {
			return nil, rerr
		}
		chunk, cerr := t.in.Compile(p, src)
		if cerr != nil {
			return nil, cerr
		}
		return t.Call(closureValue(&Closure{proto: chunk.main})), nil
	})
}

// frameInfo describes active frame d: the function's name, where it is
// defined (line, column) and where it is now (currentLine).
func frameInfo(t *Thread, d int) *Table {
	fr := t.frames[d]
	r := debugFuncInfo(closureValue(fr.cl))
	pos := fr.callPos
	if pos >= 0 {
		line, col := fr.cl.proto.chunk.position(int(pos))
		r.SetStr("currentLine", Int(int64(line)))
		r.SetStr("currentColumn", Int(int64(col)))
		r.SetStr("currentline", Int(int64(line)))
	}
	return r
}

func debugFuncInfo(f Value) *Table {
	r := NewTable(0, 8)
	if f.k == KindNative {
		r.SetStr("what", String("Go"))
		r.SetStr("source", String("=[Go]"))
		r.SetStr("sourceName", String("=[Go]"))
		r.SetStr("name", String(f.Native().Name))
		r.SetStr("kind", String("go"))
		r.SetStr("identity", String(fmt.Sprintf("native:%p", f.p)))
		return r
	}
	p := f.closure().proto
	r.SetStr("kind", String("script"))
	r.SetStr("identity", String(fmt.Sprintf("%s:%d:%p", p.chunk.Name, p.pos, p)))
	line, col := p.chunk.position(int(p.pos))
	r.SetStr("what", String("Leia"))
	r.SetStr("source", String(p.chunk.Name))
	r.SetStr("sourceName", String(p.chunk.Name))
	r.SetStr("short_src", String(p.chunk.Name))
	r.SetStr("line", Int(int64(line)))
	r.SetStr("linedefined", Int(int64(line)))
	r.SetStr("column", Int(int64(col)))
	r.SetStr("nparams", Int(int64(p.nparams)))
	r.SetStr("isvararg", Bool(p.variadic))
	name := p.Name
	if name == "" {
		name = "?"
	}
	r.SetStr("name", String(name))
	return r
}
