package encoding

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/harnlang/harn-check/runtime/harn"

	"crypto/sha3"
)

// Encoding, hashing and byte-string builtins.

func install(lib *harn.Library) {
	enc := func(name string, f func([]byte) string) {
		spec := harn.ArgsOf(name)
		lib.Builtin(name, func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			var data []byte
			if err := spec.Unpack(c, args, harn.AsBytes(&data)); err != nil {
				return harn.Nil, err
			}
			return harn.Str(f(data)), nil
		})
	}
	dec := func(name string, f func(string) ([]byte, error)) {
		spec := harn.ArgsOf(name)
		lib.Builtin(name, func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			var text string
			if err := spec.Unpack(c, args, harn.AsText(&text)); err != nil {
				return harn.Nil, err
			}
			b, err := f(text)
			if err != nil {
				return harn.Nil, harn.ThrowValue(harn.Str(name + ": " + err.Error()))
			}
			return harn.Str(string(b)), nil
		})
	}
	enc("base64_encode", base64.StdEncoding.EncodeToString)
	dec("base64_decode", base64.StdEncoding.DecodeString)
	enc("base64url_encode", base64.RawURLEncoding.EncodeToString)
	dec("base64url_decode", func(s string) ([]byte, error) {
		return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	})
	enc("base32_encode", base32.StdEncoding.EncodeToString)
	dec("base32_decode", base32.StdEncoding.DecodeString)
	enc("hex_encode", hex.EncodeToString)
	dec("hex_decode", hex.DecodeString)
	lib.Builtin("url_encode", harn.WithText("url_encode", func(_ *harn.Call, text string, _ []harn.Value) (harn.Value, error) {
		return harn.Str(PercentEncode(text)), nil
	}))
	lib.Builtin("url_decode", harn.WithText("url_decode", func(_ *harn.Call, text string, _ []harn.Value) (harn.Value, error) {
		s, err := url.QueryUnescape(text)
		if err != nil {
			return harn.Nil, harn.ThrowValue(harn.Str("url_decode: " + err.Error()))
		}
		return harn.Str(s), nil
	}))
	hashFn := func(name string, h func() hash.Hash) {
		lib.Builtin(name, harn.WithBytes(name, func(_ *harn.Call, data []byte, _ []harn.Value) (harn.Value, error) {
			d := h()
			d.Write(data)
			return harn.Str(hex.EncodeToString(d.Sum(nil))), nil
		}))
	}
	hashFn("sha256", sha256.New)
	hashFn("sha224", sha256.New224)
	hashFn("sha384", sha512.New384)
	hashFn("sha512", sha512.New)
	hashFn("sha512_256", sha512.New512_256)
	hashFn("sha3_256", func() hash.Hash { return sha3.New256() })
	hashFn("sha3_512", func() hash.Hash { return sha3.New512() })
	hashFn("md5", md5.New)
	// bytes2 declares a builtin of two byte strings.
	bytes2 := func(name string, f func(a, b []byte) harn.Value) {
		spec := harn.ArgsOf(name)
		lib.Builtin(name, func(c *harn.Call, args []harn.Value) (harn.Value, error) {
			var a, b []byte
			if err := spec.Unpack(c, args, harn.AsBytes(&a), harn.AsBytes(&b)); err != nil {
				return harn.Nil, err
			}
			return f(a, b), nil
		})
	}
	bytes2("hmac_sha256", func(key, msg []byte) harn.Value {
		m := hmac.New(sha256.New, key)
		m.Write(msg)
		return harn.Str(hex.EncodeToString(m.Sum(nil)))
	})
	bytes2("hmac_sha256_base64", func(key, msg []byte) harn.Value {
		m := hmac.New(sha256.New, key)
		m.Write(msg)
		return harn.Str(base64.StdEncoding.EncodeToString(m.Sum(nil)))
	})
	bytes2("constant_time_eq", func(a, b []byte) harn.Value { return harn.Bool(subtle.ConstantTimeCompare(a, b) == 1) })
	bytes2("bytes_concat", func(a, b []byte) harn.Value { return harn.BytesValue(append(append([]byte(nil), a...), b...)) })
	bytes2("bytes_eq", func(a, b []byte) harn.Value { return harn.Bool(bytes.Equal(a, b)) })
	lib.Builtin("bytes_from_string", harn.WithText("bytes_from_string", func(_ *harn.Call, text string, _ []harn.Value) (harn.Value, error) {
		return harn.BytesValue([]byte(text)), nil
	}))
	lib.Builtin("bytes_to_string", harn.WithBytes("bytes_to_string", func(_ *harn.Call, b []byte, _ []harn.Value) (harn.Value, error) {
		if !utf8.Valid(b) {
			return harn.Nil, harn.ThrowValue(harn.Str("bytes_to_string: invalid UTF-8"))
		}
		return harn.Str(string(b)), nil
	}))
	lib.Builtin("bytes_to_string_lossy", harn.WithBytes("bytes_to_string_lossy", func(_ *harn.Call, b []byte, _ []harn.Value) (harn.Value, error) {
		return harn.Str(strings.ToValidUTF8(string(b), "\uFFFD")), nil
	}))
	lib.Builtin("bytes_from_hex", harn.WithText("bytes_from_hex", func(_ *harn.Call, text string, _ []harn.Value) (harn.Value, error) {
		b, err := hex.DecodeString(text)
		if err != nil {
			return harn.Nil, harn.ThrowValue(harn.Str("bytes_from_hex: " + err.Error()))
		}
		return harn.BytesValue(b), nil
	}))
	lib.Builtin("bytes_to_hex", harn.WithBytes("bytes_to_hex", func(_ *harn.Call, b []byte, _ []harn.Value) (harn.Value, error) {
		return harn.Str(hex.EncodeToString(b)), nil
	}))
	lib.Builtin("bytes_from_base64", harn.WithText("bytes_from_base64", func(_ *harn.Call, text string, _ []harn.Value) (harn.Value, error) {
		b, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return harn.Nil, harn.ThrowValue(harn.Str("bytes_from_base64: " + err.Error()))
		}
		return harn.BytesValue(b), nil
	}))
	lib.Builtin("bytes_to_base64", harn.WithBytes("bytes_to_base64", func(_ *harn.Call, b []byte, _ []harn.Value) (harn.Value, error) {
		return harn.Str(base64.StdEncoding.EncodeToString(b)), nil
	}))
	lib.Builtin("bytes_len", harn.WithBytes("bytes_len", func(_ *harn.Call, b []byte, _ []harn.Value) (harn.Value, error) {
		return harn.Int(int64(len(b))), nil
	}))
	lib.Builtin("bytes_slice", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		lo, hi := harn.IntArg(harn.Arg(args, 1), 0), harn.IntArg(harn.Arg(args, 2), int64(len(harn.BytesOf(harn.Arg(args, 0)))))
		return harn.Slice(harn.BytesValue(harn.BytesOf(harn.Arg(args, 0))), &lo, &hi)
	})
}

// PercentEncode escapes every byte but the unreserved characters
// (A-Z a-z 0-9 - _ . ~), as upstream's url_encode does.
func PercentEncode(s string) string {
	const hexd = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexd[c>>4])
		b.WriteByte(hexd[c&15])
	}
	return b.String()
}
