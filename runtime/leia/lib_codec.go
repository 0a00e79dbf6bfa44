package leia

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"html"
	"io"
	"sort"
	"strings"
	"sync"
)

// Encoding, hashing, compression and CSV modules. Decoders return the
// value, or nil and an error string; misuse (a missing argument) raises.

func newModule(in *Interp, name string, funcs map[string]NativeFunc) *Table {
	m := in.moduleTable(name, len(funcs))
	natives := make([]Native, len(funcs)) // one allocation for all
	for i, k := range sortedKeys(funcs) {
		natives[i] = Native{Name: k, Fn: funcs[k]}
		m.SetStr(k, NativeValue(&natives[i]))
	}
	in.registerLib(name, m)
	return m
}

// strResult returns s, or nil and err's message.
func strResult(t *Thread, s string, err error) ([]Value, error) {
	if err != nil {
		return t.Ret2(Nil, String(err.Error())), nil
	}
	return t.Ret1(String(s)), nil
}

// str1 is a builtin of one string, unpacked by its table entry sp.
func str1(sp *argSpec, f func(string) string) NativeFunc {
	return func(t *Thread, a []Value) ([]Value, error) {
		var s string
		if err := sp.unpack(a, &s); err != nil {
			return nil, err
		}
		return t.Ret1(String(f(s))), nil
	}
}

// str1err is str1 for a conversion that can fail: its result, or nil
// and the error's message.
func str1err(sp *argSpec, f func(string) (string, error)) NativeFunc {
	return func(t *Thread, a []Value) ([]Value, error) {
		var s string
		if err := sp.unpack(a, &s); err != nil {
			return nil, err
		}
		out, ferr := f(s)
		return strResult(t, out, ferr)
	}
}

func openCodecs(in *Interp) {
	b64 := func(enc *base64.Encoding) (func(string) string, func(string) (string, error)) {
		return func(s string) string { return enc.EncodeToString([]byte(s)) },
			func(s string) (string, error) {
				b, err := enc.DecodeString(s)
				return string(b), err
			}
	}
	stdE, stdD := b64(base64.StdEncoding)
	// url* is the unpadded URL alphabet (RFC 4648 section 5 without
	// '='); padded input is malformed there.
	urlE, urlD := b64(base64.RawURLEncoding.Strict())
	rawE, rawD := b64(base64.RawStdEncoding)
	rawURLE, rawURLD := b64(base64.RawURLEncoding)
	newModule(in, "base64", map[string]NativeFunc{
		"encode":       str1(specOf("base64.encode"), stdE),
		"decode":       str1err(specOf("base64.decode"), stdD),
		"urlEncode":    str1(specOf("base64.urlEncode"), urlE),
		"urlDecode":    str1err(specOf("base64.urlDecode"), urlD),
		"rawEncode":    str1(specOf("base64.rawEncode"), rawE),
		"rawDecode":    str1err(specOf("base64.rawDecode"), rawD),
		"rawUrlEncode": str1(specOf("base64.rawUrlEncode"), rawURLE),
		"rawUrlDecode": str1err(specOf("base64.rawUrlDecode"), rawURLD),
		"rawURLEncode": str1(specOf("base64.rawURLEncode"), rawURLE),
		"rawURLDecode": str1err(specOf("base64.rawURLDecode"), rawURLD),
	})
	hexSum := func(name string, f func([]byte) []byte) NativeFunc {
		return str1(specOf("hash."+name), func(s string) string { return hex.EncodeToString(f([]byte(s))) })
	}
	hmacSum := func(name string, newHash string) NativeFunc {
		sp := specOf("hash." + name)
		return func(t *Thread, a []Value) ([]Value, error) {
			var key, msg string
			if err := sp.unpack(a, &key, &msg); err != nil {
				return nil, err
			}
			var m interface {
				Write([]byte) (int, error)
				Sum([]byte) []byte
			}
			switch newHash {
			case "sha1":
				m = hmac.New(sha1.New, []byte(key))
			case "sha512":
				m = hmac.New(sha512.New, []byte(key))
			case "md5":
				m = hmac.New(md5.New, []byte(key))
			default:
				m = hmac.New(sha256.New, []byte(key))
			}
			m.Write([]byte(msg))
			return t.Ret1(String(hex.EncodeToString(m.Sum(nil)))), nil
		}
	}
	crc32Spec := specOf("hash.crc32")
	newModule(in, "hash", map[string]NativeFunc{
		"md5":    hexSum("md5", func(b []byte) []byte { s := md5.Sum(b); return s[:] }),
		"sha1":   hexSum("sha1", func(b []byte) []byte { s := sha1.Sum(b); return s[:] }),
		"sha256": hexSum("sha256", func(b []byte) []byte { s := sha256.Sum256(b); return s[:] }),
		"sha512": hexSum("sha512", func(b []byte) []byte { s := sha512.Sum512(b); return s[:] }),
		"crc32": func(t *Thread, a []Value) ([]Value, error) {
			var s string
			err := crc32Spec.unpack(a, &s)
			return t.Ret1(Int(int64(crc32.ChecksumIEEE([]byte(s))))), err
		},
		"hmacSHA256": hmacSum("hmacSHA256", "sha256"),
		"hmacSha256": hmacSum("hmacSha256", "sha256"),
		"hmacSHA1":   hmacSum("hmacSHA1", "sha1"),
		"hmacSHA512": hmacSum("hmacSHA512", "sha512"),
		"hmacMD5":    hmacSum("hmacMD5", "md5"),
		"hmac":       hmacSum("hmac", "sha256"),
	})
	// The base32 functions name themselves encode and decode in messages.
	b32 := func(enc *base32.Encoding, encPath, decPath string) (NativeFunc, NativeFunc) {
		return str1(specOf(encPath).named("encode"), func(s string) string { return enc.EncodeToString([]byte(s)) }),
			str1err(specOf(decPath).named("decode"), func(s string) (string, error) { b, err := enc.DecodeString(s); return string(b), err })
	}
	b32e, b32d := b32(base32.StdEncoding, "encoding.base32Encode", "encoding.base32Decode")
	b32he, b32hd := b32(base32.HexEncoding.WithPadding(base32.NoPadding), "encoding.base32HexEncode", "encoding.base32HexDecode")
	newModule(in, "encoding", map[string]NativeFunc{
		"hexEncode":       str1(specOf("encoding.hexEncode"), func(s string) string { return hex.EncodeToString([]byte(s)) }),
		"hexDecode":       str1err(specOf("encoding.hexDecode"), func(s string) (string, error) { b, err := hex.DecodeString(s); return string(b), err }),
		"base32Encode":    b32e,
		"base32Decode":    b32d,
		"base32HexEncode": b32he,
		"base32HexDecode": b32hd,
		"base64Encode":    str1(specOf("encoding.base64Encode"), stdE),
		"base64Decode":    str1err(specOf("encoding.base64Decode"), stdD),
		"xmlEscape": str1(specOf("encoding.xmlEscape"), func(s string) string {
			var b bytes.Buffer
			xmlEscapeText(&b, s)
			return b.String()
		}),
		"xmlUnescape":  str1err(specOf("encoding.xmlUnescape"), func(s string) (string, error) { return html.UnescapeString(s), nil }),
		"htmlEscape":   str1(specOf("encoding.htmlEscape"), html.EscapeString),
		"htmlUnescape": str1(specOf("encoding.htmlUnescape"), html.UnescapeString),
		"iniEncode":    iniEncodeNative,
		"iniDecode": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "iniDecode")
			if err != nil {
				return nil, err
			}
			v, derr := decodeINI(s)
			if derr != nil {
				return t.Ret2(Nil, String(derr.Error())), nil
			}
			return t.Ret1(v), nil
		},
	})
	comp := func(name string, enc func(w io.Writer, level int) (io.WriteCloser, error), dec func(r io.Reader) (io.Reader, error)) (NativeFunc, NativeFunc) {
		return func(t *Thread, a []Value) ([]Value, error) {
				s, err := CheckString(a, 0, name+"Encode")
				if err != nil {
					return nil, err
				}
				level, err := OptInt(a, 1, name+"Encode", -1)
				if err != nil {
					return nil, err
				}
				if level < -2 || level > 9 {
					level = -1
				}
				var buf bytes.Buffer
				w, werr := enc(&buf, int(level))
				if werr != nil {
					w, _ = enc(&buf, -1)
				}
				w.Write([]byte(s))
				w.Close()
				return t.Ret1(String(buf.String())), nil
			}, func(t *Thread, a []Value) ([]Value, error) {
				s, err := CheckString(a, 0, name+"Decode")
				if err != nil {
					return nil, err
				}
				r, derr := dec(strings.NewReader(s))
				if derr != nil {
					return t.Ret2(Nil, String(derr.Error())), nil
				}
				out, rerr := t.readAllCharged(io.LimitReader(r, int64(t.in.maxString)+1))
				if rerr != nil {
					return t.Ret2(Nil, String(rerr.Error())), nil
				}
				if len(out) > t.in.maxString {
					return t.Ret2(Nil, String("decompressed data too large")), nil
				}
				return t.Ret1(String(string(out))), nil
			}
	}
	// Compressors are pooled per level: a new one allocates hundreds of
	// kilobytes of tables.
	gzE, gzD := comp("gzip", func(w io.Writer, l int) (io.WriteCloser, error) {
		return pooledWriter(&gzipPools, l, w, func(w io.Writer, l int) (resetWriter, error) { return gzip.NewWriterLevel(w, l) })
	}, func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) })
	zlE, zlD := comp("zlib", func(w io.Writer, l int) (io.WriteCloser, error) {
		return pooledWriter(&zlibPools, l, w, func(w io.Writer, l int) (resetWriter, error) { return zlib.NewWriterLevel(w, l) })
	}, func(r io.Reader) (io.Reader, error) { return zlib.NewReader(r) })
	dfE, dfD := comp("deflate", func(w io.Writer, l int) (io.WriteCloser, error) {
		return pooledWriter(&flatePools, l, w, func(w io.Writer, l int) (resetWriter, error) { return flate.NewWriter(w, l) })
	}, func(r io.Reader) (io.Reader, error) { return flate.NewReader(r), nil })
	newModule(in, "compress", map[string]NativeFunc{
		"gzipEncode": gzE, "gzipDecode": gzD,
		"zlibEncode": zlE, "zlibDecode": zlD,
		"deflateEncode": dfE, "deflateDecode": dfD,
	})
	newModule(in, "crypto", map[string]NativeFunc{
		"equal": func(t *Thread, a []Value) ([]Value, error) {
			x, err := CheckString(a, 0, "equal")
			if err != nil {
				return nil, err
			}
			y, err := CheckString(a, 1, "equal")
			if err != nil {
				return nil, err
			}
			return t.Ret1(Bool(subtle.ConstantTimeCompare([]byte(x), []byte(y)) == 1)), nil
		},
		"randomBytes": func(t *Thread, a []Value) ([]Value, error) {
			n, err := CheckInt(a, 0, "randomBytes")
			if err != nil {
				return nil, err
			}
			if n < 0 || n > 1<<20 {
				return nil, ArgError(0, "randomBytes", "size out of range")
			}
			b := make([]byte, n)
			rand.Read(b)
			return t.Ret1(String(string(b))), nil
		},
		"randomHex": func(t *Thread, a []Value) ([]Value, error) {
			n, err := CheckInt(a, 0, "randomHex")
			if err != nil {
				return nil, err
			}
			if n < 0 || n > 1<<20 {
				return nil, ArgError(0, "randomHex", "size out of range")
			}
			b := make([]byte, n)
			rand.Read(b)
			return t.Ret1(String(hex.EncodeToString(b))), nil
		},
		"generateKey": func(t *Thread, a []Value) ([]Value, error) {
			n, err := OptInt(a, 0, "generateKey", 32)
			if err != nil {
				return nil, err
			}
			if n != 16 && n != 24 && n != 32 {
				return nil, ArgError(0, "generateKey", "key size must be 16, 24 or 32")
			}
			b := make([]byte, n)
			rand.Read(b)
			return t.Ret1(String(string(b))), nil
		},
		"aesGcmEncrypt": func(t *Thread, a []Value) ([]Value, error) {
			key, err := CheckString(a, 0, "aesGcmEncrypt")
			if err != nil {
				return nil, err
			}
			pt, err := CheckString(a, 1, "aesGcmEncrypt")
			if err != nil {
				return nil, err
			}
			gcm, gerr := newGCM(key)
			if gerr != nil {
				return t.Ret2(Nil, String(gerr.Error())), nil
			}
			nonce := make([]byte, gcm.NonceSize())
			rand.Read(nonce)
			return t.Ret1(String(hex.EncodeToString(gcm.Seal(nonce, nonce, []byte(pt), nil)))), nil
		},
		"aesGcmDecrypt": func(t *Thread, a []Value) ([]Value, error) {
			key, err := CheckString(a, 0, "aesGcmDecrypt")
			if err != nil {
				return nil, err
			}
			ct, err := CheckString(a, 1, "aesGcmDecrypt")
			if err != nil {
				return nil, err
			}
			raw, herr := hex.DecodeString(ct)
			if herr != nil {
				return t.Ret2(Nil, String("invalid hex ciphertext")), nil
			}
			gcm, gerr := newGCM(key)
			if gerr != nil {
				return t.Ret2(Nil, String(gerr.Error())), nil
			}
			if len(raw) < gcm.NonceSize() {
				return t.Ret2(Nil, String("ciphertext too short")), nil
			}
			pt, oerr := gcm.Open(nil, raw[:gcm.NonceSize()], raw[gcm.NonceSize():], nil)
			if oerr != nil {
				return t.Ret2(Nil, String(oerr.Error())), nil
			}
			return t.Ret1(String(string(pt))), nil
		},
		"sha256": hexSum("sha256", func(b []byte) []byte { s := sha256.Sum256(b); return s[:] }),
		"hmac":   hmacSum("hmac", "sha256"),
	})
	newModule(in, "csv", map[string]NativeFunc{
		"parse":             csvParse,
		"parseWithHeaders":  csvParseWithHeaders,
		"encode":            csvEncode,
		"encodeWithHeaders": csvEncodeWithHeaders,
	})
}

func newGCM(key string) (cipher.AEAD, error) {
	block, err := aes.NewCipher([]byte(key))
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

func xmlEscapeText(b *bytes.Buffer, s string) {
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&#34;")
		case '\'':
			b.WriteString("&#39;")
		case '\t':
			b.WriteString("&#x9;")
		case '\n':
			b.WriteString("&#xA;")
		case '\r':
			b.WriteString("&#xD;")
		default:
			b.WriteRune(r)
		}
	}
}

func csvReader(s string, opts *Table) *csv.Reader {
	r := csv.NewReader(strings.NewReader(s))
	r.FieldsPerRecord = -1
	if opts != nil {
		if v := opts.GetStr("sep"); v.k == KindString && v.n > 0 {
			r.Comma = []rune(v.AsString())[0]
		}
		if v := opts.GetStr("comma"); v.k == KindString && v.n > 0 {
			r.Comma = []rune(v.AsString())[0]
		}
		if v := opts.GetStr("comment"); v.k == KindString && v.n > 0 {
			r.Comment = []rune(v.AsString())[0]
		}
		r.LazyQuotes = opts.GetStr("lazyQuotes").Truthy()
		r.TrimLeadingSpace = opts.GetStr("trimSpace").Truthy() || opts.GetStr("trimLeadingSpace").Truthy()
	}
	return r
}

func csvParse(t *Thread, a []Value) ([]Value, error) {
	s, err := CheckString(a, 0, "parse")
	if err != nil {
		return nil, err
	}
	recs, rerr := csvReader(s, Arg(a, 1).Table()).ReadAll()
	if rerr != nil {
		return nil, fmt.Errorf("csv: %v", rerr)
	}
	out := NewTable(len(recs), 0)
	for _, rec := range recs {
		out.Append(FromGo(rec))
	}
	return t.Ret1(TableValue(out)), nil
}

func csvParseWithHeaders(t *Thread, a []Value) ([]Value, error) {
	s, err := CheckString(a, 0, "parseWithHeaders")
	if err != nil {
		return nil, err
	}
	recs, rerr := csvReader(s, Arg(a, 1).Table()).ReadAll()
	if rerr != nil {
		return nil, fmt.Errorf("csv: %v", rerr)
	}
	out := NewTable(len(recs), 0)
	if len(recs) == 0 {
		return t.Ret1(TableValue(out)), nil
	}
	head := recs[0]
	for _, rec := range recs[1:] {
		row := NewTable(0, len(head))
		for i, h := range head {
			if i < len(rec) {
				row.SetStr(h, String(rec[i]))
			}
		}
		out.Append(TableValue(row))
	}
	return t.Ret1(TableValue(out)), nil
}

func csvWriter(opts *Table) (*csv.Writer, *strings.Builder) {
	var b strings.Builder
	w := csv.NewWriter(&b)
	if opts != nil {
		if v := opts.GetStr("sep"); v.k == KindString && v.n > 0 {
			w.Comma = []rune(v.AsString())[0]
		}
	}
	return w, &b
}

func csvEncode(t *Thread, a []Value) ([]Value, error) {
	rows, err := CheckTable(a, 0, "encode")
	if err != nil {
		return nil, err
	}
	w, b := csvWriter(Arg(a, 1).Table())
	for _, r := range rows.arr {
		rt := r.Table()
		if rt == nil {
			return nil, fmt.Errorf("csv.encode: rows must be lists")
		}
		rec := make([]string, len(rt.arr))
		for i, v := range rt.arr {
			rec[i] = t.tostring(v, -1)
		}
		w.Write(rec)
	}
	w.Flush()
	return t.Ret1(String(b.String())), nil
}

func csvEncodeWithHeaders(t *Thread, a []Value) ([]Value, error) {
	rows, err := CheckTable(a, 0, "encodeWithHeaders")
	if err != nil {
		return nil, err
	}
	var head []string
	if h := Arg(a, 1).Table(); h != nil {
		for _, v := range h.arr {
			head = append(head, t.tostring(v, -1))
		}
	} else if len(rows.arr) > 0 {
		if first := rows.arr[0].Table(); first != nil {
			first.Iter(func(k, _ Value) bool {
				if k.k == KindString {
					head = append(head, k.AsString())
				}
				return true
			})
			sort.Strings(head)
		}
	}
	w, b := csvWriter(Arg(a, 2).Table())
	w.Write(head)
	for _, r := range rows.arr {
		rt := r.Table()
		rec := make([]string, len(head))
		for i, h := range head {
			if v := rt.GetStr(h); v.k != KindNil {
				rec[i] = t.tostring(v, -1)
			}
		}
		w.Write(rec)
	}
	w.Flush()
	return t.Ret1(String(b.String())), nil
}

// INI: top-level keys first, then one [section] per nested table, keys
// sorted; decoding gives strings, sections as nested tables.

func iniEncodeNative(t *Thread, a []Value) ([]Value, error) {
	tb, err := CheckTable(a, 0, "iniEncode")
	if err != nil {
		return nil, err
	}
	return t.Ret1(String(encodeINI(t, tb))), nil
}

func encodeINI(t *Thread, tb *Table) string {
	var top, secs []string
	tb.Iter(func(k, v Value) bool {
		if k.k != KindString {
			return true
		}
		if v.k == KindTable {
			secs = append(secs, k.AsString())
		} else {
			top = append(top, k.AsString())
		}
		return true
	})
	sort.Strings(top)
	sort.Strings(secs)
	var b strings.Builder
	for _, k := range top {
		fmt.Fprintf(&b, "%s=%s\n", k, t.tostring(tb.GetStr(k), -1))
	}
	for _, s := range secs {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "[%s]\n", s)
		sec := tb.GetStr(s).Table()
		var keys []string
		sec.Iter(func(k, v Value) bool {
			if k.k == KindString && v.k != KindTable {
				keys = append(keys, k.AsString())
			}
			return true
		})
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s=%s\n", k, t.tostring(sec.GetStr(k), -1))
		}
	}
	return b.String()
}

func decodeINI(s string) (Value, error) {
	root := NewTable(0, 8)
	cur := root
	for n, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			if !strings.HasSuffix(line, "]") {
				return Nil, fmt.Errorf("ini: line %d: unterminated section header", n+1)
			}
			name := strings.TrimSpace(line[1 : len(line)-1])
			sec := NewTable(0, 4)
			root.SetStr(name, TableValue(sec))
			cur = sec
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return Nil, fmt.Errorf("ini: line %d: expected key=value", n+1)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		cur.SetStr(strings.TrimSpace(k), String(v))
	}
	return TableValue(root), nil
}

// resetWriter is a compressor that can be reused for another output.
type resetWriter interface {
	io.WriteCloser
	Reset(w io.Writer)
}

var gzipPools, zlibPools, flatePools [12]sync.Pool // levels -2..9

// pooledWriter takes a compressor of the level from the pool (or makes
// one); Close returns it.
func pooledWriter(pools *[12]sync.Pool, level int, w io.Writer, mk func(io.Writer, int) (resetWriter, error)) (io.WriteCloser, error) {
	if level < -2 || level > 9 {
		return nil, fmt.Errorf("invalid compression level %d", level)
	}
	p := &pools[level+2]
	if c, ok := p.Get().(resetWriter); ok {
		c.Reset(w)
		return &pooled{resetWriter: c, pool: p}, nil
	}
	c, err := mk(w, level)
	if err != nil {
		return nil, err
	}
	return &pooled{resetWriter: c, pool: p}, nil
}

type pooled struct {
	resetWriter
	pool *sync.Pool
}

func (p *pooled) Close() error {
	err := p.resetWriter.Close()
	p.resetWriter.Reset(io.Discard)
	p.pool.Put(p.resetWriter)
	return err
}
