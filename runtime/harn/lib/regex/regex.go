package regex

import (
	"github.com/harnlang/harn-check/runtime/harn"
)

// Regex builtins (Go's RE2 syntax; upstream uses Rust's regex crate, which
// accepts the same syntax for everything but a few Perl classes).

func install(lib *harn.Library) {
	lib.Builtin("regex_match", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 2 {
			return harn.Nil, nil
		}
		re, err := harn.CompileRegex(harn.Display(args[0]), flagsArg(args, 2))
		if err != nil {
			return harn.Nil, err
		}
		ms := re.FindAllString(harn.Display(args[1]), -1)
		if len(ms) == 0 {
			return harn.Nil, nil
		}
		out := make([]harn.Value, len(ms))
		for i, m := range ms {
			out[i] = harn.Str(m)
		}
		return harn.NewListValue(out), nil
	})
	replace := func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 3 {
			return harn.Nil, nil
		}
		re, err := harn.CompileRegex(harn.Display(args[0]), flagsArg(args, 3))
		if err != nil {
			return harn.Nil, err
		}
		src, repl := harn.Display(args[2]), harn.Display(args[1])
		if n := len(re.FindAllStringIndex(src, -1)); int64(len(src))+int64(n)*int64(len(repl)) > harn.MaxStringBytes {
			return harn.Nil, harn.Errorf("Runtime error: regex_replace: string would exceed %d bytes", harn.MaxStringBytes)
		}
		return harn.Str(re.ReplaceAllString(src, repl)), nil
	}
	lib.Builtin("regex_replace", replace)
	lib.Builtin("regex_replace_all", replace)
	lib.Builtin("regex_captures", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 2 {
			return harn.NewListValue(nil), nil
		}
		re, err := harn.CompileRegex(harn.Display(args[0]), flagsArg(args, 2))
		if err != nil {
			return harn.Nil, err
		}
		text := harn.Display(args[1])
		names := re.SubexpNames()
		var out []harn.Value
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			d := harn.NewDict(2)
			d.Set("match", harn.Str(text[m[0]:m[1]]))
			var groups []harn.Value
			for i := 1; i < len(m)/2; i++ {
				if m[2*i] < 0 {
					groups = append(groups, harn.Nil)
					continue
				}
				g := harn.Str(text[m[2*i]:m[2*i+1]])
				groups = append(groups, g)
				if names[i] != "" {
					d.Set(names[i], g)
				}
			}
			d.Set("groups", harn.NewListValue(groups))
			out = append(out, harn.DictValue(d))
		}
		return harn.NewListValue(out), nil
	})
	lib.Builtin("regex_split", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 2 {
			return harn.Nil, nil
		}
		re, err := harn.CompileRegex(harn.Display(args[1]), flagsArg(args, 2))
		if err != nil {
			return harn.Nil, err
		}
		parts := re.Split(harn.Display(args[0]), -1)
		out := make([]harn.Value, len(parts))
		for i, p := range parts {
			out[i] = harn.Str(p)
		}
		return harn.NewListValue(out), nil
	})
}

// flagsArg is an optional flags argument ("" when absent or nil).
func flagsArg(args []harn.Value, i int) string {
	if v := harn.Arg(args, i); v.Kind() == harn.KindString {
		return v.AsString()
	}
	return ""
}
