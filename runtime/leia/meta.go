package leia

import (
	"math"
	"strings"
)

// Metatables: operators fall back to metamethods when their operands are
// not plain numbers or strings. Chains of __index / __newindex tables are
// followed at most maxMetaChain times.

const maxMetaChain = 100

func (th *Thread) metaField(v Value, name string) Value {
	return th.in.metaOf(v).GetStr(name)
}

// arithOut is arith for the operands a compiled operator does not handle
// inline. It hands the operator, the operands and the position over in
// the thread to arithStashed (out of line), so that the operator's
// closure, which a deep recursion keeps on the Go stack once per nested
// call, reserves room in its Go frame for passing one word only.
func (th *Thread) arithOut(op arithOp, a, b Value, pos int32) Value {
	th.opA, th.opB, th.op, th.opPos = a, b, op, pos
	return th.arithStashed()
}

//go:noinline
func (th *Thread) arithStashed() Value {
	a, b := th.opA, th.opB
	th.opA, th.opB = Nil, Nil
	return th.arith(th.op, a, b, th.opPos)
}

// arith applies a binary arithmetic or bitwise operator with string
// coercion and metamethods.
func (th *Thread) arith(op arithOp, a, b Value, pos int32) Value {
	if op >= opBand {
		x, okx := toBitInt(a)
		y, oky := toBitInt(b)
		if okx && oky && a.k != KindTable && b.k != KindTable {
			switch op {
			case opBand:
				return Int(x & y)
			case opBor:
				return Int(x | y)
			case opBxor:
				return Int(x ^ y)
			case opBandNot:
				return Int(x &^ y)
			case opShl:
				if y < 0 {
					panic(th.runtimeError(pos, "negative shift count"))
				}
				return Int(shiftLeft(x, y))
			case opShr:
				if y < 0 {
					panic(th.runtimeError(pos, "negative shift count"))
				}
				return Int(shiftLeft(x, -y))
			}
		}
	} else {
		x, okx := toNumber(a)
		y, oky := toNumber(b)
		if okx && oky {
			r, ok := rawArith(op, x, y)
			if !ok {
				panic(th.runtimeError(pos, "attempt to perform 'n%%0'"))
			}
			return r
		}
	}
	name := arithNames[op]
	h := th.metaField(a, name)
	if h.k == KindNil {
		h = th.metaField(b, name)
	}
	if h.k != KindNil {
		return th.call1At(h, pos, a, b)
	}
	bad := a
	if _, ok := toNumber(a); ok {
		bad = b
	}
	if op >= opBand {
		if bad.IsNumber() || bad.k == KindString {
			panic(th.runtimeError(pos, "number has no integer representation"))
		}
		panic(th.runtimeError(pos, "attempt to perform bitwise operation on a %s value", bad.TypeName()))
	}
	if bad.k == KindString {
		panic(th.runtimeError(pos, "attempt to perform arithmetic on a string value (cannot convert %q to a number)", bad.AsString()))
	}
	panic(th.runtimeError(pos, "attempt to perform arithmetic on a %s value", bad.TypeName()))
}

// call1At calls a metamethod and returns its first result.
func (th *Thread) call1At(h Value, pos int32, args ...Value) Value {
	m := th.mark()
	buf := th.reserve(len(args))
	copy(buf, args)
	r := th.callAt(h, buf, pos)
	v := Nil
	if len(r) > 0 {
		v = r[0]
	}
	th.release(m)
	return v
}

func (th *Thread) unm(v Value, pos int32) Value {
	if n, ok := toNumber(v); ok {
		if n.k == KindInt {
			if int64(n.n) == math.MinInt64 {
				return Float(-float64(int64(n.n)))
			}
			return Int(-int64(n.n))
		}
		return Float(-n.AsFloat())
	}
	if h := th.metaField(v, "__unm"); h.k != KindNil {
		return th.call1At(h, pos, v, v)
	}
	panic(th.runtimeError(pos, "attempt to perform arithmetic on a %s value", v.TypeName()))
}

func (th *Thread) bnot(v Value, pos int32) Value {
	if v.k != KindTable {
		if x, ok := toBitInt(v); ok {
			return Int(^x)
		}
	}
	if h := th.metaField(v, "__bnot"); h.k != KindNil {
		return th.call1At(h, pos, v, v)
	}
	panic(th.runtimeError(pos, "attempt to perform bitwise operation on a %s value", v.TypeName()))
}

func (th *Thread) length(v Value, pos int32, desc string) Value {
	if h := th.metaField(v, "__len"); h.k != KindNil {
		return th.call1At(h, pos, v)
	}
	switch v.k {
	case KindString:
		return Int(int64(v.n))
	case KindTable:
		return Int(int64(v.Table().Len()))
	}
	if desc != "" {
		panic(th.runtimeError(pos, "attempt to get length of a %s value (%s)", v.TypeName(), desc))
	}
	panic(th.runtimeError(pos, "attempt to get length of a %s value", v.TypeName()))
}

// Len is #v with metamethods, for natives.
func (th *Thread) Len(v Value) int64 {
	r := th.length(v, -1, "")
	n, _ := toInteger(r)
	return n
}

// index reads o[k] with __index.
func (th *Thread) index(o, k Value, pos int32) Value { return th.indexDesc(o, k, pos, "") }

func (th *Thread) indexDesc(o, k Value, pos int32, desc string) Value {
	for i := 0; i < maxMetaChain; i++ {
		var h Value
		if o.k == KindTable {
			t := o.Table()
			if v := t.Get(k); v.k != KindNil {
				return v
			}
			if t.meta == nil {
				return Nil
			}
			h = t.meta.GetStr("__index")
			if h.k == KindNil {
				return Nil
			}
		} else {
			h = th.metaField(o, "__index")
			if h.k == KindNil {
				if desc == "" && k.k == KindString {
					if o.k == KindNil {
						panic(th.runtimeError(pos, "attempt to index a nil value (field '%s')", k.AsString()))
					}
				}
				if desc != "" {
					panic(th.runtimeError(pos, "attempt to index a %s value (%s)", o.TypeName(), desc))
				}
				panic(th.runtimeError(pos, "attempt to index a %s value", o.TypeName()))
			}
		}
		if h.IsFunction() {
			return th.call1At(h, pos, o, k)
		}
		o = h
	}
	panic(th.runtimeError(pos, "'__index' chain too long; possible loop"))
}

// Index reads o[k] with metamethods, for natives.
func (th *Thread) Index(o, k Value) Value { return th.index(o, k, -1) }

// setIndex assigns o[k] = v with __newindex.
func (th *Thread) setIndex(o, k, v Value, pos int32) {
	for i := 0; i < maxMetaChain; i++ {
		var h Value
		if o.k == KindTable {
			t := o.Table()
			if t.meta == nil || t.Get(k).k != KindNil {
				th.rawSet(t, k, v, pos)
				return
			}
			h = t.meta.GetStr("__newindex")
			if h.k == KindNil {
				th.rawSet(t, k, v, pos)
				return
			}
		} else {
			h = th.metaField(o, "__newindex")
			if h.k == KindNil {
				if k.k == KindString {
					panic(th.runtimeError(pos, "attempt to index a %s value (assigning field '%s')", o.TypeName(), k.AsString()))
				}
				panic(th.runtimeError(pos, "attempt to index a %s value", o.TypeName()))
			}
		}
		if h.IsFunction() {
			m := th.mark()
			buf := th.reserve(3)
			buf[0], buf[1], buf[2] = o, k, v
			th.callAt(h, buf, pos)
			th.release(m)
			return
		}
		o = h
	}
	panic(th.runtimeError(pos, "'__newindex' chain too long; possible loop"))
}

// SetIndex assigns o[k] = v with metamethods, for natives.
func (th *Thread) SetIndex(o, k, v Value) { th.setIndex(o, k, v, -1) }

func (th *Thread) rawSet(t *Table, k, v Value, pos int32) {
	if v.k != KindNil {
		th.allocBytes(t.Growth(k), pos)
	}
	if !t.Set(k, v) {
		if k.k == KindNil {
			panic(th.runtimeError(pos, "table index is nil"))
		}
		panic(th.runtimeError(pos, "table index is NaN"))
	}
}

// equal is == with __eq.
func (th *Thread) equal(a, b Value) bool {
	if RawEqual(a, b) {
		return true
	}
	if a.k != b.k || (a.k != KindTable && a.k != KindUserdata) {
		return false
	}
	h := th.metaField(a, "__eq")
	if h.k == KindNil {
		h = th.metaField(b, "__eq")
	}
	if h.k == KindNil {
		return false
	}
	return th.call1At(h, -1, a, b).Truthy()
}

// Equal is == with metamethods, for natives.
func (th *Thread) Equal(a, b Value) bool { return th.equal(a, b) }

func numLess(a, b Value) bool {
	if a.k == KindInt && b.k == KindInt {
		return int64(a.n) < int64(b.n)
	}
	if a.k == KindInt {
		return intLessFloat(int64(a.n), b.AsFloat())
	}
	if b.k == KindInt {
		return floatLessInt(a.AsFloat(), int64(b.n))
	}
	return a.AsFloat() < b.AsFloat()
}

func numLessEq(a, b Value) bool {
	if a.k == KindInt && b.k == KindInt {
		return int64(a.n) <= int64(b.n)
	}
	if a.k == KindInt {
		f := b.AsFloat()
		return !(f != f) && !floatLessInt(f, int64(a.n))
	}
	if b.k == KindInt {
		f := a.AsFloat()
		return !(f != f) && !intLessFloat(int64(b.n), f)
	}
	return a.AsFloat() <= b.AsFloat()
}

func intLessFloat(i int64, f float64) bool {
	if f != f {
		return false
	}
	if f >= 9.223372036854775808e18 {
		return true
	}
	if f < -9.223372036854775808e18 {
		return false
	}
	return i < int64(math.Ceil(f))
}

func floatLessInt(f float64, i int64) bool {
	if f != f {
		return false
	}
	if f >= 9.223372036854775808e18 {
		return false
	}
	if f < -9.223372036854775808e18 {
		return true
	}
	fl := math.Floor(f)
	return int64(fl) < i
}

func (th *Thread) less(a, b Value, pos int32) bool {
	if a.IsNumber() && b.IsNumber() {
		return numLess(a, b)
	}
	if a.k == KindString && b.k == KindString {
		return a.AsString() < b.AsString()
	}
	if h := th.compareMeta(a, b, "__lt"); h.k != KindNil {
		return th.call1At(h, pos, a, b).Truthy()
	}
	panic(th.compareError(a, b, pos))
}

func (th *Thread) lessEq(a, b Value, pos int32) bool {
	if a.IsNumber() && b.IsNumber() {
		return numLessEq(a, b)
	}
	if a.k == KindString && b.k == KindString {
		return a.AsString() <= b.AsString()
	}
	if h := th.compareMeta(a, b, "__le"); h.k != KindNil {
		return th.call1At(h, pos, a, b).Truthy()
	}
	panic(th.compareError(a, b, pos))
}

// Less is < with metamethods, for natives (table.sort).
func (th *Thread) Less(a, b Value) bool { return th.less(a, b, -1) }

func (th *Thread) compareMeta(a, b Value, name string) Value {
	h := th.metaField(a, name)
	if h.k == KindNil {
		h = th.metaField(b, name)
	}
	return h
}

func (th *Thread) compareError(a, b Value, pos int32) *Error {
	ta, tb := a.TypeName(), b.TypeName()
	if ta == tb {
		return th.runtimeError(pos, "attempt to compare two %s values", ta)
	}
	return th.runtimeError(pos, "attempt to compare %s with %s", ta, tb)
}

// tostring converts any value to its text with __tostring / __name.
func (th *Thread) tostring(v Value, pos int32) string {
	switch v.k {
	case KindString:
		return v.AsString()
	case KindInt, KindFloat:
		return FormatNumber(v)
	case KindNil:
		return "nil"
	case KindBool:
		if v.n != 0 {
			return "true"
		}
		return "false"
	}
	if h := th.metaField(v, "__tostring"); h.k != KindNil {
		r := th.call1At(h, pos, v)
		if r.k == KindString {
			return r.AsString()
		}
		if r.IsNumber() {
			return FormatNumber(r)
		}
		panic(th.runtimeError(pos, "'__tostring' must return a string"))
	}
	if n := th.metaField(v, "__name"); n.k == KindString {
		return n.AsString() + ": " + addrString(v)
	}
	return v.TypeName() + ": " + addrString(v)
}

// ToString is tostring(v), for natives.
func (th *Thread) ToString(v Value) string { return th.tostring(v, -1) }

func (th *Thread) concat2(a, b Value, pos int32) Value {
	if (a.k == KindString || a.IsNumber()) && (b.k == KindString || b.IsNumber()) {
		pa, pb := concatPiece(a), concatPiece(b)
		if len(pa)+len(pb) > th.in.maxString {
			panic(th.runtimeError(pos, "string length overflow (more than %d bytes)", th.in.maxString))
		}
		th.allocBytes(int64(len(pa)+len(pb)), pos)
		return String(pa + pb)
	}
	h := th.metaField(a, "__concat")
	if h.k == KindNil {
		h = th.metaField(b, "__concat")
	}
	if h.k != KindNil {
		return th.call1At(h, pos, a, b)
	}
	bad := a
	if a.k == KindString || a.IsNumber() {
		bad = b
	}
	panic(th.runtimeError(pos, "attempt to concatenate a %s value", bad.TypeName()))
}

func concatPiece(v Value) string {
	if v.k == KindString {
		return v.AsString()
	}
	return FormatNumber(v)
}

// concatN joins a .. chain right to left; runs of strings and numbers are
// joined at once.
func (th *Thread) concatN(vals []Value, pos int32) Value {
	plain := true
	size := 0
	for _, v := range vals {
		if v.k == KindString {
			size += int(v.n)
		} else if v.IsNumber() {
			size += 8
		} else {
			plain = false
			break
		}
	}
	if plain {
		if size > th.in.maxString {
			panic(th.runtimeError(pos, "string length overflow (more than %d bytes)", th.in.maxString))
		}
		th.allocBytes(int64(size), pos)
		var b strings.Builder
		b.Grow(size)
		for _, v := range vals {
			b.WriteString(concatPiece(v))
		}
		return String(b.String())
	}
	acc := vals[len(vals)-1]
	for i := len(vals) - 2; i >= 0; i-- {
		acc = th.concat2(vals[i], acc, pos)
	}
	return acc
}
