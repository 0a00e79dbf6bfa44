package harn

import (
	"sort"
	"strings"
)

// std/text: helpers for model output and build logs.

func installStdText(lib *Library) { lib.StdModule("std/text", stdText()) }

func stdText() map[string]stdFn {
	str := func(f func(s string) Value) stdFn {
		return func(c *Call, args []Value) (Value, error) { return f(Display(Arg(args, 0))), nil }
	}
	containsAny := func(s string, subs ...string) bool {
		for _, x := range subs {
			if strings.Contains(s, x) {
				return true
			}
		}
		return false
	}
	return map[string]stdFn{
		"int_to_string": func(c *Call, args []Value) (Value, error) {
			v := toInt(Arg(args, 0))
			if v.k == KindNil {
				return Nil, plainError("int_to_string expects an integer-compatible value")
			}
			return Str(Display(v)), nil
		},
		"float_to_string": func(c *Call, args []Value) (Value, error) {
			v := toFloat(Arg(args, 0))
			if v.k == KindNil {
				return Nil, plainError("float_to_string expects a float-compatible value")
			}
			return Str(Display(v)), nil
		},
		"parse_int_or": func(c *Call, args []Value) (Value, error) {
			if v := toInt(Arg(args, 0)); v.k != KindNil {
				return v, nil
			}
			return Arg(args, 1), nil
		},
		"parse_float_or": func(c *Call, args []Value) (Value, error) {
			if v := toFloat(Arg(args, 0)); v.k != KindNil {
				return v, nil
			}
			return Arg(args, 1), nil
		},
		"extract_paths": str(func(text string) Value {
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
					ext := pathExt(clean)
					if ext == "" || len(ext)+1 > 11 || seen[clean] {
						continue
					}
					seen[clean] = true
					paths = append(paths, clean)
				}
			}
			sort.Strings(paths)
			out := make([]Value, len(paths))
			for i, p := range paths {
				out[i] = Str(p)
			}
			return NewListValue(out)
		}),
		"parse_cells": str(func(resp string) Value {
			var cells []Value
			inBlock := false
			kind, lang := "code", Nil
			var lines []string
			for _, line := range strings.Split(resp, "\n") {
				t := strings.TrimSpace(line)
				switch {
				case strings.HasPrefix(t, "```") && inBlock:
					d := NewDict(3)
					d.Set("type", Str(kind))
					d.Set("lang", lang)
					d.Set("code", Str(strings.Join(lines, "\n")))
					cells = append(cells, DictValue(d))
					inBlock, lines = false, nil
				case strings.HasPrefix(t, "```"):
					spec := strings.TrimSpace(t[3:])
					kind, lang = "code", Nil
					if spec == "call" || strings.HasPrefix(spec, "call ") {
						kind = "call"
						if l := strings.TrimSpace(strings.TrimPrefix(spec, "call")); l != "" {
							lang = Str(l)
						}
					} else if spec != "" {
						lang = Str(spec)
					}
					inBlock, lines = true, nil
				case inBlock:
					lines = append(lines, line)
				}
			}
			return NewListValue(cells)
		}),
		"filter_test_cells": func(c *Call, args []Value) (Value, error) {
			cells, err := c.th.collect(Arg(args, 0))
			if err != nil {
				return Nil, err
			}
			target := Arg(args, 1)
			var out []Value
			for _, cell := range cells {
				if cell.k != KindDict {
					continue
				}
				t, _ := cell.r.(*Dict).Get("type")
				code, _ := cell.r.(*Dict).Get("code")
				switch {
				case Display(t) == "call" && strings.Contains(Display(code), "write_file"):
					if target.k == KindNil || strings.Contains(Display(code), Display(target)) {
						out = append(out, cell)
					}
				case Display(t) == "code":
					out = append(out, cell)
				}
			}
			return NewListValue(out), nil
		},
		"truncate_head_tail": func(c *Call, args []Value) (Value, error) {
			text := Display(Arg(args, 0))
			n := int(IntArg(Arg(args, 1), 0))
			lines := strings.Split(text, "\n")
			if n < 0 || len(lines) <= 2*n {
				return Str(text), nil
			}
			return Str(strings.Join(lines[:n], "\n") + "\n... (" + itoa(int64(len(lines)-2*n)) + " lines omitted) ...\n" +
				strings.Join(lines[len(lines)-n:], "\n")), nil
		},
		"detect_compile_error": str(func(s string) Value {
			return Bool(containsAny(s, "SyntaxError", "IndentationError", "ImportError", "ModuleNotFoundError", "compile error", "cannot find"))
		}),
		"has_got_want": str(func(s string) Value {
			return Bool(containsAny(s, "got:", "Got:", "actual:", "Actual:") && containsAny(s, "want:", "Want:", "expected:", "Expected:"))
		}),
		"format_test_errors": str(func(s string) Value {
			var keep []string
			for _, l := range strings.Split(s, "\n") {
				if containsAny(l, "FAIL", "Error", "error", "assert") {
					keep = append(keep, l)
				}
			}
			if len(keep) > 20 {
				keep = keep[:20]
			}
			return Str(strings.Join(keep, "\n"))
		}),
	}
}
