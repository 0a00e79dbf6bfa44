package strings

import (
	"sort"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/runtime/harn"
	libpaths "github.com/harnlang/harn-check/runtime/harn/lib/paths"
)

// std/text: helpers for model output and build logs.

func install(lib *harn.Library) { lib.StdModule("std/text", stdText()) }

func stdText() map[string]harn.BuiltinFunc {
	str := func(f func(s string) harn.Value) harn.BuiltinFunc {
		return func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			return f(harn.Display(harn.Arg(args, 0))), nil
		}
	}
	containsAny := func(s string, subs ...string) bool {
		for _, x := range subs {
			if strings.Contains(s, x) {
				return true
			}
		}
		return false
	}
	return map[string]harn.BuiltinFunc{
		"int_to_string": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			v := harn.ToInt(harn.Arg(args, 0))
			if v.Kind() == harn.KindNil {
				return harn.Nil, harn.Errorf("int_to_string expects an integer-compatible value")
			}
			return harn.Str(harn.Display(v)), nil
		},
		"float_to_string": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			v := harn.ToFloat(harn.Arg(args, 0))
			if v.Kind() == harn.KindNil {
				return harn.Nil, harn.Errorf("float_to_string expects a float-compatible value")
			}
			return harn.Str(harn.Display(v)), nil
		},
		"parse_int_or": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			if v := harn.ToInt(harn.Arg(args, 0)); v.Kind() != harn.KindNil {
				return v, nil
			}
			return harn.Arg(args, 1), nil
		},
		"parse_float_or": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			if v := harn.ToFloat(harn.Arg(args, 0)); v.Kind() != harn.KindNil {
				return v, nil
			}
			return harn.Arg(args, 1), nil
		},
		"extract_paths": str(func(text string) harn.Value {
			seen := map[string]bool{}
			var paths []string
			for _, line := range strings.Split(text, "\n") {
				t := strings.TrimSpace(line)
				if !strings.Contains(t, "/") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") {
					continue
				}
				for _, word := range strings.Split(t, " ") {
					clean := strings.Trim(strings.TrimSpace(word), "\"'`,;:()[]{}><")
					clean = strings.TrimRight(clean, ".,:;")
					if !strings.Contains(clean, "/") && !strings.Contains(clean, ".") {
						continue
					}
					ext := libpaths.Ext(clean)
					if ext == "" || len(ext)+1 > 11 || seen[clean] {
						continue
					}
					seen[clean] = true
					paths = append(paths, clean)
				}
			}
			sort.Strings(paths)
			out := make([]harn.Value, len(paths))
			for i, p := range paths {
				out[i] = harn.Str(p)
			}
			return harn.NewListValue(out)
		}),
		"parse_cells": str(func(resp string) harn.Value {
			var cells []harn.Value
			inBlock := false
			kind, lang := "code", harn.Nil
			var lines []string
			for _, line := range strings.Split(resp, "\n") {
				t := strings.TrimSpace(line)
				switch {
				case strings.HasPrefix(t, "```") && inBlock:
					d := harn.NewDict(3)
					d.Set("type", harn.Str(kind))
					d.Set("lang", lang)
					d.Set("code", harn.Str(strings.Join(lines, "\n")))
					cells = append(cells, harn.DictValue(d))
					inBlock, lines = false, nil
				case strings.HasPrefix(t, "```"):
					spec := strings.TrimSpace(t[3:])
					kind, lang = "code", harn.Nil
					if spec == "call" || strings.HasPrefix(spec, "call ") {
						kind = "call"
						if l := strings.TrimSpace(strings.TrimPrefix(spec, "call")); l != "" {
							lang = harn.Str(l)
						}
					} else if spec != "" {
						lang = harn.Str(spec)
					}
					inBlock, lines = true, nil
				case inBlock:
					lines = append(lines, line)
				}
			}
			return harn.NewListValue(cells)
		}),
		"filter_test_cells": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			cells, err := c.Collect(harn.Arg(args, 0))
			if err != nil {
				return harn.Nil, err
			}
			target := harn.Arg(args, 1)
			var out []harn.Value
			for _, cell := range cells {
				if cell.Kind() != harn.KindDict {
					continue
				}
				t, _ := cell.AsDict().Get("type")
				code, _ := cell.AsDict().Get("code")
				switch {
				case harn.Display(t) == "call" && strings.Contains(harn.Display(code), "write_file"):
					if target.Kind() == harn.KindNil || strings.Contains(harn.Display(code), harn.Display(target)) {
						out = append(out, cell)
					}
				case harn.Display(t) == "code":
					out = append(out, cell)
				}
			}
			return harn.NewListValue(out), nil
		},
		"truncate_head_tail": func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			text := harn.Display(harn.Arg(args, 0))
			n := int(harn.IntArg(harn.Arg(args, 1), 0))
			lines := strings.Split(text, "\n")
			if n < 0 || len(lines) <= 2*n {
				return harn.Str(text), nil
			}
			return harn.Str(strings.Join(lines[:n], "\n") + "\n... (" + strconv.Itoa(len(lines)-2*n) + " lines omitted) ...\n" +
				strings.Join(lines[len(lines)-n:], "\n")), nil
		},
		"detect_compile_error": str(func(s string) harn.Value {
			return harn.Bool(containsAny(s, "SyntaxError", "IndentationError", "ImportError", "ModuleNotFoundError", "compile error", "cannot find"))
		}),
		"has_got_want": str(func(s string) harn.Value {
			return harn.Bool(containsAny(s, "got:", "Got:", "actual:", "Actual:") && containsAny(s, "want:", "Want:", "expected:", "Expected:"))
		}),
		"format_test_errors": str(func(s string) harn.Value {
			var keep []string
			for _, l := range strings.Split(s, "\n") {
				if containsAny(l, "FAIL", "Error", "error", "assert") {
					keep = append(keep, l)
				}
			}
			if len(keep) > 20 {
				keep = keep[:20]
			}
			return harn.Str(strings.Join(keep, "\n"))
		}),
	}
}
