package leia

import (
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
)

var (
	nextNative   *Native
	ipairsIter   *Native
	pairsNative  *Native
	ipairsNative *Native
)

func init() {
	nextNative = &Native{Name: "next", Fn: baseNext}
	ipairsIter = &Native{Name: "ipairs_iterator", Fn: ipairsStep}
	pairsNative = &Native{Name: "pairs", Fn: basePairs}
	ipairsNative = &Native{Name: "ipairs", Fn: baseIpairs}
}

func installStdlib(in *Interp) {
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

	openString(in)
	openTable(in)
	openMath(in)
	openCoroutine(in)
	openOS(in)
	openUTF8(in)
	openBit32(in)
	openTime(in)
	openJSON(in)
	openScript(in)
	openIO(in)
	openCodecs(in)
	openCollections(in)
	openExtra(in)
	openDialects(in)
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
