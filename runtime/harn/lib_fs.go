package harn

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unicode"

	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/runtime/host"
)

// File builtins. Every path goes through the host: relative paths resolve
// against the program's folder, and anything outside it, the temp dir
// and --allow-fs grants is denied with an error naming the flag.

// ioError renders an OS error the way upstream's messages read
// ("No such file or directory (os error 2)"); a denial passes through.
func ioError(prefix string, err error) error {
	var d *host.DeniedError
	if errors.As(err, &d) {
		return &Error{Value: Str(d.Error()), Category: "permission_denied"}
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		msg := errno.Error()
		if msg != "" {
			r := []rune(msg)
			r[0] = unicode.ToUpper(r[0])
			msg = string(r)
		}
		return throwValue(Str(prefix + ": " + msg + " (os error " + strconv.Itoa(int(errno)) + ")"))
	}
	return throwValue(Str(prefix + ": " + err.Error()))
}

func installFs(lib *Library) {
	hostOf := func(c *Call) *host.Host { return c.th.in.host }
	lib.Builtin("read_file", WithText("read_file", func(c *Call, p string, _ []Value) (Value, error) {
		var b []byte
		var err error
		c.Block(func() { b, err = hostOf(c).ReadFile(p) })
		if err != nil {
			return Nil, ioError("Failed to read file "+hostOf(c).Abs(p), err)
		}
		return Str(string(b)), nil
	}))
	lib.Builtin("read_file_result", WithText("read_file_result", func(c *Call, p string, _ []Value) (Value, error) {
		var b []byte
		var err error
		c.Block(func() { b, err = hostOf(c).ReadFile(p) })
		if err != nil {
			return resultErr(asError(ioError("Failed to read file "+hostOf(c).Abs(p), err)).Value), nil
		}
		return resultOkRaw(Str(string(b))), nil
	}))
	lib.Builtin("read_file_bytes", WithText("read_file_bytes", func(c *Call, p string, _ []Value) (Value, error) {
		b, err := hostOf(c).ReadFile(p)
		if err != nil {
			return Nil, ioError("Failed to read file "+hostOf(c).Abs(p), err)
		}
		return BytesValue(b), nil
	}))
	lib.Builtin("read_lines", WithText("read_lines", func(c *Call, p string, _ []Value) (Value, error) {
		b, err := hostOf(c).ReadFile(p)
		if err != nil {
			return Nil, ioError("Failed to read file "+hostOf(c).Abs(p), err)
		}
		return c.th.kindMethod("string", Str(string(b)), "lines", nil)
	}))
	write := func(name string, appendMode bool) {
		spec := ArgsOf(name)
		lib.Builtin(name, func(c *Call, args []Value) (Value, error) {
			if len(args) < 2 {
				return Nil, throwValue(Str(name + ": path and content are required"))
			}
			var p string
			var data []byte
			if err := spec.Unpack(c, args, AsText(&p), AsBytes(&data)); err != nil {
				return Nil, err
			}
			var err error
			c.Block(func() {
				if appendMode {
					err = hostOf(c).AppendFile(p, data)
				} else {
					err = hostOf(c).WriteFile(p, data)
				}
			})
			if err != nil {
				return Nil, ioError("Failed to write file "+hostOf(c).Abs(p), err)
			}
			return Nil, nil
		})
	}
	write("write_file", false)
	write("write_file_bytes", false)
	write("append_file", true)
	lib.Builtin("file_exists", WithText("file_exists", func(c *Call, p string, _ []Value) (Value, error) {
		_, err := hostOf(c).Stat(p)
		var d *host.DeniedError
		if errors.As(err, &d) {
			return Nil, ioError("file_exists", err)
		}
		return Bool(err == nil), nil
	}))
	lib.Builtin("delete_file", WithText("delete_file", func(c *Call, p string, _ []Value) (Value, error) {
		fi, err := hostOf(c).Lstat(p)
		if err != nil {
			return Nil, ioError("Failed to delete file "+hostOf(c).Abs(p), err)
		}
		if fi.IsDir() {
			if err := hostOf(c).Remove(p, true); err != nil {
				return Nil, ioError("Failed to delete directory "+hostOf(c).Abs(p), err)
			}
			return Nil, nil
		}
		if err := hostOf(c).Remove(p, false); err != nil {
			return Nil, ioError("Failed to delete file "+hostOf(c).Abs(p), err)
		}
		return Nil, nil
	}))
	lib.Builtin("mkdir", WithText("mkdir", func(c *Call, p string, _ []Value) (Value, error) {
		if err := hostOf(c).Mkdir(p, true); err != nil {
			return Nil, ioError("Failed to create directory "+hostOf(c).Abs(p), err)
		}
		return Nil, nil
	}))
	lib.Builtin("list_dir", func(c *Call, args []Value) (Value, error) {
		p := "."
		if len(args) > 0 {
			p = Display(args[0])
		}
		entries, err := hostOf(c).ReadDir(p)
		if err != nil {
			return Nil, ioError("Failed to list directory "+hostOf(c).Abs(p), err)
		}
		out := make([]Value, len(entries))
		for i, e := range entries {
			out[i] = Str(e.Name())
		}
		return NewListValue(out), nil
	})
	lib.Builtin("stat", WithText("stat", func(c *Call, p string, _ []Value) (Value, error) {
		fi, err := hostOf(c).Stat(p)
		if err != nil {
			return Nil, ioError("Failed to stat "+hostOf(c).Abs(p), err)
		}
		d := NewDict(5)
		d.Set("size", Int(fi.Size()))
		d.Set("is_file", Bool(fi.Mode().IsRegular()))
		d.Set("is_dir", Bool(fi.IsDir()))
		d.Set("readonly", Bool(fi.Mode().Perm()&0o222 == 0))
		d.Set("modified", Float(float64(fi.ModTime().UnixNano())/1e9))
		return DictValue(d), nil
	}))
	copyArgs := ArgsOf("copy_file")
	lib.Builtin("copy_file", func(c *Call, args []Value) (Value, error) {
		var src, dst string
		if err := copyArgs.Unpack(c, args, AsText(&src), AsText(&dst)); err != nil {
			return Nil, err
		}
		b, err := hostOf(c).ReadFile(src)
		if err != nil {
			return Nil, ioError("Failed to copy file "+hostOf(c).Abs(src), err)
		}
		if err := hostOf(c).WriteFile(dst, b); err != nil {
			return Nil, ioError("Failed to copy file to "+hostOf(c).Abs(dst), err)
		}
		return Nil, nil
	})
	moveArgs := ArgsOf("move_file")
	lib.Builtin("move_file", func(c *Call, args []Value) (Value, error) {
		var src, dst string
		if err := moveArgs.Unpack(c, args, AsText(&src), AsText(&dst)); err != nil {
			return Nil, err
		}
		if err := hostOf(c).Rename(src, dst); err != nil {
			return Nil, ioError("Failed to move file "+hostOf(c).Abs(src), err)
		}
		return Nil, nil
	})
	lib.Builtin("temp_dir", func(c *Call, args []Value) (Value, error) { return Str(hostOf(c).TempDir()), nil })
	lib.Builtin("walk_dir", func(c *Call, args []Value) (Value, error) {
		root := Display(Arg(args, 0))
		real, err := hostOf(c).CheckPath("read", root)
		if err != nil {
			return Nil, ioError("walk_dir", err)
		}
		maxDepth := int64(-1)
		if o := Arg(args, 1); o.k == KindDict {
			if d, ok := o.r.(*Dict).Get("max_depth"); ok && d.k == KindInt {
				maxDepth = int64(d.n)
			}
		}
		var out []Value
		err = filepath.WalkDir(real, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(real, p)
			depth := int64(strings.Count(rel, string(filepath.Separator)) + 1)
			if p == real {
				depth = 0
			}
			if maxDepth >= 0 && depth > maxDepth {
				if e.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			d := NewDict(4)
			d.Set("path", Str(filepath.Join(root, rel)))
			d.Set("is_dir", Bool(e.IsDir()))
			d.Set("is_file", Bool(e.Type().IsRegular()))
			d.Set("depth", Int(depth))
			out = append(out, DictValue(d))
			return nil
		})
		if err != nil {
			return Nil, ioError("walk_dir", err)
		}
		return NewListValue(out), nil
	})
	lib.Builtin("glob", func(c *Call, args []Value) (Value, error) {
		pattern := Display(Arg(args, 0))
		base := "."
		if b := Arg(args, 1); b.k == KindString {
			base = b.r.(string)
		}
		realBase, err := hostOf(c).CheckPath("read", base)
		if err != nil {
			return Nil, ioError("glob", err)
		}
		var out []string
		_ = filepath.WalkDir(realBase, func(p string, e fs.DirEntry, err error) error {
			if err != nil || p == realBase {
				return nil
			}
			rel, _ := filepath.Rel(realBase, p)
			if sourcefs.GlobMatch(pattern, filepath.ToSlash(rel)) {
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
		sort.Strings(out)
		vs := make([]Value, len(out))
		for i, s := range out {
			vs[i] = Str(s)
		}
		return NewListValue(vs), nil
	})
	lib.Builtin("read_stdin", func(c *Call, args []Value) (Value, error) {
		if s, ok := mockedStdinAll(c); ok {
			return Str(s), nil
		}
		var b []byte
		var err error
		c.Block(func() { b, err = readAll(hostOf(c).Stdin()) })
		if err != nil || len(b) == 0 {
			return Nil, nil
		}
		return Str(string(b)), nil
	})
}

func readAll(r interface{ Read([]byte) (int, error) }) ([]byte, error) {
	var out []byte
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			if err.Error() == "EOF" {
				return out, nil
			}
			return out, err
		}
	}
}

var _ = os.ErrNotExist
