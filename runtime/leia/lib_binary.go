package leia

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// binary (and string.pack/unpack/packsize) read and write fixed-size
// numeric fields with Go-style formats: an optional endianness mark (<
// little, > big; little by default) and space-separated fields i8 i16 i32
// i64 u8 u16 u32 u64 f32 f64 (also int8 ... uint64, float32, float64).
// bytes holds byte-string helpers and a growable buffer; matrix dense
// row-major matrices.

type binField struct {
	name   string
	size   int
	signed bool
	float  bool
}

// binFields are the field types of a binary layout.
var binFields = [...]binField{{"i8", 1, true, false}, {"i16", 2, true, false}, {"i32", 4, true, false}, {"i64", 8, true, false},
	{"u8", 1, false, false}, {"u16", 2, false, false}, {"u32", 4, false, false}, {"u64", 8, false, false},
	{"f32", 4, true, true}, {"f64", 8, true, true}}

// binFieldAliases are the other names of binFields' types.
var binFieldAliases = [...]struct{ alias, name string }{{"int8", "i8"}, {"int16", "i16"}, {"int32", "i32"}, {"int64", "i64"},
	{"uint8", "u8"}, {"byte", "u8"}, {"uint16", "u16"}, {"uint32", "u32"}, {"uint64", "u64"},
	{"float32", "f32"}, {"float64", "f64"}, {"float", "f32"}, {"double", "f64"}}

// binFieldOf returns the field type named tok (a name or an alias).
func binFieldOf(tok string) (binField, bool) {
	for _, a := range binFieldAliases {
		if a.alias == tok {
			tok = a.name
			break
		}
	}
	for _, f := range binFields {
		if f.name == tok {
			return f, true
		}
	}
	return binField{}, false
}

// byteOrder reads and appends in one endianness.
type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

func parseBinFormat(f string) (byteOrder, []binField, error) {
	var order byteOrder = binary.LittleEndian
	f = strings.TrimSpace(f)
	switch {
	case strings.HasPrefix(f, "<"):
		f = f[1:]
	case strings.HasPrefix(f, ">"), strings.HasPrefix(f, "!"):
		order = binary.BigEndian
		f = f[1:]
	case strings.HasPrefix(f, "="):
		f = f[1:]
	}
	var fields []binField
	for _, tok := range strings.Fields(f) {
		bf, ok := binFieldOf(tok)
		if !ok {
			return nil, nil, fmt.Errorf("invalid format field '%s'", tok)
		}
		fields = append(fields, bf)
	}
	if len(fields) > 1024 {
		return nil, nil, fmt.Errorf("format has too many fields")
	}
	return order, fields, nil
}

func binPack(t *Thread, a []Value, name string) ([]Value, error) {
	f, err := CheckString(a, 0, name)
	if err != nil {
		return nil, err
	}
	order, fields, err := parseBinFormat(f)
	if err != nil {
		return nil, err
	}
	var out []byte
	for i, bf := range fields {
		arg := i + 1
		if bf.float {
			x, err := CheckFloat(a, arg, name)
			if err != nil {
				return nil, err
			}
			if bf.size == 4 {
				out = order.AppendUint32(out, math.Float32bits(float32(x)))
			} else {
				out = order.AppendUint64(out, math.Float64bits(x))
			}
			continue
		}
		n, err := CheckInt(a, arg, name)
		if err != nil {
			return nil, err
		}
		bits := uint(bf.size * 8)
		if !bf.signed {
			if n < 0 {
				return nil, ArgError(arg, name, "negative value for unsigned field")
			}
			if bits < 64 && uint64(n) >= 1<<bits {
				return nil, ArgError(arg, name, fmt.Sprintf("value out of range for %s", bf.name))
			}
		} else if bits < 64 && (n < -(1<<(bits-1)) || n >= 1<<(bits-1)) {
			return nil, ArgError(arg, name, fmt.Sprintf("value out of range for %s", bf.name))
		}
		switch bf.size {
		case 1:
			out = append(out, byte(n))
		case 2:
			out = order.AppendUint16(out, uint16(n))
		case 4:
			out = order.AppendUint32(out, uint32(n))
		default:
			out = order.AppendUint64(out, uint64(n))
		}
	}
	return t.Ret1(String(string(out))), nil
}

func binUnpack(t *Thread, a []Value, name string) ([]Value, error) {
	f, err := CheckString(a, 0, name)
	if err != nil {
		return nil, err
	}
	data, err := CheckString(a, 1, name)
	if err != nil {
		return nil, err
	}
	pos, err := OptInt(a, 2, name, 1)
	if err != nil {
		return nil, err
	}
	order, fields, err := parseBinFormat(f)
	if err != nil {
		return nil, err
	}
	if pos < 1 || pos > int64(len(data))+1 {
		return t.Ret2(Nil, String("offset out of range")), nil
	}
	off := int(pos - 1)
	var out []Value
	for _, bf := range fields {
		if off+bf.size > len(data) {
			return t.Ret2(Nil, String(fmt.Sprintf("data too short for %s at offset %d", bf.name, off+1))), nil
		}
		b := []byte(data[off : off+bf.size])
		off += bf.size
		var u uint64
		switch bf.size {
		case 1:
			u = uint64(b[0])
		case 2:
			u = uint64(order.Uint16(b))
		case 4:
			u = uint64(order.Uint32(b))
		default:
			u = order.Uint64(b)
		}
		switch {
		case bf.float && bf.size == 4:
			out = append(out, Float(float64(math.Float32frombits(uint32(u)))))
		case bf.float:
			out = append(out, Float(math.Float64frombits(u)))
		case bf.signed:
			shift := uint(64 - bf.size*8)
			out = append(out, Int(int64(u<<shift)>>shift))
		default:
			if u > math.MaxInt64 {
				out = append(out, Float(float64(u)))
			} else {
				out = append(out, Int(int64(u)))
			}
		}
	}
	return append(out, Int(int64(off+1))), nil
}

func binSize(t *Thread, a []Value, name string) ([]Value, error) {
	f, err := CheckString(a, 0, name)
	if err != nil {
		return nil, err
	}
	_, fields, err := parseBinFormat(f)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, bf := range fields {
		n += bf.size
	}
	return t.Ret1(Int(int64(n))), nil
}

func openBinary(in *Interp) {
	newModule(in, "binary", map[string]NativeFunc{
		"pack":   func(t *Thread, a []Value) ([]Value, error) { return binPack(t, a, "pack") },
		"unpack": func(t *Thread, a []Value) ([]Value, error) { return binUnpack(t, a, "unpack") },
		"size":   func(t *Thread, a []Value) ([]Value, error) { return binSize(t, a, "size") },
	})
	s := in.lib("string")
	s.SetStr("pack", NewNative("pack", func(t *Thread, a []Value) ([]Value, error) { return binPack(t, a, "pack") }))
	s.SetStr("unpack", NewNative("unpack", func(t *Thread, a []Value) ([]Value, error) { return binUnpack(t, a, "unpack") }))
	s.SetStr("packsize", NewNative("packsize", func(t *Thread, a []Value) ([]Value, error) { return binSize(t, a, "packsize") }))

	openBytes(in)

	openMatrix(in)
}
