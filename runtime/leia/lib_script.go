package leia

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/internal/sourcefs"
)

// ModuleLoader finds the source of a module named by require or import.
// from is the requiring chunk's name. It returns fs.ErrNotExist (wrapped)
// when there is no such module.
type ModuleLoader func(from, name string) (path string, src []byte, err error)

// DirModules loads `name.leia` (dots and slashes as directories) from
// the directory of the requiring file, then from root; paths may not
// leave root.
func DirModules(root string) ModuleLoader {
	absRoot, _ := filepath.Abs(root)
	return func(from, name string) (string, []byte, error) {
		rel := name
		if !strings.HasPrefix(rel, "./") && !strings.HasPrefix(rel, "../") && !strings.Contains(rel, "/") {
			rel = strings.ReplaceAll(rel, ".", "/")
		}
		if i := strings.Index(rel, ":"); i >= 0 {
			rel = rel[:i] + "/" + rel[i+1:]
		}
		var dirs []string
		if from != "" {
			dirs = append(dirs, filepath.Dir(from))
		}
		dirs = append(dirs, absRoot)
		for _, d := range dirs {
			for _, cand := range []string{rel, rel + ".leia", rel + ".gs", filepath.Join(rel, "init.leia")} {
				p := filepath.Join(d, cand)
				ap, err := filepath.Abs(p)
				if err != nil || !sourcefs.Within(ap, absRoot) {
					continue
				}
				st, err := os.Stat(ap)
				if err != nil || st.IsDir() {
					continue
				}
				// The one boundary rule: a symbolic or hard link out of
				// the program's folder is not loaded.
				real, err := sourcefs.Inside(absRoot, ap)
				if err != nil {
					var out *sourcefs.OutsideError
					if errors.As(err, &out) {
						return "", nil, fmt.Errorf("module '%s' is not loaded: %s is %s of the program", name, p, out.Describe())
					}
					return "", nil, err
				}
				src, err := sourcefs.Read(real, 0)
				if err != nil {
					return "", nil, err
				}
				return p, src, nil
			}
		}
		return "", nil, fmt.Errorf("module '%s' not found: %w", name, fs.ErrNotExist)
	}
}

const maxRequireDepth = 64

func (th *Thread) require(name string, pos int32) Value {
	in := th.in
	if v := in.loaded.GetStr(name); v.k != KindNil {
		return v
	}
	if pre := in.globals.GetStr("package").Table().GetStr("preload"); pre.k == KindTable {
		if f := pre.Table().GetStr(name); f.k != KindNil {
			v := th.Call1(f, String(name))
			if v.k == KindNil {
				v = True
			}
			in.loaded.SetStr(name, v)
			return v
		}
	}
	if strings.HasPrefix(name, "go:") {
		if m, ok := in.opts.GoModules[name[3:]]; ok && m != nil {
			in.loaded.SetStr(name, TableValue(m))
			return TableValue(m)
		}
		panic(th.runtimeError(pos, "module '%s' is not allowed (go: modules must be registered by the host)", name))
	}
	if in.opts.Modules == nil {
		panic(th.runtimeError(pos, "module '%s' not found", name))
	}
	if in.requiring[name] {
		panic(th.runtimeError(pos, "loop while requiring module '%s'", name))
	}
	if len(in.requiring) >= maxRequireDepth {
		panic(th.runtimeError(pos, "modules nested too deeply (more than %d)", maxRequireDepth))
	}
	from := ""
	if fr := th.current(); fr.cl != nil {
		from = fr.cl.proto.chunk.Name
	}
	if in.scriptDir != "" {
		from = filepath.Join(in.scriptDir, "_")
	}
	path, src, err := in.opts.Modules(from, name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			panic(th.runtimeError(pos, "module '%s' not found", name))
		}
		panic(th.runtimeError(pos, "module '%s': %v", name, err))
	}
	// One file is one module, however it was named (a.b, a/b, ./a/b).
	key := path
	if abs, aerr := filepath.Abs(path); aerr == nil {
		key = abs
	}
	if v, ok := in.modules[key]; ok {
		in.loaded.SetStr(name, v)
		return v
	}
	chunk, cerr := in.compileSource(path, src, nil, false)
	if cerr != nil {
		panic(cerr)
	}
	in.requiring[name] = true
	defer delete(in.requiring, name)
	r := th.callAt(closureValue(&Closure{proto: chunk.main}), []Value{String(name)}, pos)
	v := True
	if len(r) > 0 && r[0].k != KindNil {
		v = r[0]
	}
	if cur := in.loaded.GetStr(name); cur.k != KindNil {
		v = cur
	}
	in.loaded.SetStr(name, v)
	in.modules[key] = v
	return v
}

// The script module compiles Leia source at run time.
func openScript(in *Interp) {
	s := NewTable(0, 4)
	compile := func(t *Thread, a []Value) ([]Value, error) {
		src, err := CheckString(a, 0, "compile")
		if err != nil {
			return nil, err
		}
		name := "script"
		var env *Table
		if o := Arg(a, 1); o.k == KindTable {
			env = o.Table().GetStr("env").Table()
			if n := o.Table().GetStr("sourceName"); n.k == KindString {
				name = n.AsString()
			} else if n := o.Table().GetStr("name"); n.k == KindString {
				name = n.AsString()
			}
		} else if o.k == KindString {
			name = o.AsString()
		}
		chunk, cerr := t.in.compileSource(name, []byte(src), env, true)
		if cerr != nil {
			return t.Ret2(Nil, cerr.(*Error).Value), nil
		}
		return t.Ret1(closureValue(&Closure{proto: chunk.main})), nil
	}
	// raising wraps a compile function so that a syntax error is raised
	// (script.compile, script.eval) instead of returned (load).
	raising := func(f NativeFunc) NativeFunc {
		return func(t *Thread, a []Value) ([]Value, error) {
			r, err := f(t, a)
			if err == nil && len(r) > 1 && r[0].k == KindNil {
				return nil, ScriptError(r[1])
			}
			return r, err
		}
	}
	// script.sandbox(t) makes an environment table: script.compile(src, box)
	// runs src with box as its globals.
	sandboxes := map[*Table]bool{}
	sandbox := NewNative("sandbox", func(t *Thread, a []Value) ([]Value, error) {
		env := NewTable(0, 8)
		if init := Arg(a, 0).Table(); init != nil {
			init.Iter(func(k, v Value) bool { env.Set(k, v); return true })
		}
		sandboxes[env] = true
		return t.Ret1(TableValue(env)), nil
	})
	s.SetStr("sandbox", sandbox)
	s.SetStr("env", sandbox)
	// script.setDir(dir) sets the directory require, dofile and loadfile
	// look in first; it returns the previous one.
	s.SetStr("setDir", NewNative("setDir", func(t *Thread, a []Value) ([]Value, error) {
		old := t.in.mainDir()
		if d := Arg(a, 0); d.k == KindString {
			t.in.scriptDir = t.in.resolvePath(d.AsString())
		} else {
			t.in.scriptDir = ""
		}
		return t.Ret1(String(old)), nil
	}))
	// script.dir() (getDir) is that directory: setDir's, else the main
	// program's.
	getDir := NewNative("dir", func(t *Thread, a []Value) ([]Value, error) {
		return t.Ret1(String(t.in.mainDir())), nil
	})
	s.SetStr("getDir", getDir)
	s.SetStr("dir", getDir)
	plain := compile
	compile = func(t *Thread, a []Value) ([]Value, error) {
		if o := Arg(a, 1).Table(); o != nil && sandboxes[o] {
			opts := NewTable(0, 1)
			opts.SetStr("env", a[1])
			return plain(t, []Value{Arg(a, 0), TableValue(opts)})
		}
		return plain(t, a)
	}
	loadFile := func(t *Thread, a []Value) ([]Value, error) {
		p, err := CheckString(a, 0, "loadFile")
		if err != nil {
			return nil, err
		}
		h, herr := t.in.host()
		if herr != nil {
			return nil, herr
		}
		opts := Arg(a, 1).Table()
		if opts != nil {
			if d := opts.GetStr("scriptDir"); d.k == KindString && !filepath.IsAbs(p) {
				p = filepath.Join(d.AsString(), p)
			}
		}
		if !filepath.IsAbs(p) && t.in.scriptDir != "" {
			p = filepath.Join(t.in.scriptDir, p)
		}
		p = t.in.resolvePath(p)
		src, rerr := h.ReadFile(p)
		if rerr != nil {
			return nil, rerr
		}
		o := NewTable(0, 2)
		o.SetStr("sourceName", String(p))
		if opts != nil {
			if e := opts.GetStr("env"); e.k == KindTable {
				o.SetStr("env", e)
			}
		}
		r, err := plain(t, []Value{String(string(src)), TableValue(o)})
		if err == nil && len(r) > 1 && r[0].k == KindNil {
			return nil, ScriptError(r[1])
		}
		return r, err
	}
	s.SetStr("loadFile", NewNative("loadFile", loadFile))
	s.SetStr("runFile", NewNative("runFile", func(t *Thread, a []Value) ([]Value, error) {
		r, err := loadFile(t, a)
		if err != nil {
			return nil, err
		}
		return t.Call(r[0]), nil
	}))
	s.SetStr("compile", NewNative("compile", raising(compile)))
	s.SetStr("load", NewNative("load", compile))
	in.globals.SetStr("loadfile", NewNative("loadfile", func(t *Thread, a []Value) ([]Value, error) {
		r, err := loadFile(t, a)
		if err != nil {
			msg := err.Error()
			if se, ok := err.(*scriptError); ok {
				msg = scriptMessage(se.v)
			}
			return t.Ret2(Nil, String(msg)), nil
		}
		return r, nil
	}))
	s.SetStr("eval", NewNative("eval", func(t *Thread, a []Value) ([]Value, error) {
		r, err := raising(compile)(t, a)
		if err != nil || len(r) == 0 || r[0].k == KindNil {
			return r, err
		}
		f := r[0]
		return t.Call(f), nil
	}))
	in.RegisterModule("script", s)
	// load(src) as in Lua: a function or nil plus the message.
	in.globals.SetStr("load", NewNative("load", func(t *Thread, a []Value) ([]Value, error) {
		if Arg(a, 0).k != KindString {
			return nil, typeError(0, "load", "string", Arg(a, 0))
		}
		opts := NewTable(0, 2)
		if n := Arg(a, 1); n.k == KindString {
			opts.SetStr("sourceName", n)
		}
		if e := Arg(a, 3); e.k == KindTable {
			opts.SetStr("env", e)
		}
		return compile(t, []Value{a[0], TableValue(opts)})
	}))
}

var errNotExist = fs.ErrNotExist

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
