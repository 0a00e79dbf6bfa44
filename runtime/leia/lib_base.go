package leia

import (
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
)

var (
	nextNative   = &Native{Name: "next", Fn: baseNext}
	ipairsIter   = &Native{Name: "ipairs_iterator", Fn: ipairsStep}
	pairsNative  = &Native{Name: "pairs", Fn: basePairs}
	ipairsNative = &Native{Name: "ipairs", Fn: baseIpairs}
)

// libraryStep is one step of installing the standard library, in the
// order of librarySteps.
type libraryStep struct {
	// open installs the step's part of the library.
	open func(*Interp)
	// modules are the module tables open registers (moduleTable then
	// registerLib), in its order.
	modules []string
	// atNew steps run when the interpreter is made: they set plain
	// globals or interpreter state. The others run together, in order,
	// at the first use of any library table (their modules are
	// registered at New as tables made at their first use), so a
	// program that uses no library module never pays for making them.
	// They may write only into the library's module tables (found with
	// lib or moduleTable, never through the globals a program can
	// change) and must not read interpreter state that changes after
	// New.
	atNew bool
}

// librarySteps install the standard library after the base functions.
// TestLazyLibraryMatchesEager holds the module lists to what each step
// registers.
var librarySteps = [...]libraryStep{
	{open: openString, modules: []string{"string"}},
	{open: openStringMeta, atNew: true},
	{open: openTable, modules: []string{"table"}},
	{open: openMath, modules: []string{"math"}},
	{open: openCoroutine, modules: []string{"coroutine"}},
	{open: openOS, modules: []string{"os"}},
	{open: openUTF8, modules: []string{"utf8"}},
	{open: openBit32, modules: []string{"bit32"}},
	{open: openTime, modules: []string{"time"}},
	{open: openJSON, modules: []string{"json"}},
	{open: openScript, atNew: true},
	{open: openIO, modules: []string{"io", "fs", "path"}},
	{open: openCodecs, modules: []string{"base64", "hash", "encoding", "compress", "crypto", "csv"}},
	{open: openCollections, modules: []string{"bits", "container", "sort", "array"}},
	{open: openURL, modules: []string{"url"}},
	{open: urlAliases},
	{open: openRegexp, modules: []string{"regexp"}},
	{open: openRand, modules: []string{"rand"}},
	{open: openUUID, modules: []string{"uuid"}},
	{open: openLog, modules: []string{"log"}},
	{open: openTestkit, modules: []string{"testkit"}},
	{open: openDebug, modules: []string{"debug"}},
	{open: openSleepDofile, atNew: true},
	{open: openGlob, modules: []string{"glob"}},
	{open: openSync, modules: []string{"sync", "context"}},
	{open: openProcess, modules: []string{"process"}},
	{open: openBinary, modules: []string{"binary", "bytes", "matrix"}},
	{open: openSoa, modules: []string{"soa"}},
	{open: openNet, modules: []string{"http", "net"}},
	{open: openVecColor, modules: []string{"vec", "color"}},
	{open: openHelpers},
	{open: openData, modules: []string{"data"}},
	{open: openQuery, modules: []string{"q"}},
	{open: openDialects, atNew: true},
}

// libraryModules is about how many module tables librarySteps register.
const libraryModules = 48

// makeLibrary runs the deferred library steps (see libraryStep) when the
// first of their module tables is used; t is that table.
func (in *Interp) makeLibrary(*Table) {
	steps := in.deferred
	in.deferred = nil
	for _, t := range in.libs {
		if t.ext != nil && t.ext.fill != nil {
			t.ext = nil // the steps fill it: it must not start them again
		}
	}
	for _, open := range steps {
		open(in)
	}
}

// installLibrary installs the standard library: the base functions, then
// librarySteps, deferred unless lazy is false.
func installLibrary(in *Interp, lazy bool) {
	g := in.globals
	reg := func(name string, fn NativeFunc) { g.SetStr(name, NewNative(name, fn)) }
	reg("print", basePrint)
	reg("type", func(t *Thread, args []Value) ([]Value, error) {
		if len(args) == 0 {
			return nil, ArgError(0, "type", "value expected")
		}
		return t.Ret1(String(args[0].TypeName())), nil
	})
	reg("tostring", func(t *Thread, args []Value) ([]Value, error) {
		if len(args) == 0 {
			return nil, ArgError(0, "tostring", "value expected")
		}
		return t.Ret1(String(t.tostring(args[0], -1))), nil
	})
	reg("tonumber", baseTonumber)
	g.SetStr("next", NativeValue(nextNative))
	g.SetStr("pairs", NativeValue(pairsNative))
	g.SetStr("ipairs", NativeValue(ipairsNative))
	reg("select", baseSelect)
	reg("rawget", func(t *Thread, args []Value) ([]Value, error) {
		tb, err := CheckTable(args, 0, "rawget")
		if err != nil {
			return nil, err
		}
		return t.Ret1(tb.Get(Arg(args, 1))), nil
	})
	reg("rawset", func(t *Thread, args []Value) ([]Value, error) {
		tb, err := CheckTable(args, 0, "rawset")
		if err != nil {
			return nil, err
		}
		t.rawSet(tb, Arg(args, 1), Arg(args, 2), -1)
		return t.Ret1(args[0]), nil
	})
	reg("rawequal", func(t *Thread, args []Value) ([]Value, error) {
		if len(args) < 2 {
			return nil, ArgError(len(args), "rawequal", "value expected")
		}
		return t.Ret1(Bool(RawEqual(args[0], args[1]))), nil
	})
	reg("rawlen", func(t *Thread, args []Value) ([]Value, error) {
		v := Arg(args, 0)
		switch v.k {
		case KindTable:
			return t.Ret1(Int(int64(v.Table().Len()))), nil
		case KindString:
			return t.Ret1(Int(int64(v.n))), nil
		}
		return nil, ArgError(0, "rawlen", "table or string expected")
	})
	reg("setmetatable", baseSetmetatable)
	reg("getmetatable", func(t *Thread, args []Value) ([]Value, error) {
		mt := t.in.metaOf(Arg(args, 0))
		if mt == nil {
			return t.Ret1(Nil), nil
		}
		if p := mt.GetStr("__metatable"); p.k != KindNil {
			return t.Ret1(p), nil
		}
		return t.Ret1(TableValue(mt)), nil
	})
	reg("assert", baseAssert)
	reg("error", func(t *Thread, args []Value) ([]Value, error) {
		v := Arg(args, 0)
		if len(args) == 0 {
			v = String("nil")
		}
		return nil, ScriptError(v)
	})
	reg("pcall", basePcall)
	reg("xpcall", baseXpcall)
	reg("collectgarbage", baseCollectgarbage)
	reg("make", baseMake)
	reg("close", func(t *Thread, args []Value) ([]Value, error) {
		t.closeChan(Arg(args, 0), -1)
		return nil, nil
	})
	reg("cap", func(t *Thread, args []Value) ([]Value, error) {
		ch := Arg(args, 0).Channel()
		if ch == nil {
			return nil, typeError(0, "cap", "channel", Arg(args, 0))
		}
		return t.Ret1(Int(int64(cap(ch.c)))), nil
	})
	reg("len", func(t *Thread, args []Value) ([]Value, error) {
		v := Arg(args, 0)
		if ch := v.Channel(); ch != nil {
			return t.Ret1(Int(int64(len(ch.c)))), nil
		}
		return t.Ret1(t.length(v, -1, "")), nil
	})
	reg("append", func(t *Thread, args []Value) ([]Value, error) {
		tb, err := CheckTable(args, 0, "append")
		if err != nil {
			return nil, err
		}
		for _, v := range args[1:] {
			if v.k != KindNil {
				t.allocBytes(tb.Growth(Int(int64(tb.Len())+1)), -1)
			}
			tb.Append(v)
		}
		return t.Ret1(args[0]), nil
	})
	reg("spread", func(t *Thread, args []Value) ([]Value, error) {
		return args, nil
	})
	reg("unpack", tableUnpack)
	reg("require", func(t *Thread, args []Value) ([]Value, error) {
		name, err := CheckString(args, 0, "require")
		if err != nil {
			return nil, err
		}
		return t.Ret1(t.require(name, -1)), nil
	})
	g.SetStr("_G", TableValue(g))
	g.SetStr("_VERSION", String("Leia 1.0"))

	pkg := NewTable(0, 4)
	pkg.SetStr("loaded", TableValue(in.loaded))
	pkg.SetStr("preload", TableValue(NewTable(0, 0)))
	pkg.SetStr("path", String("./?.leia"))
	g.SetStr("package", TableValue(pkg))

	in.libs = make(map[string]*Table, libraryModules)
	fill := lazyFill(in.makeLibrary)
	for i := range librarySteps {
		s := &librarySteps[i]
		if s.atNew || !lazy {
			s.open(in)
			continue
		}
		// The step's modules take their places among the globals now
		// and are made, with every other deferred step, at the first use
		// of any of them.
		for _, name := range s.modules {
			t := newLazyTable(fill)
			in.libs[name] = t
			in.RegisterModule(name, t)
		}
		in.deferred = append(in.deferred, s.open)
	}
	for _, name := range []string{"string", "table", "math", "coroutine", "os", "utf8", "bit32", "time", "json", "script"} {
		if v := g.GetStr(name); v.k != KindNil {
			in.loaded.SetStr(name, v)
		}
	}
	in.loaded.SetStr("_G", TableValue(g))
}

func basePrint(t *Thread, args []Value) ([]Value, error) {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte('\t')
		}
		b.WriteString(t.tostring(a, -1))
	}
	b.WriteByte('\n')
	in := t.in
	in.outMu.Lock()
	_, err := io.WriteString(in.stdout, b.String())
	in.outMu.Unlock()
	_ = err
	return nil, nil
}

func baseTonumber(t *Thread, args []Value) ([]Value, error) {
	if len(args) == 0 {
		return nil, ArgError(0, "tonumber", "value expected")
	}
	v := args[0]
	if len(args) >= 2 && args[1].k != KindNil {
		base, err := CheckInt(args, 1, "tonumber")
		if err != nil {
			return nil, err
		}
		if base < 2 || base > 36 {
			return nil, ArgError(1, "tonumber", "base out of range")
		}
		s := strings.ToLower(strings.TrimSpace(v.AsString()))
		if v.k != KindString {
			return nil, typeError(0, "tonumber", "string", v)
		}
		neg := false
		if strings.HasPrefix(s, "-") {
			neg, s = true, s[1:]
		} else if strings.HasPrefix(s, "+") {
			s = s[1:]
		}
		if s == "" {
			return t.Ret1(Nil), nil
		}
		var n int64
		for _, c := range s {
			var d int64
			switch {
			case c >= '0' && c <= '9':
				d = int64(c - '0')
			case c >= 'a' && c <= 'z':
				d = int64(c-'a') + 10
			default:
				return t.Ret1(Nil), nil
			}
			if d >= base {
				return t.Ret1(Nil), nil
			}
			n = n*base + d
		}
		if neg {
			n = -n
		}
		return t.Ret1(Int(n)), nil
	}
	switch v.k {
	case KindInt, KindFloat:
		return t.Ret1(v), nil
	case KindString:
		n, ok := parseNumber(v.AsString())
		if !ok {
			return t.Ret1(Nil), nil
		}
		return t.Ret1(n), nil
	}
	return t.Ret1(Nil), nil
}

func baseNext(t *Thread, args []Value) ([]Value, error) {
	tb, err := CheckTable(args, 0, "next")
	if err != nil {
		return nil, err
	}
	k, v, ok := tb.Next(Arg(args, 1))
	if !ok {
		return nil, fmt.Errorf("invalid key to 'next'")
	}
	if k.k == KindNil {
		return t.Ret1(Nil), nil
	}
	return t.Ret2(k, v), nil
}

func basePairs(t *Thread, args []Value) ([]Value, error) {
	v := Arg(args, 0)
	if h := t.metaField(v, "__pairs"); h.k != KindNil {
		r := t.Call(h, v)
		for len(r) < 3 {
			r = append(r, Nil)
		}
		return r[:3], nil
	}
	if v.k != KindTable {
		return nil, typeError(0, "pairs", "table", v)
	}
	return []Value{NativeValue(nextNative), v, Nil}, nil
}

func ipairsStep(t *Thread, args []Value) ([]Value, error) {
	i, _ := toInteger(Arg(args, 1))
	i++
	o := Arg(args, 0)
	var v Value
	if tb := o.Table(); tb != nil && tb.meta == nil {
		v = tb.GetInt(i)
	} else {
		v = t.index(o, Int(i), -1)
	}
	if v.k == KindNil {
		return t.Ret1(Nil), nil
	}
	return t.Ret2(Int(i), v), nil
}

func baseIpairs(t *Thread, args []Value) ([]Value, error) {
	if len(args) == 0 {
		return nil, ArgError(0, "ipairs", "table expected, got no value")
	}
	return []Value{NativeValue(ipairsIter), args[0], Int(0)}, nil
}

func baseSelect(t *Thread, args []Value) ([]Value, error) {
	n := Arg(args, 0)
	if n.k == KindString && n.AsString() == "#" {
		return t.Ret1(Int(int64(len(args) - 1))), nil
	}
	i, err := CheckInt(args, 0, "select")
	if err != nil {
		return nil, err
	}
	rest := int64(len(args) - 1)
	if i < 0 {
		i = rest + i + 1
		if i < 1 {
			return nil, ArgError(0, "select", "index out of range")
		}
	} else if i == 0 {
		return nil, ArgError(0, "select", "index out of range")
	}
	if i > rest {
		return nil, nil
	}
	return args[i:], nil
}

func baseSetmetatable(t *Thread, args []Value) ([]Value, error) {
	tb, err := CheckTable(args, 0, "setmetatable")
	if err != nil {
		return nil, err
	}
	mv := Arg(args, 1)
	if mv.k != KindNil && mv.k != KindTable {
		return nil, typeError(1, "setmetatable", "nil or table", mv)
	}
	if tb.meta != nil && tb.meta.GetStr("__metatable").k != KindNil {
		return nil, fmt.Errorf("cannot change a protected metatable")
	}
	tb.meta = mv.Table()
	return t.Ret1(args[0]), nil
}

func baseAssert(t *Thread, args []Value) ([]Value, error) {
	if len(args) == 0 {
		return nil, ArgError(0, "assert", "value expected")
	}
	if args[0].Truthy() {
		return args, nil
	}
	if len(args) > 1 {
		return nil, ScriptError(args[1])
	}
	return nil, fmt.Errorf("assertion failed!")
}

func basePcall(t *Thread, args []Value) ([]Value, error) {
	if len(args) == 0 {
		return nil, ArgError(0, "pcall", "value expected")
	}
	fn := args[0]
	rest := append([]Value(nil), args[1:]...)
	var rets []Value
	e := t.protect(func() { rets = t.callAt(fn, rest, -1) })
	if e != nil {
		return t.Ret2(False, e.Value), nil
	}
	out := make([]Value, 0, len(rets)+1)
	out = append(out, True)
	return append(out, rets...), nil
}

func baseXpcall(t *Thread, args []Value) ([]Value, error) {
	if len(args) < 2 {
		return nil, ArgError(1, "xpcall", "value expected")
	}
	fn, h := args[0], args[1]
	rest := append([]Value(nil), args[2:]...)
	var rets []Value
	e := t.protect(func() { rets = t.callAt(fn, rest, -1) })
	if e == nil {
		out := make([]Value, 0, len(rets)+1)
		out = append(out, True)
		return append(out, rets...), nil
	}
	var hv Value
	he := t.protect(func() {
		r := t.callAt(h, []Value{e.Value}, -1)
		if len(r) > 0 {
			hv = r[0]
		}
	})
	if he != nil {
		return t.Ret2(False, he.Value), nil
	}
	return t.Ret2(False, hv), nil
}

func baseCollectgarbage(t *Thread, args []Value) ([]Value, error) {
	opt, err := OptString(args, 0, "collectgarbage", "collect")
	if err != nil {
		return nil, err
	}
	switch opt {
	case "collect":
		runtime.GC()
		return t.Ret1(Int(0)), nil
	case "count":
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		kb := float64(ms.HeapAlloc) / 1024
		return t.Ret2(Float(kb), Int(int64(ms.HeapAlloc%1024))), nil
	case "step":
		return t.Ret1(True), nil
	case "isrunning":
		return t.Ret1(Bool(!t.in.gcStopped)), nil
	case "stop":
		t.in.gcStopped = true
		return t.Ret1(Int(0)), nil
	case "restart":
		t.in.gcStopped = false
		return t.Ret1(Int(0)), nil
	case "incremental", "generational":
		prev := t.in.gcMode
		if prev == "" {
			prev = "incremental"
		}
		t.in.gcMode = opt
		return t.Ret1(String(prev)), nil
	case "setpause", "setstepmul":
		return t.Ret1(Int(100)), nil
	}
	return nil, ArgError(0, "collectgarbage", fmt.Sprintf("invalid option '%s'", opt))
}

// baseMake is make(chan[, n]) (and make(table) helpers).
func baseMake(t *Thread, args []Value) ([]Value, error) {
	kind := Arg(args, 0)
	isChan := kind.k == KindString && kind.AsString() == "chan"
	if u := kind.Userdata(); u != nil {
		_, isChan = u.Value.(chanTypeMarker)
	}
	if !isChan {
		return nil, ArgError(0, "make", "chan expected")
	}
	size := Arg(args, 1)
	n := int64(0)
	if size.k != KindNil {
		v, ok := toInteger(size)
		if !ok || !size.IsNumber() {
			return nil, ArgError(1, "make", "channel size must be an integer")
		}
		n = v
	}
	if n < 0 {
		return nil, ArgError(1, "make", "channel size must be non-negative")
	}
	if n > 1<<20 {
		return nil, ArgError(1, "make", "channel size too large")
	}
	return t.Ret1(channelValue(NewChannel(int(n)))), nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
