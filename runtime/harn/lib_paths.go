package harn

import (
	"path/filepath"
	"strings"
)

// Path builtins: pure string manipulation, no file-system access.

func init() {
	Register("path_join", func(c *Call, args []Value) (Value, error) {
		p := ""
		for _, a := range args {
			p = pushPath(p, Display(a))
		}
		return Str(p), nil
	})
	s1 := func(name string, f func(string) string) {
		Register(name, func(c *Call, args []Value) (Value, error) { return Str(f(Display(arg(args, 0)))), nil })
	}
	s1("basename", pathBase)
	s1("path_basename", pathBase)
	s1("dirname", pathParent)
	s1("path_parent", pathParent)
	s1("extname", func(p string) string {
		if e := pathExt(p); e != "" {
			return "." + e
		}
		return ""
	})
	s1("path_extension", pathExt)
	s1("path_stem", pathStem)
	s1("path_normalize", func(p string) string {
		if p == "" {
			return ""
		}
		return filepath.ToSlash(filepath.Clean(p))
	})
	s1("path_to_posix", func(p string) string { return strings.ReplaceAll(p, "\\", "/") })
	s1("path_to_native", filepath.FromSlash)
	Register("path_is_absolute", func(c *Call, args []Value) (Value, error) {
		return Bool(filepath.IsAbs(Display(arg(args, 0)))), nil
	})
	Register("path_is_relative", func(c *Call, args []Value) (Value, error) {
		return Bool(!filepath.IsAbs(Display(arg(args, 0)))), nil
	})
	Register("path_segments", func(c *Call, args []Value) (Value, error) {
		return NewListValue(segmentValues(Display(arg(args, 0)))), nil
	})
	Register("path_parts", func(c *Call, args []Value) (Value, error) {
		p := Display(arg(args, 0))
		d := NewDict(5)
		d.Set("dir", Str(pathParent(p)))
		d.Set("file", Str(pathBase(p)))
		d.Set("stem", Str(pathStem(p)))
		d.Set("ext", Str(pathExt(p)))
		d.Set("segments", NewListValue(segmentValues(p)))
		return DictValue(d), nil
	})
	Register("path_relative_to", func(c *Call, args []Value) (Value, error) {
		p, base := filepath.Clean(Display(arg(args, 0))), filepath.Clean(Display(arg(args, 1)))
		if p == base {
			return Str(""), nil
		}
		prefix := base + string(filepath.Separator)
		if base == "." {
			return Str(p), nil
		}
		if !strings.HasPrefix(p, prefix) {
			return Nil, nil
		}
		return Str(filepath.ToSlash(p[len(prefix):])), nil
	})
	Register("path_with_extension", func(c *Call, args []Value) (Value, error) {
		p, ext := Display(arg(args, 0)), strings.TrimPrefix(Display(arg(args, 1)), ".")
		dir, stem := pathParent(p), pathStem(p)
		name := stem
		if ext != "" {
			name += "." + ext
		}
		return Str(pushPath(dir, name)), nil
	})
	Register("path_with_stem", func(c *Call, args []Value) (Value, error) {
		p, stem := Display(arg(args, 0)), Display(arg(args, 1))
		name := stem
		if e := pathExt(p); e != "" {
			name += "." + e
		}
		return Str(pushPath(pathParent(p), name)), nil
	})
}

// pushPath appends a component the way Rust's PathBuf::push does: an
// absolute component replaces the path, nothing is normalised.
func pushPath(p, part string) string {
	switch {
	case strings.HasPrefix(part, "/"), p == "":
		return part
	case part == "":
		if strings.HasSuffix(p, "/") {
			return p
		}
		return p + "/"
	case strings.HasSuffix(p, "/"):
		return p + part
	}
	return p + "/" + part
}

func trimSlashes(p string) string {
	for len(p) > 1 && strings.HasSuffix(p, "/") {
		p = p[:len(p)-1]
	}
	return p
}

func pathBase(p string) string {
	p = trimSlashes(p)
	if p == "/" || p == "" {
		return ""
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[i+1:]
	}
	if p == ".." || p == "." {
		return ""
	}
	return p
}

func pathParent(p string) string {
	p = trimSlashes(p)
	i := strings.LastIndexByte(p, '/')
	switch {
	case i < 0:
		return ""
	case i == 0:
		return "/"
	}
	return p[:i]
}

func pathExt(p string) string {
	b := pathBase(p)
	i := strings.LastIndexByte(b, '.')
	if i <= 0 {
		return ""
	}
	return b[i+1:]
}

func pathStem(p string) string {
	b := pathBase(p)
	i := strings.LastIndexByte(b, '.')
	if i <= 0 {
		return b
	}
	return b[:i]
}

func segmentValues(p string) []Value {
	var out []Value
	for _, s := range strings.Split(p, "/") {
		if s != "" && s != "." {
			out = append(out, Str(s))
		}
	}
	return out
}
