package harn

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
)

// maxValueDepth bounds recursion over nested values (display, equality,
// hashing, JSON); deeper parts are elided rather than overflowing the Go
// stack. Programs can build values this deep only on purpose.
const maxValueDepth = 2000

// Display is the display form used by print, log, interpolation and
// to_string: strings raw, floats with a fraction, dicts sorted by key.
func Display(v Value) string {
	if s, ok := scalarDisplay(v); ok {
		return s
	}
	var b strings.Builder
	writeDisplay(&b, v, 0, &walk{out: &b})
	return b.String()
}

// display is Display charged to th's run: the nodes visited count as
// steps and the text written as memory, so a value that shares itself
// (2^100 leaves) stops at the run's budget instead of running forever.
func (th *thread) display(v Value) (string, error) {
	if s, ok := scalarDisplay(v); ok {
		return s, nil
	}
	var b strings.Builder
	w := &walk{th: th, out: &b}
	writeDisplay(&b, v, 0, w)
	if w.err != nil {
		return "", w.err
	}
	return b.String(), nil
}

// scalarDisplay is the display form of a value of one node (what
// writeDisplay writes for it), without a walk or a builder; ok is false
// for the other kinds.
func scalarDisplay(v Value) (string, bool) {
	switch v.k {
	case KindString:
		return v.r.(string), true
	case KindInt:
		return strconv.FormatInt(int64(v.n), 10), true
	case KindFloat:
		return FormatFloat(v.AsFloat()), true
	case KindBool:
		if v.n != 0 {
			return "true", true
		}
		return "false", true
	case KindNil:
		return "nil", true
	case KindDuration:
		return FormatDuration(int64(v.n)), true
	}
	return "", false
}

// equal is Equal charged to th's run (see walk).
func (th *thread) equal(a, b Value) (bool, error) {
	w := &walk{th: th}
	eq := equalDepth(a, b, 0, w)
	return eq, w.err
}

// A walk bounds one traversal of a program value (display, equality,
// JSON). Values can share themselves: l = [l, l] a hundred times has
// 2^100 leaves, so the work is counted per node visited, not per value
// built. With a thread, every walkChunk nodes the walk charges the run's
// steps and the bytes written so far, and checks its stops and deadline
// blocks; the first error ends the walk. Without a thread (host code,
// error messages) a walk that writes text gives up after maxDetachedNodes
// nodes with errValueTooLarge. Equality also remembers the pairs of containers it
// found equal once a walk is past memoAfter nodes, so comparing shared
// structures is linear in the distinct pairs.
type walk struct {
	th      *thread
	out     *strings.Builder // the text written, whose growth is charged
	charged int
	nodes   int64
	err     error
	memo    map[[2]any]struct{}
}

const (
	walkChunk        = 1024
	maxDetachedNodes = 1 << 24
	memoAfter        = 4096
)

// errValueTooLarge ends a walk without a run past maxDetachedNodes nodes.
var errValueTooLarge = typeError("value too large: more than %d nested elements to visit", maxDetachedNodes)

// visit counts a node and reports whether the walk may go on.
func (w *walk) visit() bool {
	if w.err != nil {
		return false
	}
	w.nodes++
	if w.nodes%walkChunk != 0 {
		return true
	}
	w.err = w.checkpoint()
	return w.err == nil
}

func (w *walk) checkpoint() error {
	if w.th == nil {
		if w.out != nil && w.nodes >= maxDetachedNodes {
			return errValueTooLarge
		}
		return nil
	}
	if err := w.th.charge(walkChunk); err != nil {
		return err
	}
	if w.out != nil {
		// A builder grows by doubling: left to grow on a write, a text
		// just under the budget would allocate twice the budget before
		// the next checkpoint could charge it. So the walk grows the
		// builder itself when it is three quarters full, asking the
		// budget first for what the growth allocates, and charges its
		// capacity (what it holds), not its length.
		if c, l := w.out.Cap(), w.out.Len(); c-l < c/4 {
			more := c/2 + walkChunk
			if err := w.th.alloc(int64(2*c + more)); err != nil {
				return err
			}
			w.out.Grow(more)
			w.charged = w.out.Cap()
		} else if n := c - w.charged; n > 0 {
			w.charged = c
			if err := w.th.alloc(int64(n)); err != nil {
				return err
			}
		}
	}
	return w.th.checkLimits()
}

// FormatFloat renders a float the way Harn prints it: integral values
// below 1e15 with ".0", others in shortest round-trip decimal form.
func FormatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// FormatDuration renders milliseconds in the largest whole unit.
func FormatDuration(ms int64) string {
	sign := ""
	abs := uint64(ms)
	if ms < 0 {
		sign = "-"
		abs = uint64(-ms)
	}
	switch {
	case abs >= 3_600_000 && abs%3_600_000 == 0:
		return sign + strconv.FormatUint(abs/3_600_000, 10) + "h"
	case abs >= 60_000 && abs%60_000 == 0:
		return sign + strconv.FormatUint(abs/60_000, 10) + "m"
	case abs >= 1000 && abs%1000 == 0:
		return sign + strconv.FormatUint(abs/1000, 10) + "s"
	}
	return sign + strconv.FormatUint(abs, 10) + "ms"
}

func writeDisplay(b *strings.Builder, v Value, depth int, w *walk) {
	if depth > maxValueDepth || !w.visit() {
		b.WriteString("...")
		return
	}
	switch v.k {
	case KindNil:
		b.WriteString("nil")
	case KindBool:
		if v.n != 0 {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case KindInt:
		b.WriteString(strconv.FormatInt(int64(v.n), 10))
	case KindFloat:
		b.WriteString(FormatFloat(v.AsFloat()))
	case KindString:
		b.WriteString(v.r.(string))
	case KindBytes:
		bs := v.r.([]byte)
		b.WriteString(`b"`)
		n := min(len(bs), 32)
		b.WriteString(hex.EncodeToString(bs[:n]))
		if len(bs) > 32 {
			b.WriteString("...+" + strconv.Itoa(len(bs)-32))
		}
		b.WriteByte('"')
	case KindDuration:
		b.WriteString(FormatDuration(int64(v.n)))
	case KindList:
		b.WriteByte('[')
		for i, x := range v.r.(*List).items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeDisplay(b, x, depth+1, w)
		}
		b.WriteByte(']')
	case KindDict:
		d := v.r.(*Dict)
		b.WriteByte('{')
		for i, k := range d.Keys() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(k)
			b.WriteString(": ")
			writeDisplay(b, d.m[k], depth+1, w)
		}
		b.WriteByte('}')
	case KindSet:
		b.WriteString("set(")
		for i, x := range v.r.(*Set).items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeDisplay(b, x, depth+1, w)
		}
		b.WriteByte(')')
	case KindRange:
		r := v.r.(*Range)
		b.WriteString(strconv.FormatInt(r.Start, 10) + " to " + strconv.FormatInt(r.End, 10))
		if !r.Inclusive {
			b.WriteString(" exclusive")
		}
	case KindPair:
		p := v.r.(*Pair)
		b.WriteByte('(')
		writeDisplay(b, p.First, depth+1, w)
		b.WriteString(", ")
		writeDisplay(b, p.Second, depth+1, w)
		b.WriteByte(')')
	case KindClosure:
		c := v.r.(*Closure)
		b.WriteString("<fn(" + strings.Join(c.proto.paramNames(), ", ") + ")>")
	case KindBuiltin:
		b.WriteString("<builtin " + v.r.(*Builtin).Name + ">")
	case KindEnum:
		e := v.r.(*EnumValue)
		b.WriteString(e.Enum + "." + e.Variant)
		if len(e.Fields) > 0 {
			b.WriteByte('(')
			for i, x := range e.Fields {
				if i > 0 {
					b.WriteString(", ")
				}
				writeDisplay(b, x, depth+1, w)
			}
			b.WriteByte(')')
		}
	case KindStruct:
		s := v.r.(*StructValue)
		b.WriteString(s.Type.name + " {")
		names := sortedFieldOrder(s.Type)
		first := true
		for _, i := range names {
			if s.Fields[i].k == KindNil && !s.Type.present(i) {
				continue
			}
			if !first {
				b.WriteString(", ")
			}
			first = false
			b.WriteString(s.Type.fields[i] + ": ")
			writeDisplay(b, s.Fields[i], depth+1, w)
		}
		b.WriteByte('}')
	case KindIter:
		if v.r.(*Iter).exhausted() {
			b.WriteString("<iter (exhausted)>")
		} else {
			b.WriteString("<iter>")
		}
	case KindGenerator:
		if v.r.(*Generator).isDone() {
			b.WriteString("<generator (done)>")
		} else {
			b.WriteString("<generator>")
		}
	case KindStream:
		if v.r.(*Generator).isDone() {
			b.WriteString("<stream (done)>")
		} else {
			b.WriteString("<stream>")
		}
	case KindTask:
		b.WriteString("<task:" + v.r.(*Task).id + ">")
	case KindChannel:
		b.WriteString("<channel:" + v.r.(*Channel).name + ">")
	case KindAtomic:
		b.WriteString("<atomic:" + strconv.FormatInt(v.r.(*Atomic).load(), 10) + ">")
	case KindObject:
		o := v.r.(*Object)
		if o.TypeName != "" {
			b.WriteString("<" + o.TypeName + ">")
		} else {
			b.WriteString("<object>")
		}
	default:
		b.WriteString("<?>")
	}
}

// Equal is Harn value equality: same type and contents, ints and floats
// compared numerically, closures never equal.
func Equal(a, b Value) bool { return equalDepth(a, b, 0, &walk{}) }

func equalDepth(a, b Value, depth int, w *walk) bool {
	if depth > maxValueDepth || !w.visit() {
		return false
	}
	if a.k != b.k {
		switch {
		case a.k == KindInt && b.k == KindFloat:
			return float64(int64(a.n)) == b.AsFloat()
		case a.k == KindFloat && b.k == KindInt:
			return a.AsFloat() == float64(int64(b.n))
		}
		return false
	}
	if w.nodes > memoAfter {
		switch a.k {
		case KindList, KindDict, KindPair, KindEnum, KindStruct:
			key := [2]any{a.r, b.r}
			if _, ok := w.memo[key]; ok {
				return true
			}
			eq := equalSame(a, b, depth, w)
			if eq {
				if w.memo == nil {
					w.memo = map[[2]any]struct{}{}
				}
				w.memo[key] = struct{}{}
			}
			return eq
		}
	}
	return equalSame(a, b, depth, w)
}

// equalSame compares two values of the same kind.
func equalSame(a, b Value, depth int, w *walk) bool {
	switch a.k {
	case KindNil:
		return true
	case KindBool, KindInt, KindDuration:
		return a.n == b.n
	case KindFloat:
		return a.AsFloat() == b.AsFloat()
	case KindString:
		return a.r.(string) == b.r.(string)
	case KindBytes:
		return string(a.r.([]byte)) == string(b.r.([]byte))
	case KindList:
		x, y := a.r.(*List).items, b.r.(*List).items
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalDepth(x[i], y[i], depth+1, w) {
				return false
			}
		}
		return true
	case KindDict:
		x, y := a.r.(*Dict), b.r.(*Dict)
		if x.Len() != y.Len() {
			return false
		}
		for k, v := range x.m {
			u, ok := y.m[k]
			if !ok || !equalDepth(v, u, depth+1, w) {
				return false
			}
		}
		return true
	case KindSet:
		x, y := a.r.(*Set), b.r.(*Set)
		if x.Len() != y.Len() {
			return false
		}
		for _, v := range x.items {
			if !y.Has(v) {
				return false
			}
		}
		return true
	case KindRange:
		x, y := a.r.(*Range), b.r.(*Range)
		return *x == *y
	case KindPair:
		x, y := a.r.(*Pair), b.r.(*Pair)
		return equalDepth(x.First, y.First, depth+1, w) && equalDepth(x.Second, y.Second, depth+1, w)
	case KindEnum:
		x, y := a.r.(*EnumValue), b.r.(*EnumValue)
		if x.Enum != y.Enum || x.Variant != y.Variant || len(x.Fields) != len(y.Fields) {
			return false
		}
		for i := range x.Fields {
			if !equalDepth(x.Fields[i], y.Fields[i], depth+1, w) {
				return false
			}
		}
		return true
	case KindStruct:
		x, y := a.r.(*StructValue), b.r.(*StructValue)
		if x.Type.name != y.Type.name || len(x.Fields) != len(y.Fields) {
			return false
		}
		for i := range x.Fields {
			if !equalDepth(x.Fields[i], y.Fields[i], depth+1, w) {
				return false
			}
		}
		return true
	case KindBuiltin:
		return a.r.(*Builtin).Name == b.r.(*Builtin).Name
	case KindTask:
		return a.r.(*Task) == b.r.(*Task)
	case KindIter, KindObject:
		return a.r == b.r
	case KindAtomic:
		return a.r.(*Atomic).load() == b.r.(*Atomic).load()
	}
	return false
}

// Compare orders ints, floats and strings (and pairs of them); other
// combinations compare equal, and ok is false.
func Compare(a, b Value) (c int, ok bool) {
	switch {
	case a.k == KindInt && b.k == KindInt, a.k == KindDuration && b.k == KindDuration:
		x, y := int64(a.n), int64(b.n)
		return cmp3(x < y, x > y), true
	case a.k == KindString && b.k == KindString:
		return strings.Compare(a.r.(string), b.r.(string)), true
	case a.k == KindPair && b.k == KindPair:
		x, y := a.r.(*Pair), b.r.(*Pair)
		if c, ok := Compare(x.First, y.First); !ok || c != 0 {
			return c, ok
		}
		return Compare(x.Second, y.Second)
	}
	x, ok1 := a.Number()
	y, ok2 := b.Number()
	if ok1 && ok2 {
		return cmp3(x < y, x > y), true
	}
	return 0, false
}

func cmp3(less, greater bool) int {
	if less {
		return -1
	}
	if greater {
		return 1
	}
	return 0
}

// hashKey is a canonical string for structural equality (sets, dedupe):
// equal values get equal keys; an int and an equal float share one.
func hashKey(v Value) string {
	switch v.k {
	case KindString:
		return "s" + v.r.(string)
	case KindInt:
		return "i" + strconv.FormatInt(int64(v.n), 10) + ";"
	}
	var b strings.Builder
	writeHashKey(&b, v, 0)
	return b.String()
}

func writeHashKey(b *strings.Builder, v Value, depth int) {
	if depth > maxValueDepth {
		b.WriteString("…")
		return
	}
	switch v.k {
	case KindNil:
		b.WriteByte('N')
	case KindBool:
		if v.n != 0 {
			b.WriteByte('T')
		} else {
			b.WriteByte('F')
		}
	case KindInt:
		b.WriteString("i" + strconv.FormatInt(int64(v.n), 10) + ";")
	case KindFloat:
		f := v.AsFloat()
		if f == math.Trunc(f) && math.Abs(f) < 1<<62 {
			b.WriteString("i" + strconv.FormatInt(int64(f), 10) + ";")
		} else {
			b.WriteString("f" + strconv.FormatUint(v.n, 10) + ";")
		}
	case KindString:
		s := v.r.(string)
		b.WriteString("s" + strconv.Itoa(len(s)) + ":" + s)
	case KindList:
		b.WriteByte('L')
		for _, x := range v.r.(*List).items {
			writeHashKey(b, x, depth+1)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case KindDict:
		d := v.r.(*Dict)
		b.WriteByte('D')
		for _, k := range d.Keys() {
			b.WriteString(strconv.Itoa(len(k)) + ":" + k + "=")
			writeHashKey(b, d.m[k], depth+1)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case KindPair:
		p := v.r.(*Pair)
		b.WriteByte('P')
		writeHashKey(b, p.First, depth+1)
		b.WriteByte(',')
		writeHashKey(b, p.Second, depth+1)
	case KindEnum:
		e := v.r.(*EnumValue)
		b.WriteString("E" + strconv.Itoa(len(e.Enum)) + ":" + e.Enum + "." + strconv.Itoa(len(e.Variant)) + ":" + e.Variant + "(")
		for _, x := range e.Fields {
			writeHashKey(b, x, depth+1)
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case KindClosure, KindIter, KindObject, KindChannel, KindTask, KindGenerator, KindStream:
		// Identity: never equal to another value.
		b.WriteString("o" + v.TypeName() + "@" + strconv.FormatUint(uint64(identity(v)), 16))
	default:
		d := Display(v)
		b.WriteString("o" + v.TypeName() + ":" + strconv.Itoa(len(d)) + ":" + d)
	}
}
