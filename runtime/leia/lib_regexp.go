package leia

// The regexp module: Go regular expressions (RE2 syntax) over strings,
// with the compiled patterns cached per interpreter.

import (
	"fmt"
	"regexp"
)

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
