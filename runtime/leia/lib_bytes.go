package leia

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strings"
)

// The bytes module: growable byte buffers and hex helpers.
//
// A buffer is a userdata whose methods are bound to it, so both
// buf.len() and buf:len() work. Writers of numbers are little-endian;
// positions are 1-based like strings, and a read past either end gives
// nil (bytes) or the part that exists (strings). Functions of the module
// that take bytes accept a buffer or a string.

type byteBuffer struct{ b []byte }

// bytesOf returns the bytes of a buffer or a string argument.
func bytesOf(a []Value, i int, fname string) ([]byte, error) {
	v := Arg(a, i)
	if u := v.Userdata(); u != nil {
		if bb, ok := u.Value.(*byteBuffer); ok {
			return bb.b, nil
		}
	}
	s, err := CheckString(a, i, fname)
	return []byte(s), err
}

func openBytes(in *Interp) {
	newModule(in, "bytes", map[string]NativeFunc{
		"new": func(t *Thread, a []Value) ([]Value, error) {
			var init []byte
			if v := Arg(a, 0); v.k != KindNil && !v.IsNumber() {
				b, err := bytesOf(a, 0, "new")
				if err != nil {
					return nil, err
				}
				init = append(init, b...)
			}
			return t.Ret1(newByteBuffer(t.in, init)), nil
		},
		"buffer": func(t *Thread, a []Value) ([]Value, error) {
			var init []byte
			if Arg(a, 0).k != KindNil {
				b, err := bytesOf(a, 0, "buffer")
				if err != nil {
					return nil, err
				}
				init = append(init, b...)
			}
			return t.Ret1(newByteBuffer(t.in, init)), nil
		},
		"fromString": func(t *Thread, a []Value) ([]Value, error) {
			b, err := bytesOf(a, 0, "fromString")
			if err != nil {
				return nil, err
			}
			return t.Ret1(newByteBuffer(t.in, append([]byte(nil), b...))), nil
		},
		"fromHex": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "fromHex")
			if err != nil {
				return nil, err
			}
			b, derr := hex.DecodeString(s)
			if derr != nil {
				return t.Ret2(Nil, String(derr.Error())), nil
			}
			return t.Ret1(newByteBuffer(t.in, b)), nil
		},
		"toHex": func(t *Thread, a []Value) ([]Value, error) {
			b, err := bytesOf(a, 0, "toHex")
			if err != nil {
				return nil, err
			}
			return t.Ret1(String(hex.EncodeToString(b))), nil
		},
		"toString": func(t *Thread, a []Value) ([]Value, error) {
			b, err := bytesOf(a, 0, "toString")
			return t.Ret1(String(string(b))), err
		},
		"len": func(t *Thread, a []Value) ([]Value, error) {
			b, err := bytesOf(a, 0, "len")
			return t.Ret1(Int(int64(len(b)))), err
		},
		"concat": func(t *Thread, a []Value) ([]Value, error) {
			var sb strings.Builder
			for i := range a {
				b, err := bytesOf(a, i, "concat")
				if err != nil {
					return nil, err
				}
				if sb.Len()+len(b) > t.in.maxString {
					return nil, fmt.Errorf("resulting string too large")
				}
				t.allocBytes(int64(len(b)), -1)
				sb.Write(b)
			}
			return t.Ret1(String(sb.String())), nil
		},
	})
}

// newByteBuffer makes a buffer value holding init.
func newByteBuffer(in *Interp, init []byte) Value {
	bb := &byteBuffer{b: init}
	u := &Userdata{Value: bb, TypeName: "bytes"}
	self := UserdataValue(u)
	grow := func(t *Thread, n int) error {
		if len(bb.b)+n > t.in.maxString {
			return fmt.Errorf("buffer too large")
		}
		if len(bb.b)+n > cap(bb.b) {
			t.allocBytes(int64(len(bb.b)+n), -1)
		}
		return nil
	}
	writeNum := func(name string, size int, put func([]byte, Value) error) NativeFunc {
		return func(t *Thread, a []Value) ([]Value, error) {
			v := Arg(a, 0)
			if !v.IsNumber() {
				return nil, typeError(0, name, "number", v)
			}
			if err := grow(t, size); err != nil {
				return nil, err
			}
			var tmp [8]byte
			if err := put(tmp[:size], v); err != nil {
				return nil, err
			}
			bb.b = append(bb.b, tmp[:size]...)
			return nil, nil
		}
	}
	intPut := func(name string, size int) func([]byte, Value) error {
		return func(p []byte, v Value) error {
			n, ok := toInteger(v)
			if !ok {
				return ArgError(0, name, "number has no integer representation")
			}
			var tmp [8]byte
			binary.LittleEndian.PutUint64(tmp[:], uint64(n))
			copy(p, tmp[:size])
			return nil
		}
	}
	// at reads size bytes at the 1-based position of a[0].
	at := func(a []Value, name string, size int) ([]byte, bool, error) {
		pos, err := CheckInt(a, 0, name)
		if err != nil {
			return nil, false, err
		}
		if pos < 1 || pos+int64(size)-1 > int64(len(bb.b)) {
			return nil, false, nil
		}
		return bb.b[pos-1 : pos-1+int64(size)], true, nil
	}
	readInt := func(name string, size int, signed bool) NativeFunc {
		return func(t *Thread, a []Value) ([]Value, error) {
			p, ok, err := at(a, name, size)
			if err != nil || !ok {
				return t.Ret1(Nil), err
			}
			var tmp [8]byte
			copy(tmp[:], p)
			n := binary.LittleEndian.Uint64(tmp[:])
			if signed && size < 8 && p[size-1]&0x80 != 0 {
				n |= ^uint64(0) << (8 * size)
			}
			return t.Ret1(Int(int64(n))), nil
		}
	}
	methods := map[string]NativeFunc{
		"len": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(Int(int64(len(bb.b)))), nil },
		"write": func(t *Thread, a []Value) ([]Value, error) {
			for i := range a {
				b, err := bytesOf(a, i, "write")
				if err != nil {
					return nil, err
				}
				if err := grow(t, len(b)); err != nil {
					return nil, err
				}
				bb.b = append(bb.b, b...)
			}
			return nil, nil
		},
		"writeByte": func(t *Thread, a []Value) ([]Value, error) {
			n, err := CheckInt(a, 0, "writeByte")
			if err != nil {
				return nil, err
			}
			if n < -128 || n > 255 {
				return nil, ArgError(0, "writeByte", "byte out of range")
			}
			if err := grow(t, 1); err != nil {
				return nil, err
			}
			bb.b = append(bb.b, byte(n))
			return nil, nil
		},
		"writeInt8":   writeNum("writeInt8", 1, intPut("writeInt8", 1)),
		"writeUint8":  writeNum("writeUint8", 1, intPut("writeUint8", 1)),
		"writeInt16":  writeNum("writeInt16", 2, intPut("writeInt16", 2)),
		"writeUint16": writeNum("writeUint16", 2, intPut("writeUint16", 2)),
		"writeInt32":  writeNum("writeInt32", 4, intPut("writeInt32", 4)),
		"writeUint32": writeNum("writeUint32", 4, intPut("writeUint32", 4)),
		"writeInt64":  writeNum("writeInt64", 8, intPut("writeInt64", 8)),
		"writeFloat32": writeNum("writeFloat32", 4, func(p []byte, v Value) error {
			binary.LittleEndian.PutUint32(p, math.Float32bits(float32(v.AsFloat())))
			return nil
		}),
		"writeFloat64": writeNum("writeFloat64", 8, func(p []byte, v Value) error {
			binary.LittleEndian.PutUint64(p, math.Float64bits(v.AsFloat()))
			return nil
		}),
		"readByte":   readInt("readByte", 1, false),
		"readUint8":  readInt("readUint8", 1, false),
		"readInt8":   readInt("readInt8", 1, true),
		"readInt16":  readInt("readInt16", 2, true),
		"readUint16": readInt("readUint16", 2, false),
		"readInt32":  readInt("readInt32", 4, true),
		"readUint32": readInt("readUint32", 4, false),
		"readInt64":  readInt("readInt64", 8, true),
		"readFloat32": func(t *Thread, a []Value) ([]Value, error) {
			p, ok, err := at(a, "readFloat32", 4)
			if err != nil || !ok {
				return t.Ret1(Nil), err
			}
			return t.Ret1(Float(float64(math.Float32frombits(binary.LittleEndian.Uint32(p))))), nil
		},
		"readFloat64": func(t *Thread, a []Value) ([]Value, error) {
			p, ok, err := at(a, "readFloat64", 8)
			if err != nil || !ok {
				return t.Ret1(Nil), err
			}
			return t.Ret1(Float(math.Float64frombits(binary.LittleEndian.Uint64(p)))), nil
		},
		// readString(i [, j]) is the bytes i..j clamped to the buffer.
		"readString": func(t *Thread, a []Value) ([]Value, error) {
			i, err := OptInt(a, 0, "readString", 1)
			if err != nil {
				return nil, err
			}
			j, err := OptInt(a, 1, "readString", int64(len(bb.b)))
			if err != nil {
				return nil, err
			}
			if i < 1 {
				i = 1
			}
			if j > int64(len(bb.b)) {
				j = int64(len(bb.b))
			}
			if i > j {
				return t.Ret1(String("")), nil
			}
			return t.Ret1(String(string(bb.b[i-1 : j]))), nil
		},
		"bytes": func(t *Thread, a []Value) ([]Value, error) {
			out := NewTable(len(bb.b), 0)
			for _, c := range bb.b {
				out.Append(Int(int64(c)))
			}
			return t.Ret1(TableValue(out)), nil
		},
		"toHex":    func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(String(hex.EncodeToString(bb.b))), nil },
		"toString": func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(String(string(bb.b))), nil },
		"string":   func(t *Thread, a []Value) ([]Value, error) { return t.Ret1(String(string(bb.b))), nil },
		"reset":    func(t *Thread, a []Value) ([]Value, error) { bb.b = bb.b[:0]; return nil, nil },
	}
	idx := NewTable(0, len(methods))
	for _, name := range sortedKeys(methods) {
		f := methods[name]
		idx.SetStr(name, NewNative(name, func(t *Thread, a []Value) ([]Value, error) {
			if len(a) > 0 && a[0].Userdata() == u {
				a = a[1:]
			}
			return f(t, a)
		}))
	}
	meta := NewTable(0, 4)
	meta.SetStr("__index", TableValue(idx))
	meta.SetStr("__name", String("bytes"))
	meta.SetStr("__len", NewNative("__len", func(t *Thread, a []Value) ([]Value, error) {
		return t.Ret1(Int(int64(len(bb.b)))), nil
	}))
	meta.SetStr("__tostring", NewNative("__tostring", func(t *Thread, a []Value) ([]Value, error) {
		return t.Ret1(String(string(bb.b))), nil
	}))
	u.Meta = meta
	return self
}
