package leia

import (
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strings"
	"sync"
	"time"
)

// openURL installs url, with its aliases.
func openURL(in *Interp) {
	newModule(in, "url", map[string]NativeFunc{
		"parse": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "parse")
			if err != nil {
				return nil, err
			}
			u, perr := url.Parse(s)
			if perr != nil {
				return t.Ret2(Nil, String(perr.Error())), nil
			}
			r := NewTable(0, 10)
			r.SetStr("scheme", String(u.Scheme))
			r.SetStr("host", String(u.Hostname()))
			r.SetStr("port", String(u.Port()))
			r.SetStr("path", String(u.Path))
			r.SetStr("rawQuery", String(u.RawQuery))
			r.SetStr("fragment", String(u.Fragment))
			if u.User != nil {
				r.SetStr("user", String(u.User.Username()))
				if p, ok := u.User.Password(); ok {
					r.SetStr("password", String(p))
				}
			}
			q := NewTable(0, 4)
			vals := u.Query()
			for _, k := range sortedKeys(vals) {
				q.SetStr(k, String(vals.Get(k)))
			}
			r.SetStr("query", TableValue(q))
			return t.Ret1(TableValue(r)), nil
		},
		"encode": str1(specOf("url.encode"), url.QueryEscape),
		"decode": str1err(specOf("url.decode"), url.QueryUnescape),
		"getPath": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "getPath")
			if err != nil {
				return nil, err
			}
			u, perr := url.Parse(s)
			if perr != nil {
				return t.Ret2(Nil, String(perr.Error())), nil
			}
			return t.Ret1(String(u.Path)), nil
		},
		"escape":        str1(specOf("url.escape"), url.QueryEscape),
		"queryEscape":   str1(specOf("url.queryEscape"), url.QueryEscape),
		"pathEscape":    str1(specOf("url.pathEscape"), url.PathEscape),
		"unescape":      str1err(specOf("url.unescape"), url.QueryUnescape),
		"queryUnescape": str1err(specOf("url.queryUnescape"), url.QueryUnescape),
		"pathUnescape":  str1err(specOf("url.pathUnescape"), url.PathUnescape),
		"encodeQuery": func(t *Thread, a []Value) ([]Value, error) {
			tb, err := CheckTable(a, 0, "encodeQuery")
			if err != nil {
				return nil, err
			}
			v := url.Values{}
			tb.Iter(func(k, x Value) bool {
				if xt := x.Table(); xt != nil {
					for _, e := range xt.arr {
						v.Add(t.tostring(k, -1), t.tostring(e, -1))
					}
				} else {
					v.Set(t.tostring(k, -1), t.tostring(x, -1))
				}
				return true
			})
			return t.Ret1(String(v.Encode())), nil
		},
		"parseQuery": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "parseQuery")
			if err != nil {
				return nil, err
			}
			v, perr := url.ParseQuery(s)
			if perr != nil {
				return t.Ret2(Nil, String(perr.Error())), nil
			}
			r := NewTable(0, len(v))
			for _, k := range sortedKeys(v) {
				r.SetStr(k, String(v.Get(k)))
			}
			return t.Ret1(TableValue(r)), nil
		},
		"join": func(t *Thread, a []Value) ([]Value, error) {
			base, err := CheckString(a, 0, "join")
			if err != nil {
				return nil, err
			}
			ref, err := CheckString(a, 1, "join")
			if err != nil {
				return nil, err
			}
			b, perr := url.Parse(base)
			if perr != nil {
				return t.Ret2(Nil, String(perr.Error())), nil
			}
			r, perr := url.Parse(ref)
			if perr != nil {
				return t.Ret2(Nil, String(perr.Error())), nil
			}
			return t.Ret1(String(b.ResolveReference(r).String())), nil
		},
	})
}

func urlAliases(in *Interp) {
	m := in.lib("url")
	m.SetStr("queryEncode", m.GetStr("encodeQuery"))
	m.SetStr("queryDecode", m.GetStr("parseQuery"))
	m.SetStr("resolve", m.GetStr("join"))
}

func openRegexp(in *Interp) {
	// Compiled patterns are cached per interpreter (bounded), so module
	// functions called in a loop compile each pattern once.
	cache := map[string]*regexp.Regexp{}
	compile := func(t *Thread, a []Value, name string) (*regexp.Regexp, error) {
		p, err := CheckString(a, 0, name)
		if err != nil {
			return nil, err
		}
		if re, ok := cache[p]; ok {
			return re, nil
		}
		if len(p) > 1<<16 {
			return nil, fmt.Errorf("regexp: pattern too long")
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, err
		}
		if len(cache) >= 256 {
			clear(cache)
		}
		cache[p] = re
		return re, nil
	}
	var methods func(re *regexp.Regexp) *Table
	ops := map[string]func(t *Thread, re *regexp.Regexp, a []Value) ([]Value, error){
		"match": func(t *Thread, re *regexp.Regexp, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "match")
			return t.Ret1(Bool(re.MatchString(s))), err
		},
		"find": func(t *Thread, re *regexp.Regexp, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "find")
			if err != nil {
				return nil, err
			}
			loc := re.FindStringIndex(s)
			if loc == nil {
				return t.Ret1(Nil), nil
			}
			return t.Ret1(String(s[loc[0]:loc[1]])), nil
		},
		"findAll": func(t *Thread, re *regexp.Regexp, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "findAll")
			if err != nil {
				return nil, err
			}
			n, err := OptInt(a, 1, "findAll", -1)
			if err != nil {
				return nil, err
			}
			return t.Ret1(FromGo(re.FindAllString(s, int(n)))), nil
		},
		"findSubmatch": func(t *Thread, re *regexp.Regexp, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "findSubmatch")
			if err != nil {
				return nil, err
			}
			m := re.FindStringSubmatch(s)
			if m == nil {
				return t.Ret1(Nil), nil
			}
			return t.Ret1(FromGo(m)), nil
		},
		"findAllSubmatch": func(t *Thread, re *regexp.Regexp, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "findAllSubmatch")
			if err != nil {
				return nil, err
			}
			n, err := OptInt(a, 1, "findAllSubmatch", -1)
			if err != nil {
				return nil, err
			}
			out := NewTable(0, 0)
			for _, m := range re.FindAllStringSubmatch(s, int(n)) {
				out.Append(FromGo(m))
			}
			return t.Ret1(TableValue(out)), nil
		},
		"replace": func(t *Thread, re *regexp.Regexp, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "replace")
			if err != nil {
				return nil, err
			}
			if f := Arg(a, 1); f.IsFunction() {
				return t.Ret1(String(re.ReplaceAllStringFunc(s, func(m string) string {
					return t.tostring(t.Call1(f, String(m)), -1)
				}))), nil
			}
			r, err := CheckString(a, 1, "replace")
			if err != nil {
				return nil, err
			}
			return t.Ret1(String(re.ReplaceAllString(s, r))), nil
		},
		"replaceLiteral": func(t *Thread, re *regexp.Regexp, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "replaceLiteral")
			if err != nil {
				return nil, err
			}
			r, err := CheckString(a, 1, "replaceLiteral")
			return t.Ret1(String(re.ReplaceAllLiteralString(s, r))), err
		},
		"split": func(t *Thread, re *regexp.Regexp, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "split")
			if err != nil {
				return nil, err
			}
			n, err := OptInt(a, 1, "split", -1)
			if err != nil {
				return nil, err
			}
			return t.Ret1(FromGo(re.Split(s, int(n)))), nil
		},
		"numSubexp": func(t *Thread, re *regexp.Regexp, a []Value) ([]Value, error) {
			return t.Ret1(Int(int64(re.NumSubexp()))), nil
		},
	}
	methods = func(re *regexp.Regexp) *Table {
		obj := NewTable(0, len(ops)+1)
		for _, name := range sortedKeys(ops) {
			op := ops[name]
			obj.SetStr(name, NewNative(name, func(t *Thread, a []Value) ([]Value, error) {
				// allow both obj.match(s) and obj:match(s)
				if len(a) > 0 && a[0].Table() == obj {
					a = a[1:]
				}
				return op(t, re, a)
			}))
		}
		obj.SetStr("pattern", String(re.String()))
		return obj
	}
	funcs := map[string]NativeFunc{
		"compile": func(t *Thread, a []Value) ([]Value, error) {
			re, err := compile(t, a, "compile")
			if err != nil {
				return t.Ret2(Nil, String(err.Error())), nil
			}
			return t.Ret1(TableValue(methods(re))), nil
		},
		"quote": str1(specOf("regexp.quote"), regexp.QuoteMeta),
	}
	for _, name := range sortedKeys(ops) {
		op := ops[name]
		n := name
		funcs[name] = func(t *Thread, a []Value) ([]Value, error) {
			re, err := compile(t, a, n)
			if err != nil {
				return nil, err
			}
			return op(t, re, a[1:])
		}
	}
	funcs["replaceAll"] = funcs["replace"]
	funcs["findAllString"] = funcs["findAll"]
	newModule(in, "regexp", funcs)
}

// openRand installs rand: a seedable generator (rand.seed makes runs
// repeatable) with integer, float, boolean, normal and exponential draws
// and list helpers.
func openRand(in *Interp) {
	rng := mrand.New(mrand.NewPCG(uint64(time.Now().UnixNano()), 7))
	list := func(a []Value, name string) (*Table, error) { return CheckTable(a, 0, name) }
	newModule(in, "rand", map[string]NativeFunc{
		"seed": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckInt(a, 0, "seed")
			if err != nil {
				return nil, err
			}
			rng = mrand.New(mrand.NewPCG(uint64(s), 7))
			return nil, nil
		},
		"float": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Float(rng.Float64())), nil },
		"bool":  func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Bool(rng.IntN(2) == 1)), nil },
		"int": func(t *Thread, a []Value) ([]Value, error) {
			switch {
			case len(a) == 0:
				return t.Ret1(Int(rng.Int64())), nil
			case len(a) >= 2:
				lo, err := CheckInt(a, 0, "int")
				if err != nil {
					return nil, err
				}
				hi, err := CheckInt(a, 1, "int")
				if err != nil {
					return nil, err
				}
				if hi < lo {
					return nil, ArgError(1, "int", "interval is empty")
				}
				return t.Ret1(Int(lo + int64(rng.Uint64N(uint64(hi-lo)+1)))), nil
			}
			n, err := CheckInt(a, 0, "int")
			if err != nil {
				return nil, err
			}
			if n <= 0 {
				return nil, ArgError(0, "int", "n must be positive")
			}
			return t.Ret1(Int(rng.Int64N(n))), nil
		},
		"normal": func(t *Thread, a []Value) ([]Value, error) {
			mean, err := OptFloat(a, 0, "normal", 0)
			if err != nil {
				return nil, err
			}
			std, err := OptFloat(a, 1, "normal", 1)
			if err != nil {
				return nil, err
			}
			if std < 0 {
				return nil, ArgError(1, "normal", "standard deviation must be non-negative")
			}
			return t.Ret1(Float(mean + rng.NormFloat64()*std)), nil
		},
		"exp": func(t *Thread, a []Value) ([]Value, error) {
			rate, err := OptFloat(a, 0, "exp", 1)
			if err != nil {
				return nil, err
			}
			if rate <= 0 {
				return nil, ArgError(0, "exp", "rate must be positive")
			}
			return t.Ret1(Float(rng.ExpFloat64() / rate)), nil
		},
		"choice": func(t *Thread, a []Value) ([]Value, error) {
			l, err := list(a, "choice")
			if err != nil {
				return nil, err
			}
			if l.Len() == 0 {
				return t.Ret1(Nil), nil
			}
			return t.Ret1(l.arr[rng.IntN(l.Len())]), nil
		},
		"shuffle": func(t *Thread, a []Value) ([]Value, error) {
			l, err := list(a, "shuffle")
			if err != nil {
				return nil, err
			}
			rng.Shuffle(len(l.arr), func(i, j int) { l.arr[i], l.arr[j] = l.arr[j], l.arr[i] })
			return t.Ret1(a[0]), nil
		},
		"sample": func(t *Thread, a []Value) ([]Value, error) {
			l, err := list(a, "sample")
			if err != nil {
				return nil, err
			}
			k, err := CheckInt(a, 1, "sample")
			if err != nil {
				return nil, err
			}
			if k < 0 {
				return nil, ArgError(1, "sample", "count must be non-negative")
			}
			idx := rng.Perm(l.Len())
			if int(k) < len(idx) {
				idx = idx[:k]
			}
			out := NewTable(len(idx), 0)
			for _, i := range idx {
				out.Append(l.arr[i])
			}
			return t.Ret1(TableValue(out)), nil
		},
		"weighted": func(t *Thread, a []Value) ([]Value, error) {
			items, err := CheckTable(a, 0, "weighted")
			if err != nil {
				return nil, err
			}
			ws, err := CheckTable(a, 1, "weighted")
			if err != nil {
				return nil, err
			}
			if items.Len() == 0 {
				return t.Ret1(Nil), nil
			}
			if ws.Len() != items.Len() {
				return nil, ArgError(1, "weighted", "one weight per item expected")
			}
			total := 0.0
			for _, w := range ws.arr {
				x, ok := toNumber(w)
				if !ok || x.AsFloat() < 0 {
					return nil, ArgError(1, "weighted", "weights must be non-negative numbers")
				}
				total += x.AsFloat()
			}
			if total <= 0 {
				return nil, ArgError(1, "weighted", "weights must not all be zero")
			}
			r := rng.Float64() * total
			for i, w := range ws.arr {
				r -= w.AsFloat()
				if r < 0 {
					return t.Ret1(items.arr[i]), nil
				}
			}
			return t.Ret1(items.arr[len(items.arr)-1]), nil
		},
		"bytes": func(t *Thread, a []Value) ([]Value, error) {
			n, err := CheckInt(a, 0, "bytes")
			if err != nil {
				return nil, err
			}
			if n < 0 || n > 1<<20 {
				return nil, ArgError(0, "bytes", "size out of range")
			}
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			return t.Ret1(String(string(b))), nil
		},
		"uuid": func(t *Thread, a []Value) ([]Value, error) {
			var b [16]byte
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			return t.Ret1(String(formatUUID(b))), nil
		},
	})
}

func formatUUID(b [16]byte) string {
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// uuidRe is compiled at its first use, not in every process.
var uuidRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
})

func openUUID(in *Interp) {
	gen := func(t *Thread, a []Value) ([]Value, error) {
		var b [16]byte
		rand.Read(b[:])
		return t.Ret1(String(formatUUID(b))), nil
	}
	m := newModule(in, "uuid", map[string]NativeFunc{
		"new": gen, "v4": gen,
		"isValid": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "isValid")
			return t.Ret1(Bool(uuidRe().MatchString(s))), err
		},
	})
	m.SetStr("nil", String("00000000-0000-0000-0000-000000000000"))
}

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

// openTestkit installs testkit: small helpers for self-checking programs.
func openTestkit(in *Interp) {
	newModule(in, "testkit", map[string]NativeFunc{
		"inspect": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(String(inspectValue(t, Arg(a, 0), 0))), nil
		},
		"equal": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(Bool(deepEqual(t, Arg(a, 0), Arg(a, 1), 0))), nil
		},
		"assertEqual": func(t *Thread, a []Value) ([]Value, error) {
			if !deepEqual(t, Arg(a, 0), Arg(a, 1), 0) {
				msg := fmt.Sprintf("expected %s, got %s", inspectValue(t, Arg(a, 1), 0), inspectValue(t, Arg(a, 0), 0))
				if m := Arg(a, 2); m.k == KindString {
					msg = m.AsString() + ": " + msg
				}
				return nil, ScriptError(String(msg))
			}
			return nil, nil
		},
		// protect calls f with the arguments and reports the outcome as
		// a table {ok, n, values} or {ok = false, error}.
		"protect": func(t *Thread, a []Value) ([]Value, error) {
			r := NewTable(0, 4)
			rest := append([]Value(nil), a[min(1, len(a)):]...)
			var rets []Value
			if e := t.protect(func() { rets = t.callAt(Arg(a, 0), rest, -1) }); e != nil {
				r.SetStr("ok", False)
				r.SetStr("error", e.Value)
				return t.Ret1(TableValue(r)), nil
			}
			r.SetStr("ok", True)
			r.SetStr("n", Int(int64(len(rets))))
			r.SetStr("values", TableValue(NewList(rets...)))
			return t.Ret1(TableValue(r)), nil
		},
		"typeOf": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(String(Arg(a, 0).TypeName())), nil
		},
		"value": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(TableValue(describeValue(t, Arg(a, 0)))), nil
		},
		"sameFunction": func(t *Thread, a []Value) ([]Value, error) {
			x, y := Arg(a, 0), Arg(a, 1)
			return t.Ret1(Bool(x.IsFunction() && y.IsFunction() && RawEqual(x, y))), nil
		},
		"functionInfo": func(t *Thread, a []Value) ([]Value, error) {
			f := Arg(a, 0)
			if !f.IsFunction() {
				return nil, typeError(0, "functionInfo", "function", f)
			}
			return t.Ret1(TableValue(debugFuncInfo(f))), nil
		},
		// snapshot, memory, diff and checkMemory report the Go heap.
		"snapshot": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(TableValue(memoryTable())), nil
		},
		"memory": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(TableValue(memoryTable())), nil
		},
		"diff": func(t *Thread, a []Value) ([]Value, error) {
			return t.Ret1(TableValue(memoryDiff(Arg(a, 0).Table(), memoryTable()))), nil
		},
		// checkMemory(before [, {collect, maxGrowthKB}]) reports whether
		// the heap grew by at most maxGrowthKB (default 64 MiB) since
		// before.
		"checkMemory": func(t *Thread, a []Value) ([]Value, error) {
			opts := Arg(a, 1).Table()
			limit := 64.0 * 1024
			if opts != nil {
				if opts.GetStr("collect").Truthy() {
					goruntime.GC()
				}
				if v := opts.GetStr("maxGrowthKB"); v.IsNumber() {
					limit = v.AsFloat()
				}
			}
			d := memoryDiff(Arg(a, 0).Table(), memoryTable())
			ok := d.GetStr("allocKB").AsFloat() <= limit
			d.SetStr("ok", Bool(ok))
			d.SetStr("limitKB", Float(limit))
			return t.Ret2(Bool(ok), TableValue(d)), nil
		},
	})
}

func memoryTable() *Table {
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	r := NewTable(0, 6)
	r.SetStr("allocKB", Float(float64(ms.HeapAlloc)/1024))
	r.SetStr("totalAllocKB", Float(float64(ms.TotalAlloc)/1024))
	r.SetStr("sysKB", Float(float64(ms.Sys)/1024))
	r.SetStr("objects", Int(int64(ms.HeapObjects)))
	r.SetStr("numGC", Int(int64(ms.NumGC)))
	r.SetStr("goroutines", Int(int64(goruntime.NumGoroutine())))
	return r
}

// memoryDiff is now minus before, field by field (before may be nil).
func memoryDiff(before, now *Table) *Table {
	r := NewTable(0, 6)
	now.Iter(func(k, v Value) bool {
		var b Value
		if before != nil {
			b = before.Get(k)
		}
		if !b.IsNumber() {
			b = Int(0)
		}
		if v.k == KindInt && b.k == KindInt {
			r.Set(k, Int(v.AsInt()-b.AsInt()))
		} else {
			r.Set(k, Float(v.AsFloat()-b.AsFloat()))
		}
		return true
	})
	return r
}

// describeValue is the table debug.value and testkit.value give.
func describeValue(t *Thread, v Value) *Table {
	r := NewTable(0, 5)
	r.SetStr("type", String(v.TypeName()))
	r.SetStr("truthy", Bool(v.Truthy()))
	r.SetStr("text", String(inspectValue(t, v, 0)))
	switch v.k {
	case KindTable:
		r.SetStr("length", Int(int64(v.Table().Len())))
		r.SetStr("len", Int(int64(v.Table().Len())))
	case KindString:
		r.SetStr("length", Int(int64(len(v.AsString()))))
		r.SetStr("len", Int(int64(len(v.AsString()))))
	}
	return r
}

// deepEqual compares tables by contents (depth-bounded).
func deepEqual(t *Thread, a, b Value, depth int) bool {
	if RawEqual(a, b) {
		return true
	}
	ta, tb := a.Table(), b.Table()
	if ta == nil || tb == nil || depth > 100 {
		return false
	}
	same := true
	n := 0
	ta.Iter(func(k, v Value) bool {
		n++
		t.charge(1, -1)
		if !deepEqual(t, v, tb.Get(k), depth+1) {
			same = false
			return false
		}
		return true
	})
	if !same {
		return false
	}
	m := 0
	tb.Iter(func(_, _ Value) bool { m++; return true })
	return n == m
}

// inspectValue renders a value as source-like text (depth-bounded).
func inspectValue(t *Thread, v Value, depth int) string {
	switch v.k {
	case KindString:
		return quoteString(v)
	case KindTable:
		if depth > 8 {
			return "{...}"
		}
		var parts []string
		v.Table().Iter(func(k, x Value) bool {
			if t != nil {
				t.charge(1, -1)
			}
			if len(parts) >= 200 {
				parts = append(parts, "...")
				return false
			}
			ks := "[" + inspectValue(t, k, depth+1) + "]"
			if k.k == KindString && isIdent(k.AsString()) {
				ks = k.AsString()
			}
			parts = append(parts, ks+": "+inspectValue(t, x, depth+1))
			return true
		})
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return FormatValuePlain(v)
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isalpha(c) || c == '_' || i > 0 && isdigit(c)) {
			return false
		}
	}
	return true
}

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

// openGlob installs glob.
func openGlob(in *Interp) {
	newModule(in, "glob", map[string]NativeFunc{
		"match": func(t *Thread, a []Value) ([]Value, error) {
			pat, err := CheckString(a, 0, "match")
			if err != nil {
				return nil, err
			}
			s, err := CheckString(a, 1, "match")
			if err != nil {
				return nil, err
			}
			ok, merr := pathMatch(pat, s)
			if merr != nil {
				return t.Ret2(Nil, String(merr.Error())), nil
			}
			return t.Ret1(Bool(ok)), nil
		},
	})
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
