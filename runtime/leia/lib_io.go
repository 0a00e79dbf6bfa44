package leia

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/harnlang/harn-check/runtime/host"
)

// io, fs and the file parts of os. Every file-system operation goes
// through the interpreter's host (runtime/host): paths outside the
// program's folder, the temp dir and --allow-fs grants are denied there.
// Without a host there is no file-system access at all.

// errNoHost is the denial when the embedder gave no host.
var errNoHost = errors.New("file system access is not available (no host)")

func (in *Interp) host() (*host.Host, error) {
	if in.opts.Host == nil {
		return nil, errNoHost
	}
	return in.opts.Host, nil
}

// ioResult is Lua's failure protocol: nil, message.
func ioFail(t *Thread, err error) ([]Value, error) {
	return []Value{Nil, String(err.Error())}, nil
}

// fileHandle is an open file (or a standard stream).
type fileHandle struct {
	name   string
	f      *os.File
	r      *bufio.Reader
	w      io.Writer
	closed bool
	std    bool
}

func (fh *fileHandle) reader() *bufio.Reader {
	if fh.r == nil && fh.f != nil {
		fh.r = bufio.NewReader(fh.f)
	}
	return fh.r
}

func (in *Interp) fileMeta() *Table {
	if m := in.lib("io").GetStr("__filemeta"); m.k == KindTable {
		return m.Table()
	}
	return nil
}

func (in *Interp) newFile(fh *fileHandle) Value {
	return UserdataValue(&Userdata{Value: fh, Meta: in.fileMeta(), TypeName: "userdata"})
}

func checkFile(a []Value, i int, name string) (*fileHandle, error) {
	u := Arg(a, i).Userdata()
	if u == nil {
		return nil, typeError(i, name, "file", Arg(a, i))
	}
	fh, ok := u.Value.(*fileHandle)
	if !ok {
		return nil, typeError(i, name, "file", Arg(a, i))
	}
	if fh.closed {
		return nil, fmt.Errorf("attempt to use a closed file")
	}
	return fh, nil
}

func openIO(in *Interp) {
	ioT := in.moduleTable("io", 16)
	meta := NewTable(0, 4)
	methods := NewTable(0, 8)
	meta.SetStr("__index", TableValue(methods))
	meta.SetStr("__name", String("FILE*"))
	meta.SetStr("__tostring", NewNative("tostring", func(t *Thread, a []Value) ([]Value, error) {
		fh, _ := Arg(a, 0).Userdata().Value.(*fileHandle)
		if fh != nil && fh.closed {
			return t.Ret1(String("file (closed)")), nil
		}
		return t.Ret1(String("file (" + addrString(Arg(a, 0)) + ")")), nil
	}))
	ioT.SetStr("__filemeta", TableValue(meta))
	in.registerLib("io", ioT)

	stdout := &fileHandle{name: "stdout", w: writerFunc(func(p []byte) (int, error) {
		in.outMu.Lock()
		defer in.outMu.Unlock()
		return in.stdout.Write(p)
	}), std: true}
	stderr := &fileHandle{name: "stderr", w: in.stderr, std: true}
	stdin := &fileHandle{name: "stdin", r: bufio.NewReader(in.stdin), std: true}
	ioT.SetStr("stdout", in.newFile(stdout))
	ioT.SetStr("stderr", in.newFile(stderr))
	ioT.SetStr("stdin", in.newFile(stdin))
	curOut, curIn := stdout, stdin

	reg := func(t *Table, name string, fn NativeFunc) { t.SetStr(name, NewNative(name, fn)) }
	reg(ioT, "write", func(t *Thread, a []Value) ([]Value, error) {
		if err := writeValues(t, curOut, a, 0, "write"); err != nil {
			return ioFail(t, err)
		}
		return t.Ret1(ioT.GetStr("stdout")), nil
	})
	reg(ioT, "read", func(t *Thread, a []Value) ([]Value, error) { return readFormats(t, curIn, a, 0) })
	reg(ioT, "lines", func(t *Thread, a []Value) ([]Value, error) {
		if Arg(a, 0).k == KindNil {
			return t.Ret1(linesIter(curIn, false)), nil
		}
		p, err := CheckString(a, 0, "lines")
		if err != nil {
			return nil, err
		}
		fh, oerr := openFile(t.in, p, "r")
		if oerr != nil {
			return nil, oerr
		}
		return t.Ret1(linesIter(fh, true)), nil
	})
	reg(ioT, "open", func(t *Thread, a []Value) ([]Value, error) {
		p, err := CheckString(a, 0, "open")
		if err != nil {
			return nil, err
		}
		mode, err := OptString(a, 1, "open", "r")
		if err != nil {
			return nil, err
		}
		fh, oerr := openFile(t.in, p, mode)
		if oerr != nil {
			return ioFail(t, oerr)
		}
		return t.Ret1(t.in.newFile(fh)), nil
	})
	reg(ioT, "type", func(t *Thread, a []Value) ([]Value, error) {
		u := Arg(a, 0).Userdata()
		if u == nil {
			return t.Ret1(Nil), nil
		}
		fh, ok := u.Value.(*fileHandle)
		if !ok {
			return t.Ret1(Nil), nil
		}
		if fh.closed {
			return t.Ret1(String("closed file")), nil
		}
		return t.Ret1(String("file")), nil
	})
	reg(ioT, "close", func(t *Thread, a []Value) ([]Value, error) {
		if len(a) == 0 {
			return t.Ret1(True), nil
		}
		fh, err := checkFile(a, 0, "close")
		if err != nil {
			return nil, err
		}
		return closeFile(t, fh)
	})
	reg(ioT, "tmpfile", func(t *Thread, a []Value) ([]Value, error) {
		h, err := t.in.host()
		if err != nil {
			return ioFail(t, err)
		}
		f, cerr := os.CreateTemp(h.TempDir(), "leia-*")
		if cerr != nil {
			return ioFail(t, cerr)
		}
		return t.Ret1(t.in.newFile(&fileHandle{name: f.Name(), f: f, w: f})), nil
	})
	reg(ioT, "output", func(t *Thread, a []Value) ([]Value, error) {
		switch v := Arg(a, 0); v.k {
		case KindNil:
		case KindString:
			fh, err := openFile(t.in, v.AsString(), "w")
			if err != nil {
				return nil, err
			}
			curOut = fh
		default:
			fh, err := checkFile(a, 0, "output")
			if err != nil {
				return nil, err
			}
			curOut = fh
		}
		return t.Ret1(t.in.newFile(curOut)), nil
	})
	reg(ioT, "input", func(t *Thread, a []Value) ([]Value, error) {
		switch v := Arg(a, 0); v.k {
		case KindNil:
		case KindString:
			fh, err := openFile(t.in, v.AsString(), "r")
			if err != nil {
				return nil, err
			}
			curIn = fh
		default:
			fh, err := checkFile(a, 0, "input")
			if err != nil {
				return nil, err
			}
			curIn = fh
		}
		return t.Ret1(t.in.newFile(curIn)), nil
	})

	reg(methods, "write", func(t *Thread, a []Value) ([]Value, error) {
		fh, err := checkFile(a, 0, "write")
		if err != nil {
			return nil, err
		}
		if werr := writeValues(t, fh, a, 1, "write"); werr != nil {
			return ioFail(t, werr)
		}
		return t.Ret1(a[0]), nil
	})
	reg(methods, "read", func(t *Thread, a []Value) ([]Value, error) {
		fh, err := checkFile(a, 0, "read")
		if err != nil {
			return nil, err
		}
		return readFormats(t, fh, a, 1)
	})
	reg(methods, "lines", func(t *Thread, a []Value) ([]Value, error) {
		fh, err := checkFile(a, 0, "lines")
		if err != nil {
			return nil, err
		}
		return t.Ret1(linesIter(fh, false)), nil
	})
	reg(methods, "close", func(t *Thread, a []Value) ([]Value, error) {
		fh, err := checkFile(a, 0, "close")
		if err != nil {
			return nil, err
		}
		return closeFile(t, fh)
	})
	reg(methods, "flush", func(t *Thread, a []Value) ([]Value, error) {
		fh, err := checkFile(a, 0, "flush")
		if err != nil {
			return nil, err
		}
		if fh.f != nil {
			fh.f.Sync()
		}
		return t.Ret1(a[0]), nil
	})
	reg(methods, "seek", func(t *Thread, a []Value) ([]Value, error) {
		fh, err := checkFile(a, 0, "seek")
		if err != nil {
			return nil, err
		}
		whence, err := OptString(a, 1, "seek", "cur")
		if err != nil {
			return nil, err
		}
		off, err := OptInt(a, 2, "seek", 0)
		if err != nil {
			return nil, err
		}
		if fh.f == nil {
			return ioFail(t, fmt.Errorf("cannot seek a stream"))
		}
		w := io.SeekCurrent
		switch whence {
		case "set":
			w = io.SeekStart
		case "end":
			w = io.SeekEnd
		case "cur":
			if fh.r != nil {
				off -= int64(fh.r.Buffered())
			}
		default:
			return nil, ArgError(1, "seek", "invalid option '"+whence+"'")
		}
		pos, serr := fh.f.Seek(off, w)
		if serr != nil {
			return ioFail(t, serr)
		}
		fh.r = nil
		return t.Ret1(Int(pos)), nil
	})
	reg(methods, "setvbuf", func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(True), nil })

	openFS(in)
	openOSFiles(in)
}

type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func writeValues(t *Thread, fh *fileHandle, a []Value, from int, name string) error {
	if fh.w == nil {
		return fmt.Errorf("file not open for writing")
	}
	if fh.r != nil && fh.f != nil {
		// switch from reading to writing at the logical position
		fh.f.Seek(-int64(fh.r.Buffered()), io.SeekCurrent)
		fh.r = nil
	}
	for i := from; i < len(a); i++ {
		v := a[i]
		if v.k != KindString && !v.IsNumber() {
			return typeError(i, name, "string", v)
		}
		if _, err := io.WriteString(fh.w, concatPiece(v)); err != nil {
			return err
		}
	}
	return nil
}

func closeFile(t *Thread, fh *fileHandle) ([]Value, error) {
	if fh.std {
		return ioFail(t, fmt.Errorf("cannot close standard file"))
	}
	fh.closed = true
	if fh.f != nil {
		if err := fh.f.Close(); err != nil {
			return ioFail(t, err)
		}
	}
	return t.Ret1(True), nil
}

func openFile(in *Interp, p, mode string) (*fileHandle, error) {
	h, err := in.host()
	if err != nil {
		return nil, err
	}
	p = in.resolvePath(p)
	var f *os.File
	switch strings.TrimSuffix(mode, "b") {
	case "r":
		f, err = h.Open(p)
	case "w":
		f, err = h.Create(p)
	case "a":
		var rp string
		if rp, err = h.CheckPath("write", p); err == nil {
			f, err = os.OpenFile(rp, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		}
	case "r+", "w+", "a+":
		var rp string
		if rp, err = h.CheckPath("write", p); err == nil {
			flag := os.O_RDWR
			switch mode[0] {
			case 'w':
				flag |= os.O_CREATE | os.O_TRUNC
			case 'a':
				flag |= os.O_CREATE | os.O_APPEND
			}
			f, err = os.OpenFile(rp, flag, 0o644)
		}
	default:
		return nil, fmt.Errorf("invalid mode '%s'", mode)
	}
	if err != nil {
		return nil, err
	}
	fh := &fileHandle{name: p, f: f}
	if mode[0] != 'r' || strings.Contains(mode, "+") {
		fh.w = f
	}
	return fh, nil
}

func linesIter(fh *fileHandle, closeAtEOF bool) Value {
	return NewNative("lines_iterator", func(t *Thread, a []Value) ([]Value, error) {
		if fh.closed {
			return nil, fmt.Errorf("file is already closed")
		}
		r := fh.reader()
		if r == nil {
			return t.Ret1(Nil), nil
		}
		line, err := r.ReadString('\n')
		if err != nil && line == "" {
			if closeAtEOF && fh.f != nil {
				fh.closed = true
				fh.f.Close()
			}
			return t.Ret1(Nil), nil
		}
		return t.Ret1(String(strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"))), nil
	})
}

// readFormats implements file:read with "l", "L", "n", "a" and counts.
func readFormats(t *Thread, fh *fileHandle, a []Value, from int) ([]Value, error) {
	r := fh.reader()
	if r == nil {
		return ioFail(t, fmt.Errorf("file not open for reading"))
	}
	if len(a) <= from {
		a = append(a[:from:from], String("l"))
	}
	var out []Value
	for i := from; i < len(a); i++ {
		f := a[i]
		if f.IsNumber() {
			n, _ := toInteger(f)
			if n < 0 || n > int64(t.in.maxString) {
				return nil, ArgError(i, "read", "invalid count")
			}
			if n == 0 {
				if _, err := r.Peek(1); err != nil {
					out = append(out, Nil)
					return out, nil
				}
				out = append(out, String(""))
				continue
			}
			buf := make([]byte, n)
			k, _ := io.ReadFull(r, buf)
			if k == 0 {
				out = append(out, Nil)
				return out, nil
			}
			out = append(out, String(string(buf[:k])))
			continue
		}
		spec := strings.TrimPrefix(f.AsString(), "*")
		switch {
		case strings.HasPrefix(spec, "l"), strings.HasPrefix(spec, "L"):
			line, err := r.ReadString('\n')
			if err != nil && line == "" {
				out = append(out, Nil)
				return out, nil
			}
			if spec[0] == 'l' {
				line = strings.TrimSuffix(line, "\n")
			}
			out = append(out, String(line))
		case strings.HasPrefix(spec, "a"):
			b, _ := io.ReadAll(r)
			out = append(out, String(string(b)))
		case strings.HasPrefix(spec, "n"):
			out = append(out, readNumber(r))
			if out[len(out)-1].k == KindNil {
				return out, nil
			}
		default:
			return nil, ArgError(i, "read", "invalid format")
		}
	}
	return out, nil
}

func readNumber(r *bufio.Reader) Value {
	for {
		c, err := r.ReadByte()
		if err != nil {
			return Nil
		}
		if !isspace(c) {
			r.UnreadByte()
			break
		}
	}
	var b strings.Builder
	for b.Len() < 200 {
		c, err := r.ReadByte()
		if err != nil {
			break
		}
		if isxdigit(c) || c == '.' || c == '-' || c == '+' || c == 'x' || c == 'X' || c == 'p' || c == 'P' {
			b.WriteByte(c)
			continue
		}
		r.UnreadByte()
		break
	}
	v, ok := parseNumber(b.String())
	if !ok {
		return Nil
	}
	return v
}

// fs is the file-system module (paths relative to the program's folder).
func openFS(in *Interp) {
	withHost := func(name string, f func(t *Thread, h *host.Host, a []Value) ([]Value, error)) NativeFunc {
		return func(t *Thread, a []Value) ([]Value, error) {
			h, err := t.in.host()
			if err != nil {
				return ioFail(t, err)
			}
			return f(t, h, a)
		}
	}
	pathArg := func(a []Value, i int, name string) (string, error) {
		p, err := CheckString(a, i, name)
		return in.resolvePath(p), err
	}
	ok := func(t *Thread, err error) ([]Value, error) {
		if err != nil {
			return ioFail(t, err)
		}
		return t.Ret1(True), nil
	}
	newModule(in, "fs", map[string]NativeFunc{
		"readFile": withHost("readFile", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := pathArg(a, 0, "readFile")
			if err != nil {
				return nil, err
			}
			b, rerr := h.ReadFile(p)
			if rerr != nil {
				return ioFail(t, rerr)
			}
			return t.Ret1(String(string(b))), nil
		}),
		"writeFile": withHost("writeFile", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := pathArg(a, 0, "writeFile")
			if err != nil {
				return nil, err
			}
			data, err := CheckString(a, 1, "writeFile")
			if err != nil {
				return nil, err
			}
			return ok(t, h.WriteFile(p, []byte(data)))
		}),
		"appendFile": withHost("appendFile", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := pathArg(a, 0, "appendFile")
			if err != nil {
				return nil, err
			}
			data, err := CheckString(a, 1, "appendFile")
			if err != nil {
				return nil, err
			}
			return ok(t, h.AppendFile(p, []byte(data)))
		}),
		"exists": withHost("exists", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := pathArg(a, 0, "exists")
			if err != nil {
				return nil, err
			}
			_, serr := h.Stat(p)
			return t.Ret1(Bool(serr == nil)), nil
		}),
		"isDir": withHost("isDir", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := pathArg(a, 0, "isDir")
			if err != nil {
				return nil, err
			}
			st, serr := h.Stat(p)
			return t.Ret1(Bool(serr == nil && st.IsDir())), nil
		}),
		"isFile": withHost("isFile", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := pathArg(a, 0, "isFile")
			if err != nil {
				return nil, err
			}
			st, serr := h.Stat(p)
			return t.Ret1(Bool(serr == nil && st.Mode().IsRegular())), nil
		}),
		"stat": withHost("stat", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := pathArg(a, 0, "stat")
			if err != nil {
				return nil, err
			}
			st, serr := h.Stat(p)
			if serr != nil {
				return ioFail(t, serr)
			}
			r := NewTable(0, 5)
			r.SetStr("name", String(st.Name()))
			r.SetStr("size", Int(st.Size()))
			r.SetStr("isDir", Bool(st.IsDir()))
			r.SetStr("isdir", Bool(st.IsDir()))
			r.SetStr("isfile", Bool(st.Mode().IsRegular()))
			r.SetStr("isFile", Bool(st.Mode().IsRegular()))
			r.SetStr("mode", Int(int64(st.Mode().Perm())))
			r.SetStr("modTime", Int(st.ModTime().Unix()))
			return t.Ret1(TableValue(r)), nil
		}),
		"mkdir": withHost("mkdir", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := pathArg(a, 0, "mkdir")
			if err != nil {
				return nil, err
			}
			return ok(t, h.Mkdir(p, Arg(a, 1).Truthy()))
		}),
		"mkdirAll": withHost("mkdirAll", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := pathArg(a, 0, "mkdirAll")
			if err != nil {
				return nil, err
			}
			return ok(t, h.Mkdir(p, true))
		}),
		"remove": withHost("remove", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := pathArg(a, 0, "remove")
			if err != nil {
				return nil, err
			}
			return ok(t, h.Remove(p, false))
		}),
		"removeAll": withHost("removeAll", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := pathArg(a, 0, "removeAll")
			if err != nil {
				return nil, err
			}
			return ok(t, h.Remove(p, true))
		}),
		"rename": withHost("rename", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := pathArg(a, 0, "rename")
			if err != nil {
				return nil, err
			}
			q, err := pathArg(a, 1, "rename")
			if err != nil {
				return nil, err
			}
			return ok(t, h.Rename(p, q))
		}),
		"readDir": withHost("readDir", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			p, err := OptString(a, 0, "readDir", ".")
			if err != nil {
				return nil, err
			}
			ents, rerr := h.ReadDir(p)
			if rerr != nil {
				return ioFail(t, rerr)
			}
			names := make([]string, 0, len(ents))
			for _, e := range ents {
				names = append(names, e.Name())
			}
			sort.Strings(names)
			return t.Ret1(FromGo(names)), nil
		}),
		"tempDir": withHost("tempDir", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			return t.Ret1(String(h.TempDir())), nil
		}),
		"mkdirTemp": withHost("mkdirTemp", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
			pat, err := OptString(a, 0, "mkdirTemp", "leia-*")
			if err != nil {
				return nil, err
			}
			d, merr := h.MkdirTemp(pat)
			if merr != nil {
				return ioFail(t, merr)
			}
			return t.Ret1(String(d)), nil
		}),
	})
	m := in.lib("fs")
	m.SetStr("tempfile", NewNative("tempfile", withHost("tempfile", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
		dir := h.TempDir()
		if d := Arg(a, 0); d.k == KindString {
			dir = d.AsString()
		}
		prefix, err := OptString(a, 1, "tempfile", "leia-")
		if err != nil {
			return nil, err
		}
		if _, cerr := h.CheckPath("write", filepath.Join(dir, prefix)); cerr != nil {
			return ioFail(t, cerr)
		}
		f, cerr := os.CreateTemp(h.Abs(dir), prefix+"*")
		if cerr != nil {
			return ioFail(t, cerr)
		}
		f.Close()
		return t.Ret1(String(f.Name())), nil
	})))
	m.SetStr("cwd", NewNative("cwd", func(t *Thread, a []Value) ([]Value, error) {
		return t.Ret1(String(t.in.resolvePath("."))), nil
	}))
	m.SetStr("chdir", NewNative("chdir", withHost("chdir", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
		p, err := pathArg(a, 0, "chdir")
		if err != nil {
			return nil, err
		}
		st, serr := h.Stat(p)
		if serr != nil {
			return ioFail(t, serr)
		}
		if !st.IsDir() {
			return ioFail(t, fmt.Errorf("%s: not a directory", p))
		}
		t.in.cwd = filepath.Clean(p)
		return t.Ret2(True, Nil), nil
	})))
	m.SetStr("glob", NewNative("glob", withHost("glob", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
		pat, err := CheckString(a, 0, "glob")
		if err != nil {
			return nil, err
		}
		if _, perr := filepath.Match(pat, ""); perr != nil {
			return ioFail(t, perr)
		}
		abs := t.in.resolvePath(pat)
		if _, cerr := h.CheckPath("read", filepath.Dir(abs)); cerr != nil {
			return ioFail(t, cerr)
		}
		matches, gerr := filepath.Glob(abs)
		if gerr != nil {
			return ioFail(t, gerr)
		}
		sort.Strings(matches)
		if !filepath.IsAbs(pat) {
			for i, mt := range matches {
				if r, rerr := filepath.Rel(t.in.resolvePath("."), mt); rerr == nil {
					matches[i] = r
				}
			}
		}
		out := NewTable(len(matches), 0)
		for _, mt := range matches {
			out.Append(String(mt))
		}
		return t.Ret2(TableValue(out), Nil), nil
	})))
	m.SetStr("copy", NewNative("copy", withHost("copy", func(t *Thread, h *host.Host, a []Value) ([]Value, error) {
		from, err := CheckString(a, 0, "copy")
		if err != nil {
			return nil, err
		}
		to, err := CheckString(a, 1, "copy")
		if err != nil {
			return nil, err
		}
		data, rerr := h.ReadFile(from)
		if rerr != nil {
			return ioFail(t, rerr)
		}
		return ok(t, h.WriteFile(to, data))
	})))
	// In a fixed order: the table's iteration order is its insertion order.
	for _, a := range [...]struct{ alias, name string }{{"read", "readFile"}, {"write", "writeFile"}, {"append", "appendFile"}, {"list", "readDir"}, {"ls", "readDir"},
		{"readfile", "readFile"}, {"writefile", "writeFile"}, {"appendfile", "appendFile"}, {"readdir", "readDir"}, {"isfile", "isFile"}, {"isdir", "isDir"},
		{"mkdirall", "mkdirAll"}, {"removeall", "removeAll"}, {"tempdir", "tempDir"}} {
		m.SetStr(a.alias, m.GetStr(a.name))
	}
	join := func(a []Value) []string {
		var ps []string
		for _, v := range a {
			ps = append(ps, concatPiece(v))
		}
		return ps
	}
	pm := newModule(in, "path", map[string]NativeFunc{
		"join":  func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(String(filepath.Join(join(a)...))), nil },
		"base":  str1(specOf("path.base"), filepath.Base),
		"dir":   str1(specOf("path.dir"), filepath.Dir),
		"ext":   str1(specOf("path.ext"), filepath.Ext),
		"clean": str1(specOf("path.clean"), filepath.Clean),
		"isAbs": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "isAbs")
			return t.Ret1(Bool(filepath.IsAbs(s))), err
		},
		"split": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "split")
			d, f := filepath.Split(s)
			return t.Ret2(String(d), String(f)), err
		},
		"abs": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "abs")
			if err != nil {
				return nil, err
			}
			return t.Ret2(String(filepath.Clean(t.in.resolvePath(s))), Nil), nil
		},
		"rel": func(t *Thread, a []Value) ([]Value, error) {
			b, err := CheckString(a, 0, "rel")
			if err != nil {
				return nil, err
			}
			p, err := CheckString(a, 1, "rel")
			if err != nil {
				return nil, err
			}
			r, rerr := filepath.Rel(b, p)
			return strResult(t, r, rerr)
		},
		"match": func(t *Thread, a []Value) ([]Value, error) {
			pat, err := CheckString(a, 0, "match")
			if err != nil {
				return nil, err
			}
			s, err := CheckString(a, 1, "match")
			if err != nil {
				return nil, err
			}
			ok, merr := filepath.Match(pat, s)
			if merr != nil {
				return t.Ret2(False, String(merr.Error())), nil
			}
			return t.Ret1(Bool(ok)), nil
		},
	})
	pm.SetStr("separator", String(string(filepath.Separator)))
	pm.SetStr("listSeparator", String(string(filepath.ListSeparator)))
}

// openOSFiles adds the host-backed parts of os.
func openOSFiles(in *Interp) {
	o := in.lib("os")
	reg := func(name string, fn NativeFunc) { o.SetStr(name, NewNative(name, fn)) }
	reg("remove", func(t *Thread, a []Value) ([]Value, error) {
		p, err := CheckString(a, 0, "remove")
		if err != nil {
			return nil, err
		}
		p = t.in.resolvePath(p)
		h, herr := t.in.host()
		if herr != nil {
			return ioFail(t, herr)
		}
		if rerr := h.Remove(p, false); rerr != nil {
			return ioFail(t, rerr)
		}
		return t.Ret1(True), nil
	})
	reg("rename", func(t *Thread, a []Value) ([]Value, error) {
		p, err := CheckString(a, 0, "rename")
		if err != nil {
			return nil, err
		}
		q, err := CheckString(a, 1, "rename")
		if err != nil {
			return nil, err
		}
		h, herr := t.in.host()
		if herr != nil {
			return ioFail(t, herr)
		}
		if rerr := h.Rename(t.in.resolvePath(p), t.in.resolvePath(q)); rerr != nil {
			return ioFail(t, rerr)
		}
		return t.Ret1(True), nil
	})
	reg("tmpname", func(t *Thread, a []Value) ([]Value, error) {
		h, herr := t.in.host()
		if herr != nil {
			return nil, herr
		}
		f, err := os.CreateTemp(h.TempDir(), "leia-")
		if err != nil {
			return nil, err
		}
		f.Close()
		return t.Ret1(String(f.Name())), nil
	})
	reg("setenv", func(t *Thread, a []Value) ([]Value, error) {
		k, err := CheckString(a, 0, "setenv")
		if err != nil {
			return nil, err
		}
		h, herr := t.in.host()
		if herr != nil {
			return ioFail(t, herr)
		}
		if Arg(a, 1).k == KindNil {
			h.UnsetEnv(k)
			return t.Ret1(True), nil
		}
		v := Arg(a, 1)
		if v.k != KindString {
			return nil, typeError(1, "setenv", "string", v)
		}
		h.SetEnv(k, v.AsString())
		return t.Ret1(True), nil
	})
	reg("expand", func(t *Thread, a []Value) ([]Value, error) {
		if Arg(a, 0).k != KindString {
			return nil, typeError(0, "expand", "string", Arg(a, 0))
		}
		s := a[0].AsString()
		h, _ := t.in.host()
		return t.Ret1(String(os.Expand(s, func(k string) string {
			if h == nil {
				return ""
			}
			v, _ := h.LookupEnv(k)
			return v
		}))), nil
	})
	reg("unsetenv", func(t *Thread, a []Value) ([]Value, error) {
		k, err := CheckString(a, 0, "unsetenv")
		if err != nil {
			return nil, err
		}
		h, herr := t.in.host()
		if herr != nil {
			return ioFail(t, herr)
		}
		h.UnsetEnv(k)
		return t.Ret1(True), nil
	})
}

func pathMatch(pat, s string) (bool, error) { return filepath.Match(pat, s) }

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
