package compression

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"time"

	"github.com/harnlang/harn-check/runtime/harn"
)

// Compression and archives with Go's standard library: gzip_encode /
// gzip_decode, tar_create / tar_extract and zip_create / zip_extract
// (entries {path, content, mode?}, content a string or bytes; extraction
// gives bytes). zstd and brotli have no implementation in the standard
// library and stay "not available in this runtime". Decoding stops at
// maxArchiveBytes of output so a small bomb cannot exhaust memory.

const maxArchiveBytes = 256 << 20

// readCapped reads decompressed output, charging it to the run a chunk at
// a time: a decompression bomb stops at the memory budget (or the clock)
// while it inflates, not after.
func readCapped(c *harn.Call, name string, r io.Reader) ([]byte, error) {
	var b bytes.Buffer
	lr := io.LimitReader(r, maxArchiveBytes+1)
	for {
		n, err := io.CopyN(&b, lr, 1<<20)
		if cerr := c.Grew(n); cerr != nil {
			return nil, cerr
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, harn.ThrowValue(harn.Str(name + ": " + err.Error()))
		}
	}
	if b.Len() > maxArchiveBytes {
		return nil, harn.ThrowValue(harn.Str(name + ": output is larger than 256 MiB"))
	}
	return b.Bytes(), nil
}

type archiveEntry struct {
	path    string
	content []byte
	mode    int64
}

func archiveEntries(name string, v harn.Value) ([]archiveEntry, error) {
	if v.Kind() != harn.KindList {
		return nil, harn.Errorf("Type error: %s: expected a list of {path, content} dicts, got %s", name, v.TypeName())
	}
	var out []archiveEntry
	for _, x := range v.AsList().Items() {
		if x.Kind() != harn.KindDict {
			return nil, harn.Errorf("Type error: %s: each entry must be a dict", name)
		}
		d := x.AsDict()
		p := harn.OptStr(d, "path")
		if p == "" {
			return nil, harn.ThrowValue(harn.Str(name + ": an entry needs a path"))
		}
		c, _ := d.Get("content")
		e := archiveEntry{path: p, content: harn.BytesOf(c), mode: 0o644}
		if m := harn.OptInt(d, "mode"); m != nil {
			e.mode = *m
		}
		out = append(out, e)
	}
	return out, nil
}

func entryValue(path string, content []byte, mode int64) harn.Value {
	d := harn.NewDict(3)
	d.Set("path", harn.Str(path))
	d.Set("content", harn.BytesValue(content))
	d.Set("mode", harn.Int(mode))
	return harn.DictValue(d)
}

func install(lib *harn.Library) {
	lib.Builtin("gzip_encode", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		level := gzip.DefaultCompression
		if l := harn.Arg(args, 1); l.Kind() == harn.KindInt {
			level = int(min(max(l.AsInt(), gzip.HuffmanOnly), gzip.BestCompression))
		}
		var b bytes.Buffer
		w, err := gzip.NewWriterLevel(&b, level)
		if err != nil {
			return harn.Nil, harn.ThrowValue(harn.Str("gzip_encode: " + err.Error()))
		}
		w.Write(harn.BytesOf(harn.Arg(args, 0)))
		w.Close()
		return harn.BytesValue(b.Bytes()), nil
	})
	lib.Builtin("gzip_decode", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		r, err := gzip.NewReader(bytes.NewReader(harn.BytesOf(harn.Arg(args, 0))))
		if err != nil {
			return harn.Nil, harn.ThrowValue(harn.Str("gzip_decode: " + err.Error()))
		}
		b, err := readCapped(c, "gzip_decode", r)
		if err != nil {
			return harn.Nil, err
		}
		return harn.BytesValue(b), nil
	})
	lib.Builtin("tar_create", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		entries, err := archiveEntries("tar_create", harn.Arg(args, 0))
		if err != nil {
			return harn.Nil, err
		}
		var b bytes.Buffer
		w := tar.NewWriter(&b)
		for _, e := range entries {
			hdr := &tar.Header{Name: e.path, Mode: e.mode, Size: int64(len(e.content)), Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)}
			if err := w.WriteHeader(hdr); err != nil {
				return harn.Nil, harn.ThrowValue(harn.Str("tar_create: " + err.Error()))
			}
			w.Write(e.content)
		}
		if err := w.Close(); err != nil {
			return harn.Nil, harn.ThrowValue(harn.Str("tar_create: " + err.Error()))
		}
		return harn.BytesValue(b.Bytes()), nil
	})
	lib.Builtin("tar_extract", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		r := tar.NewReader(bytes.NewReader(harn.BytesOf(harn.Arg(args, 0))))
		var out []harn.Value
		total := 0
		for {
			hdr, err := r.Next()
			if err == io.EOF {
				return harn.NewListValue(out), nil
			}
			if err != nil {
				return harn.Nil, harn.ThrowValue(harn.Str("tar_extract: " + err.Error()))
			}
			if hdr.Typeflag != tar.TypeReg {
				continue
			}
			b, err := readCapped(c, "tar_extract", r)
			if err != nil {
				return harn.Nil, err
			}
			if total += len(b); total > maxArchiveBytes {
				return harn.Nil, harn.ThrowValue(harn.Str("tar_extract: output is larger than 256 MiB"))
			}
			out = append(out, entryValue(hdr.Name, b, hdr.Mode))
		}
	})
	lib.Builtin("zip_create", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		entries, err := archiveEntries("zip_create", harn.Arg(args, 0))
		if err != nil {
			return harn.Nil, err
		}
		var b bytes.Buffer
		w := zip.NewWriter(&b)
		for _, e := range entries {
			h := &zip.FileHeader{Name: e.path, Method: zip.Deflate}
			h.SetMode(0o644)
			if e.mode != 0 {
				h.SetMode(fsMode(e.mode))
			}
			f, err := w.CreateHeader(h)
			if err != nil {
				return harn.Nil, harn.ThrowValue(harn.Str("zip_create: " + err.Error()))
			}
			f.Write(e.content)
		}
		if err := w.Close(); err != nil {
			return harn.Nil, harn.ThrowValue(harn.Str("zip_create: " + err.Error()))
		}
		return harn.BytesValue(b.Bytes()), nil
	})
	lib.Builtin("zip_extract", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		data := harn.BytesOf(harn.Arg(args, 0))
		r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return harn.Nil, harn.ThrowValue(harn.Str("zip_extract: " + err.Error()))
		}
		var out []harn.Value
		total := 0
		for _, f := range r.File {
			if f.FileInfo().IsDir() {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return harn.Nil, harn.ThrowValue(harn.Str("zip_extract: " + err.Error()))
			}
			b, err := readCapped(c, "zip_extract", rc)
			rc.Close()
			if err != nil {
				return harn.Nil, err
			}
			if total += len(b); total > maxArchiveBytes {
				return harn.Nil, harn.ThrowValue(harn.Str("zip_extract: output is larger than 256 MiB"))
			}
			out = append(out, entryValue(f.Name, b, int64(f.Mode().Perm())))
		}
		return harn.NewListValue(out), nil
	})
}

// fsMode is a Unix permission number as a file mode.
func fsMode(m int64) fs.FileMode { return fs.FileMode(m) & fs.ModePerm }
