package paths

import (
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/runtime/harn"
)

// Path builtins: pure string manipulation, no file-system access.

func install(lib *harn.Library) {
	joinArgs := harn.ArgsOf("path_join")
	lib.Builtin("path_join", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		var parts []harn.Value
		if err := joinArgs.Unpack(c, args, &parts); err != nil {
			return harn.Nil, err
		}
		p := ""
		for _, a := range parts {
			p = pushPath(p, harn.Display(a))
		}
		return harn.Str(p), nil
	})
	s1 := func(name string, f func(string) string) {
		lib.Builtin(name, harn.WithText(name, func(_ *harn.Call, p string, _ []harn.Value) (harn.Value, error) { return harn.Str(f(p)), nil }))
	}
	s1("basename", pathBase)
	s1("dirname", pathParent)
	s1("extname", func(p string) string {
		if e := Ext(p); e != "" {
			return "." + e
		}
		return ""
	})
	s1("path_to_posix", func(p string) string { return strings.ReplaceAll(p, "\\", "/") })
	s1("path_to_native", filepath.FromSlash)
	s1("path_basename", pBase)
	s1("path_parent", pParent)
	s1("path_extension", pExt)
	s1("path_stem", pStem)
	s1("path_normalize", pNormalize)
	lib.Builtin("path_is_absolute", harn.WithText("path_is_absolute", func(_ *harn.Call, p string, _ []harn.Value) (harn.Value, error) {
		return harn.Bool(pIsAbs(p)), nil
	}))
	lib.Builtin("path_is_relative", harn.WithText("path_is_relative", func(_ *harn.Call, p string, _ []harn.Value) (harn.Value, error) {
		return harn.Bool(!pIsAbs(p)), nil
	}))
	lib.Builtin("path_segments", harn.WithText("path_segments", func(_ *harn.Call, p string, _ []harn.Value) (harn.Value, error) {
		_, _, segs := pSplit(p)
		return harn.NewListValue(harn.StrValues(segs)), nil
	}))
	lib.Builtin("path_parts", harn.WithText("path_parts", func(_ *harn.Call, p string, _ []harn.Value) (harn.Value, error) {
		_, _, segs := pSplit(p)
		d := harn.NewDict(5)
		d.Set("dir", harn.Str(pParent(p)))
		d.Set("file", harn.Str(pBase(p)))
		d.Set("stem", harn.Str(pStem(p)))
		d.Set("ext", harn.Str(pExt(p)))
		d.Set("segments", harn.NewListValue(harn.StrValues(segs)))
		return harn.DictValue(d), nil
	}))
	lib.Builtin("path_relative_to", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if rel, ok := pRelativeTo(harn.Display(harn.Arg(args, 0)), harn.Display(harn.Arg(args, 1))); ok {
			return harn.Str(rel), nil
		}
		return harn.Nil, nil
	})
	lib.Builtin("path_with_extension", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		p, ext := harn.Display(harn.Arg(args, 0)), harn.Display(harn.Arg(args, 1))
		if ext != "" && !strings.HasPrefix(ext, ".") {
			ext = "." + ext
		}
		return harn.Str(pInDir(pParent(p), pStem(p)+ext)), nil
	})
	lib.Builtin("path_with_stem", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		p := harn.Display(harn.Arg(args, 0))
		return harn.Str(pInDir(pParent(p), harn.Display(harn.Arg(args, 1))+pExt(p))), nil
	})
	lib.Builtin("path_workspace_info", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		return workspacePathInfo(c, harn.Display(harn.Arg(args, 0)), workspaceRoot(c, args)).value(), nil
	})
	lib.Builtin("path_workspace_normalize", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if w := workspacePathInfo(c, harn.Display(harn.Arg(args, 0)), workspaceRoot(c, args)).workspace; w != "" {
			return harn.Str(w), nil
		}
		return harn.Nil, nil
	})
}

// The path_* helpers work on text only and the same on every system:
// backslashes count as slashes, "X:" starts a drive, "X:/" and "/" make a
// path absolute, results use forward slashes.

func pSplit(p string) (abs bool, drive string, segs []string) {
	p = strings.ReplaceAll(p, "\\", "/")
	if len(p) >= 2 && isASCIILetter(p[0]) && p[1] == ':' {
		drive, p = p[:2], p[2:]
	}
	abs = strings.HasPrefix(p, "/")
	for _, s := range strings.Split(p, "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
	return abs, drive, segs
}

func isASCIILetter(b byte) bool { return (b|0x20) >= 'a' && (b|0x20) <= 'z' }

func pIsAbs(p string) bool {
	p = strings.ReplaceAll(p, "\\", "/")
	return strings.HasPrefix(p, "/") || (len(p) >= 3 && isASCIILetter(p[0]) && p[1] == ':' && p[2] == '/')
}

func pJoinParts(abs bool, drive string, segs []string) string {
	out := drive
	if abs {
		out += "/"
	}
	return out + strings.Join(segs, "/")
}

// pNormalize folds "." and ".." and repeated slashes; "" stays "", and a
// path that folds to nothing is ".".
func pNormalize(p string) string {
	if p == "" {
		return ""
	}
	return pLexical(p)
}

func pLexical(p string) string {
	abs, drive, segs := pSplit(p)
	var stack []string
	for _, s := range segs {
		switch s {
		case ".":
		case "..":
			if n := len(stack); n > 0 && stack[n-1] != ".." {
				stack = stack[:n-1]
			} else if !abs {
				stack = append(stack, "..")
			}
		default:
			stack = append(stack, s)
		}
	}
	if out := pJoinParts(abs, drive, stack); out != "" {
		return out
	}
	return "."
}

func pBase(p string) string {
	_, _, segs := pSplit(p)
	if len(segs) == 0 {
		return ""
	}
	return segs[len(segs)-1]
}

func pParent(p string) string {
	abs, drive, segs := pSplit(p)
	if len(segs) <= 1 && !abs {
		return ""
	}
	if len(segs) > 0 {
		segs = segs[:len(segs)-1]
	}
	if out := pJoinParts(abs, drive, segs); out != "" {
		return out
	}
	return "/"
}

// pExt is the extension with its dot ("" for none or a dot file).
func pExt(p string) string {
	b := pBase(p)
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		return b[i:]
	}
	return ""
}

func pStem(p string) string {
	b := pBase(p)
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		return b[:i]
	}
	return b
}

func pInDir(dir, name string) string {
	switch dir {
	case "":
		return name
	case "/":
		return "/" + name
	}
	return dir + "/" + name
}

func pRelativeTo(p, base string) (string, bool) {
	pa, pd, ps := pSplit(pNormalize(p))
	ba, bd, bs := pSplit(pNormalize(base))
	if pa != ba || pd != bd {
		return "", false
	}
	common := 0
	for common < len(ps) && common < len(bs) && ps[common] == bs[common] {
		common++
	}
	var out []string
	for range len(bs) - common {
		out = append(out, "..")
	}
	out = append(out, ps[common:]...)
	if len(out) == 0 {
		return ".", true
	}
	return strings.Join(out, "/"), true
}

// wsInfo classifies a path against a workspace root.
type wsInfo struct {
	input, kind, normalized, workspace, host, reason string
	drift                                            bool
}

func (w wsInfo) value() harn.Value {
	opt := func(s string) harn.Value {
		if s == "" {
			return harn.Nil
		}
		return harn.Str(s)
	}
	d := harn.NewDict(7)
	d.Set("input", harn.Str(w.input))
	d.Set("kind", harn.Str(w.kind))
	d.Set("normalized", harn.Str(w.normalized))
	d.Set("workspace_path", opt(w.workspace))
	d.Set("host_path", opt(w.host))
	d.Set("recovered_root_drift", harn.Bool(w.drift))
	d.Set("reason", opt(w.reason))
	return harn.DictValue(d)
}

// workspaceRoot is the second argument, or the program's folder.
func workspaceRoot(c *harn.Call, args []harn.Value) string {
	root := ""
	if v := harn.Arg(args, 1); v.Kind() != harn.KindNil {
		root = harn.Display(v)
	}
	if root == "" {
		return c.Interp().Host().Root()
	}
	if !pIsAbs(root) {
		return c.Interp().Host().Abs(root)
	}
	return root
}

// workspacePathInfo says whether path is workspace-relative (and does not
// climb out), absolute inside the root (host_absolute with its workspace
// path), absolute elsewhere, or invalid. An absolute path that does not
// exist but names something under the root once its leading slash is
// dropped is taken as workspace-relative (recovered_root_drift): models
// often write "/src/x" meaning the workspace's src/x.
func workspacePathInfo(c *harn.Call, path, root string) wsInfo {
	w := wsInfo{input: path}
	trimmed := strings.TrimSpace(path)
	switch {
	case trimmed == "":
		w.kind, w.reason = "invalid", "path is empty"
		return w
	case strings.ContainsRune(trimmed, 0):
		w.kind, w.normalized, w.reason = "invalid", strings.ReplaceAll(trimmed, "\\", "/"), "path contains NUL bytes"
		return w
	}
	norm := pLexical(trimmed)
	rootNorm := pLexical(root)
	escapes := func(p string) bool { return p == ".." || strings.HasPrefix(p, "../") }
	if !pIsAbs(trimmed) {
		w.normalized = norm
		w.host = pLexical(rootNorm + "/" + norm)
		if escapes(norm) {
			w.kind, w.reason = "invalid", "workspace-relative path escapes the workspace root"
			return w
		}
		w.kind, w.workspace = "workspace_relative", norm
		return w
	}
	w.kind, w.normalized, w.host = "host_absolute", norm, norm
	if rel, ok := pRelativeTo(norm, rootNorm); ok && !escapes(rel) {
		w.workspace = rel
		return w
	}
	exists := func(p string) bool { _, err := c.Interp().Host().Stat(p); return err == nil }
	rest := strings.TrimLeft(strings.ReplaceAll(trimmed, "\\", "/"), "/")
	if strings.HasPrefix(strings.ReplaceAll(trimmed, "\\", "/"), "/") && rest != "" {
		cand := pLexical(rest)
		if cand != "." && !escapes(cand) && !exists(trimmed) {
			full := rootNorm + "/" + cand
			if exists(full) || exists(pParent(full)) {
				w.kind, w.normalized, w.workspace, w.host, w.drift = "workspace_relative", cand, cand, pLexical(full), true
			}
		}
	}
	return w
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

// Ext is the extension of p's last segment, without its dot ("" for
// none, and for a name that only starts with a dot).
func Ext(p string) string {
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

func segmentValues(p string) []harn.Value {
	var out []harn.Value
	for _, s := range strings.Split(p, "/") {
		if s != "" && s != "." {
			out = append(out, harn.Str(s))
		}
	}
	return out
}
