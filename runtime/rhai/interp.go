package rhai

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits are the hardening settings of one run.
type Limits struct {
	// MaxOperations is the operation budget of one call, top-level
	// statements included.
	MaxOperations int64
	// MaxStringSize is the largest string, in bytes.
	MaxStringSize int
	// MaxArraySize and MaxMapSize bound element and entry counts, summed
	// recursively through nested containers.
	MaxArraySize, MaxMapSize int
	// MaxCallLevels bounds nested script function calls.
	MaxCallLevels int
	// MaxExprDepth bounds expression nesting at parse time (and the
	// nesting parse_json accepts).
	MaxExprDepth int
}

// DefaultLimits returns Leviath's validator settings.
func DefaultLimits() Limits {
	return Limits{MaxOperations: 100_000, MaxStringSize: 1_000_000, MaxArraySize: 10_000, MaxMapSize: 10_000,
		MaxCallLevels: 64, MaxExprDepth: 128}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxOperations <= 0 {
		l.MaxOperations = d.MaxOperations
	}
	if l.MaxStringSize <= 0 {
		l.MaxStringSize = d.MaxStringSize
	}
	if l.MaxArraySize <= 0 {
		l.MaxArraySize = d.MaxArraySize
	}
	if l.MaxMapSize <= 0 {
		l.MaxMapSize = d.MaxMapSize
	}
	if l.MaxCallLevels <= 0 {
		l.MaxCallLevels = d.MaxCallLevels
	}
	if l.MaxExprDepth <= 0 {
		l.MaxExprDepth = d.MaxExprDepth
	}
	return l
}

// maxEvalDepth bounds the evaluator's own Go recursion (a long operator
// chain is one parse level but many evaluation levels).
const maxEvalDepth = 20_000

type variable struct {
	name    string
	value   Value
	isConst bool
	// box, when set, holds the value instead: the variable was captured
	// by a closure and is shared with it, as Rhai's closures share
	// captured variables.
	box *Value
}

// slot returns where the variable's value lives.
func (v *variable) slot() *Value {
	if v.box != nil {
		return v.box
	}
	return &v.value
}

type interp struct {
	prog    *Program
	lim     Limits
	ops     int64
	calls   int
	depth   int
	scope   []variable
	globals []variable
	this    *Value
	caught  []*EvalError
	// free holds scope slices of finished calls for reuse.
	free [][]variable
}

// newScope returns an empty scope slice, reusing a finished call's.
func (it *interp) newScope(capHint int) []variable {
	if n := len(it.free); n > 0 {
		sc := it.free[n-1]
		it.free = it.free[:n-1]
		return sc[:0]
	}
	return make([]variable, 0, max(capHint, 16))
}

// releaseScope returns a finished call's scope slice for reuse. Nothing
// points into it once the call is over: closures copy what they capture.
func (it *interp) releaseScope(sc []variable) {
	clear(sc[:cap(sc)])
	it.free = append(it.free, sc[:0])
}

// Call runs the top-level statements (as Rhai's call_fn does before every
// call), then calls the script function name with args, under lim. An
// exit(v) anywhere returns v.
func (p *Program) Call(name string, args []Value, lim Limits) (Value, *EvalError) {
	it := &interp{prog: p, lim: lim.withDefaults()}
	if _, err := it.runTop(); err != nil {
		if c, ok := err.(*ctrl); ok && c.kind == ctrlExit {
			return c.value, nil
		}
		return nil, toEvalError(err)
	}
	f := p.fns[name][len(args)]
	if f == nil {
		return nil, it.errf(ErrRuntime, -1, "Function not found: %s", signature(name, args))
	}
	it.scope = nil
	// The limits hold for what the caller hands in (a validator's
	// content) as for what the script builds.
	for _, a := range args {
		if err := it.checkSize(a, -1); err != nil {
			return nil, toEvalError(err)
		}
	}
	v, err := it.callFn(f, args, nil, -1)
	if err != nil {
		if c, ok := err.(*ctrl); ok && c.kind == ctrlExit {
			return c.value, nil
		}
		e := toEvalError(err)
		// The frame of the called function itself is not reported.
		if n := len(e.Calls); n > 0 && e.Calls[n-1] == name {
			e.Calls = e.Calls[:n-1]
		}
		return nil, e
	}
	if err := it.checkSize(v, -1); err != nil {
		return nil, toEvalError(err)
	}
	return v, nil
}

// Run evaluates the top-level statements and returns the last one's value.
func (p *Program) Run(lim Limits) (Value, *EvalError) {
	it := &interp{prog: p, lim: lim.withDefaults()}
	v, err := it.runTop()
	if err != nil {
		if c, ok := err.(*ctrl); ok && (c.kind == ctrlExit || c.kind == ctrlReturn) {
			return c.value, nil
		}
		return nil, toEvalError(err)
	}
	return v, nil
}

func toEvalError(err error) *EvalError {
	if e, ok := err.(*EvalError); ok {
		return e
	}
	return &EvalError{Kind: ErrRuntime, Message: err.Error(), Pos: -1}
}

func (it *interp) runTop() (Value, error) {
	var last Value = Unit{}
	for _, st := range it.prog.stmts {
		v, err := it.stmt(st)
		if err != nil {
			if c, ok := err.(*ctrl); ok && c.kind == ctrlReturn {
				return c.value, nil
			}
			return nil, err
		}
		last = v
	}
	return last, nil
}

func (it *interp) errf(kind ErrorKind, pos int, format string, args ...any) *EvalError {
	e := &EvalError{Kind: kind, Message: fmt.Sprintf(format, args...), Pos: pos}
	if pos >= 0 {
		e.Line, e.Column = lineCol(it.prog.src, pos)
	}
	return e
}

// tick spends one operation.
func (it *interp) tick(pos int) error {
	it.ops++
	if it.ops > it.lim.MaxOperations {
		return it.errf(ErrTooManyOperations, pos, "Too many operations")
	}
	return nil
}

// charge spends operations for work proportional to n bytes (one per
// 4 KiB), so that scanning or copying huge strings cannot outlast the
// budget. Rhai does not do this; it only matters for megabyte data.
func (it *interp) charge(n int, pos int) error {
	if n < 4096 {
		return nil
	}
	it.ops += int64(n >> 12)
	if it.ops > it.lim.MaxOperations {
		return it.errf(ErrTooManyOperations, pos, "Too many operations")
	}
	return nil
}

// growString charges and checks a string of n bytes about to be built:
// data is charged before it is allocated, so a script cannot allocate far
// past its limits before they are checked.
func (it *interp) growString(n int, pos int) error {
	if n > it.lim.MaxStringSize {
		return it.errf(ErrDataTooLarge, pos, "Length of string too large")
	}
	return it.charge(n, pos)
}

// growArray charges and checks an array of n elements about to be built.
func (it *interp) growArray(n int, pos int) error {
	if n > it.lim.MaxArraySize {
		return it.errf(ErrDataTooLarge, pos, "Size of array too large")
	}
	return it.charge(n*16, pos)
}

// sizeOf measures v, charging the entries walked to refresh size caches.
func (it *interp) sizeOf(v Value) dsize {
	visited := 0
	d := sizeOf(v, &visited, 0)
	it.ops += int64(visited >> elemShift)
	return d
}

// checkSize enforces the data limits on v.
func (it *interp) checkSize(v Value, pos int) error {
	switch t := v.(type) {
	case string:
		if len(t) > it.lim.MaxStringSize {
			return it.errf(ErrDataTooLarge, pos, "Length of string too large")
		}
	case *Array, *Map:
		d := it.sizeOf(v)
		if debugSizes && d != freshSize(v, 0) {
			panic(fmt.Sprintf("stale size cache: cached %+v, fresh %+v", d, freshSize(v, 0)))
		}
		if d.arr > it.lim.MaxArraySize {
			return it.errf(ErrDataTooLarge, pos, "Size of array too large")
		}
		if d.mp > it.lim.MaxMapSize {
			return it.errf(ErrDataTooLarge, pos, "Size of object map too large")
		}
		if d.str > it.lim.MaxStringSize {
			return it.errf(ErrDataTooLarge, pos, "Length of string too large")
		}
	}
	return nil
}

func (it *interp) lookup(name string) int {
	for i := len(it.scope) - 1; i >= 0; i-- {
		if it.scope[i].name == name {
			return i
		}
	}
	return -1
}

func (it *interp) push(name string, v Value, isConst bool) {
	it.scope = append(it.scope, variable{name: name, value: share(v), isConst: isConst})
}

// stmt executes one statement and returns its value.
func (it *interp) stmt(n node) (Value, error) {
	if err := it.tick(n.at()); err != nil {
		return nil, err
	}
	switch s := n.(type) {
	case *exprStmt:
		return it.eval(s.x)
	case *letStmt:
		var v Value = Unit{}
		if s.value != nil {
			var err error
			if v, err = it.eval(s.value); err != nil {
				return nil, err
			}
		}
		it.push(s.name, v, s.isConst)
		if s.isConst && len(it.scope) > 0 && it.calls == 0 && it.depth == 0 {
			it.globals = append(it.globals, variable{name: s.name, value: share(v), isConst: true})
		}
		return Unit{}, nil
	case *assignStmt:
		return Unit{}, it.assign(s)
	case *returnStmt:
		var v Value = Unit{}
		if s.value != nil {
			var err error
			if v, err = it.eval(s.value); err != nil {
				return nil, err
			}
		}
		return nil, &ctrl{kind: ctrlReturn, value: v, pos: s.pos}
	case *breakStmt:
		var v Value = Unit{}
		if s.value != nil {
			var err error
			if v, err = it.eval(s.value); err != nil {
				return nil, err
			}
		}
		return nil, &ctrl{kind: ctrlBreak, value: v, pos: s.pos}
	case *continueStmt:
		return nil, &ctrl{kind: ctrlContinue, pos: s.pos}
	case *throwStmt:
		if s.value == nil {
			if n := len(it.caught); n > 0 {
				return nil, it.caught[n-1]
			}
			return nil, it.throw(Unit{}, s.pos)
		}
		v, err := it.eval(s.value)
		if err != nil {
			return nil, err
		}
		return nil, it.throw(v, s.pos)
	case *importStmt:
		v, err := it.eval(s.path)
		if err != nil {
			return nil, err
		}
		return nil, it.errf(ErrRuntime, s.pos, "Module not found: %s", ToString(v))
	}
	return nil, it.errf(ErrRuntime, n.at(), "unsupported statement")
}

func (it *interp) throw(v Value, pos int) *EvalError {
	msg := "Runtime error"
	if s := ToString(v); s != "" {
		msg += ": " + s
	}
	e := it.errf(ErrThrow, pos, "%s", msg)
	e.Value = v
	return e
}

func (it *interp) block(b *blockExpr) (Value, error) {
	mark := len(it.scope)
	var last Value = Unit{}
	for _, st := range b.stmts {
		v, err := it.stmt(st)
		if err != nil {
			it.scope = it.scope[:mark]
			return nil, err
		}
		last = v
	}
	it.scope = it.scope[:mark]
	return last, nil
}

func (it *interp) cond(n node) (bool, error) {
	v, err := it.eval(n)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, it.errf(ErrRuntime, n.at(), "Data type incorrect: %s (expecting bool)", TypeName(v))
	}
	return b, nil
}

// eval evaluates an expression.
func (it *interp) eval(n node) (Value, error) {
	it.depth++
	if it.depth > maxEvalDepth {
		it.depth--
		return nil, it.errf(ErrStackOverflow, n.at(), "Stack overflow")
	}
	v, err := it.evalNode(n)
	it.depth--
	return v, err
}

func (it *interp) evalNode(n node) (Value, error) {
	if err := it.tick(n.at()); err != nil {
		return nil, err
	}
	switch x := n.(type) {
	case *litExpr:
		return x.v, nil
	case *varExpr:
		i := it.lookup(x.name)
		if i < 0 {
			return nil, it.errf(ErrRuntime, x.pos, "Variable not found: %s", x.name)
		}
		return *it.scope[i].slot(), nil
	case *globalExpr:
		for i := len(it.globals) - 1; i >= 0; i-- {
			if it.globals[i].name == x.name {
				return it.globals[i].value, nil
			}
		}
		return nil, it.errf(ErrRuntime, x.pos, "Variable not found: global::%s", x.name)
	case *thisExpr:
		if it.this == nil {
			return Unit{}, nil
		}
		return *it.this, nil
	case *interpExpr:
		var b strings.Builder
		for _, p := range x.parts {
			v, err := it.eval(p)
			if err != nil {
				return nil, err
			}
			part := ToString(v)
			if b.Len()+len(part) > it.lim.MaxStringSize {
				return nil, it.errf(ErrDataTooLarge, x.pos, "Length of string too large")
			}
			b.WriteString(part)
		}
		if err := it.charge(b.Len(), x.pos); err != nil {
			return nil, err
		}
		return b.String(), nil
	case *arrayExpr:
		a := &Array{Items: make([]Value, 0, len(x.items))}
		for _, e := range x.items {
			v, err := it.eval(e)
			if err != nil {
				return nil, err
			}
			a.Items = append(a.Items, share(v))
		}
		return a, it.checkSize(a, x.pos)
	case *mapExpr:
		m := &Map{m: make(map[string]Value, len(x.keys))}
		for i, k := range x.keys {
			v, err := it.eval(x.vals[i])
			if err != nil {
				return nil, err
			}
			m.m[k] = share(v)
		}
		return m, it.checkSize(m, x.pos)
	case *unaryExpr:
		v, err := it.eval(x.x)
		if err != nil {
			return nil, err
		}
		return it.unary(x.op, v, x.pos)
	case *binaryExpr:
		return it.binaryExpr(x)
	case *propExpr:
		obj, err := it.eval(x.obj)
		if err != nil {
			return nil, err
		}
		return it.getProp(obj, x.name, x.safe, x.pos)
	case *indexExpr:
		obj, err := it.eval(x.obj)
		if err != nil {
			return nil, err
		}
		if _, ok := obj.(Unit); ok && x.safe {
			return Unit{}, nil
		}
		idx, err := it.eval(x.idx)
		if err != nil {
			return nil, err
		}
		return it.getIndex(obj, idx, x.pos)
	case *callExpr:
		return it.call(x)
	case *methodExpr:
		return it.method(x)
	case *blockExpr:
		return it.block(x)
	case *ifExpr:
		for {
			ok, err := it.cond(x.cond)
			if err != nil {
				return nil, err
			}
			if ok {
				return it.block(x.then)
			}
			switch e := x.els.(type) {
			case nil:
				return Unit{}, nil
			case *blockExpr:
				return it.block(e)
			case *ifExpr:
				x = e
			}
		}
	case *whileExpr:
		return it.loop(x)
	case *forExpr:
		return it.forLoop(x)
	case *switchExpr:
		return it.switchExpr(x)
	case *tryExpr:
		v, err := it.block(x.body)
		if err == nil {
			return v, nil
		}
		e, ok := err.(*EvalError)
		if !ok || !e.Catchable() {
			return nil, err
		}
		mark := len(it.scope)
		if x.errName != "" {
			it.push(x.errName, e.toCatchValue(), false)
		}
		it.caught = append(it.caught, e)
		v, err = it.block(x.catch)
		it.caught = it.caught[:len(it.caught)-1]
		it.scope = it.scope[:mark]
		return v, err
	case *closureExpr:
		fp := &FnPtr{params: x.params, body: x.body}
		fp.captured = make([]variable, len(it.scope))
		for i := range it.scope {
			v := &it.scope[i]
			if v.box == nil {
				v.box = new(Value)
				*v.box, v.value = v.value, nil
			}
			fp.captured[i] = variable{name: v.name, isConst: v.isConst, box: v.box}
		}
		return fp, nil
	}
	return nil, it.errf(ErrRuntime, n.at(), "unsupported expression")
}

func (it *interp) loop(x *whileExpr) (Value, error) {
	for {
		if x.cond != nil && !x.post {
			ok, err := it.cond(x.cond)
			if err != nil {
				return nil, err
			}
			if !ok {
				return Unit{}, nil
			}
		}
		if err := it.tick(x.pos); err != nil {
			return nil, err
		}
		_, err := it.block(x.body)
		if err != nil {
			c, ok := err.(*ctrl)
			if !ok || c.kind == ctrlReturn || c.kind == ctrlExit {
				return nil, err
			}
			if c.kind == ctrlBreak {
				return c.value, nil
			}
		}
		if x.post {
			ok, err := it.cond(x.cond)
			if err != nil {
				return nil, err
			}
			if ok == x.until {
				return Unit{}, nil
			}
		}
	}
}

func (it *interp) forLoop(x *forExpr) (Value, error) {
	src, err := it.eval(x.iter)
	if err != nil {
		return nil, err
	}
	var next func(i int64) (Value, bool)
	switch t := src.(type) {
	case *Array:
		items := t.Items
		next = func(i int64) (Value, bool) {
			if i >= int64(len(items)) {
				return nil, false
			}
			return items[i], true
		}
	case Range:
		step := t.Step
		if step == 0 {
			step = 1
		}
		next = func(i int64) (Value, bool) {
			v := t.Start + i*step
			if step > 0 && (v > t.End || v == t.End && !t.Inclusive) || step < 0 && (v < t.End || v == t.End && !t.Inclusive) {
				return nil, false
			}
			return v, true
		}
	case string:
		if err := it.charge(len(t), x.pos); err != nil {
			return nil, err
		}
		rs := []rune(t)
		next = func(i int64) (Value, bool) {
			if i >= int64(len(rs)) {
				return nil, false
			}
			return rs[i], true
		}
	default:
		return nil, it.errf(ErrRuntime, x.iter.at(), "For loop expects iterable type")
	}
	for i := int64(0); ; i++ {
		v, ok := next(i)
		if !ok {
			return Unit{}, nil
		}
		if err := it.tick(x.pos); err != nil {
			return nil, err
		}
		mark := len(it.scope)
		it.push(x.name, v, false)
		if x.counter != "" {
			it.push(x.counter, i, false)
		}
		_, err := it.block(x.body)
		it.scope = it.scope[:mark]
		if err != nil {
			c, ok := err.(*ctrl)
			if !ok || c.kind == ctrlReturn || c.kind == ctrlExit {
				return nil, err
			}
			if c.kind == ctrlBreak {
				return c.value, nil
			}
		}
	}
}

// sameCase is switch matching: equal type and value, no numeric mixing.
func sameCase(a, b Value) bool {
	if TypeName(a) != TypeName(b) {
		return false
	}
	return equal(a, b, 0)
}

func (it *interp) switchExpr(x *switchExpr) (Value, error) {
	v, err := it.eval(x.subj)
	if err != nil {
		return nil, err
	}
	for _, c := range x.cases {
		match := false
		for _, cv := range c.values {
			if sameCase(v, cv) {
				match = true
				break
			}
		}
		if iv, ok := v.(int64); ok && !match {
			for _, r := range c.ranges {
				if r.contains(iv) {
					match = true
					break
				}
			}
		}
		if !match {
			continue
		}
		if c.guard != nil {
			ok, err := it.cond(c.guard)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		return it.eval(c.body)
	}
	if x.def != nil {
		return it.eval(x.def)
	}
	return Unit{}, nil
}

func (r Range) contains(v int64) bool {
	if r.Inclusive {
		return v >= r.Start && v <= r.End
	}
	return v >= r.Start && v < r.End
}

// callFn calls a script function with a fresh scope.
func (it *interp) callFn(f *fnDef, args []Value, this *Value, pos int) (Value, error) {
	if it.calls >= it.lim.MaxCallLevels {
		return nil, it.errf(ErrStackOverflow, pos, "Stack overflow")
	}
	it.calls++
	savedScope, savedThis, savedCaught := it.scope, it.this, it.caught
	it.scope = it.newScope(len(args) + 8)
	it.caught = nil
	for i, p := range f.params {
		it.push(p, args[i], false)
	}
	it.this = this
	v, err := it.block(f.body)
	it.releaseScope(it.scope)
	it.scope, it.this, it.caught = savedScope, savedThis, savedCaught
	it.calls--
	if err != nil {
		if c, ok := err.(*ctrl); ok && c.kind == ctrlReturn {
			return c.value, nil
		}
		if e, ok := err.(*EvalError); ok {
			e.Calls = append(e.Calls, f.name)
		}
		return nil, err
	}
	return v, nil
}

// callClosure calls fp with as many of args as it has parameters.
func (it *interp) callClosure(fp *FnPtr, args []Value, pos int) (Value, error) {
	if it.calls >= it.lim.MaxCallLevels {
		return nil, it.errf(ErrStackOverflow, pos, "Stack overflow")
	}
	if len(fp.params) > len(args) {
		return nil, it.errf(ErrRuntime, pos, "Function not found: anonymous closure with %d parameters", len(fp.params))
	}
	it.calls++
	savedScope, savedThis, savedCaught := it.scope, it.this, it.caught
	it.scope = append(it.newScope(len(fp.captured)+len(fp.params)+4), fp.captured...)
	it.caught = nil
	for i, p := range fp.params {
		it.push(p, args[i], false)
	}
	it.this = nil
	v, err := it.eval(fp.body)
	it.releaseScope(it.scope)
	it.scope, it.this, it.caught = savedScope, savedThis, savedCaught
	it.calls--
	if err != nil {
		if c, ok := err.(*ctrl); ok && c.kind == ctrlReturn {
			return c.value, nil
		}
		return nil, err
	}
	return v, nil
}

func signature(name string, args []Value) string {
	ts := make([]string, len(args))
	for i, a := range args {
		ts[i] = TypeName(a)
	}
	return fmt.Sprintf("%s (%s)", name, strings.Join(ts, ", "))
}

func (it *interp) evalArgs(ns []node) ([]Value, error) {
	out := make([]Value, len(ns))
	for i, n := range ns {
		v, err := it.eval(n)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (it *interp) call(x *callExpr) (Value, error) {
	switch x.name {
	case "is_def_var":
		if len(x.args) == 1 {
			v, err := it.eval(x.args[0])
			if err != nil {
				return nil, err
			}
			if s, ok := v.(string); ok {
				return it.lookup(s) >= 0, nil
			}
		}
	case "exit":
		if len(x.args) <= 1 {
			var v Value = Unit{}
			if len(x.args) == 1 {
				var err error
				if v, err = it.eval(x.args[0]); err != nil {
					return nil, err
				}
			}
			return nil, &ctrl{kind: ctrlExit, value: v, pos: x.pos}
		}
	}
	args, err := it.evalArgs(x.args)
	if err != nil {
		return nil, err
	}
	if f := it.prog.fns[x.name][len(args)]; f != nil {
		return it.callFn(f, args, nil, x.pos)
	}
	var buf [4]*Value
	ptrs := buf[:0]
	if len(args) > len(buf) {
		ptrs = make([]*Value, 0, len(args))
	}
	ptrs = ptrs[:len(args)]
	for i := range args {
		ptrs[i] = &args[i]
	}
	return it.builtin(x.name, ptrs, x.pos)
}

// mutating lists the methods that change their object in place.
var mutating = map[string]bool{
	"push": true, "append": true, "pop": true, "shift": true, "insert": true, "remove": true, "clear": true,
	"sort": true, "reverse": true, "truncate": true, "pad": true, "replace": true, "make_upper": true,
	"make_lower": true,
}

func (it *interp) method(x *methodExpr) (Value, error) {
	args, err := it.evalArgs(x.args)
	if err != nil {
		return nil, err
	}
	for _, a := range args {
		share(a) // a.push(a) must push a copy, not a itself
	}
	f := it.prog.fns[x.name][len(args)]
	inPlace := (f != nil || mutating[x.name]) && isTarget(x.obj)
	var obj Value
	if x.safe || !inPlace {
		// (A safe call on a place reads the place once more to see
		// whether it is (); places are variables, properties and
		// indices, so only an index expression's side effects repeat.)
		if obj, err = it.eval(x.obj); err != nil {
			return nil, err
		}
		if _, ok := obj.(Unit); ok && x.safe {
			return Unit{}, nil
		}
	}
	if inPlace {
		var out Value
		err := it.modify(x.obj, func(pv *Value) error {
			var err error
			if f != nil {
				out, err = it.callFn(f, args, pv, x.pos)
				return err
			}
			var buf [4]*Value
			ptrs := buf[:0]
			if len(args)+1 > len(buf) {
				ptrs = make([]*Value, 0, len(args)+1)
			}
			ptrs = ptrs[:len(args)+1]
			ptrs[0] = pv
			for i := range args {
				ptrs[i+1] = &args[i]
			}
			out, err = it.builtin(x.name, ptrs, x.pos)
			return err
		}, x.pos)
		return out, err
	}
	if f != nil {
		return it.callFn(f, args, &obj, x.pos)
	}
	var buf [4]*Value
	ptrs := buf[:0]
	if len(args)+1 > len(buf) {
		ptrs = make([]*Value, 0, len(args)+1)
	}
	ptrs = ptrs[:len(args)+1]
	ptrs[0] = &obj
	for i := range args {
		ptrs[i+1] = &args[i]
	}
	return it.builtin(x.name, ptrs, x.pos)
}

// modify applies f to the storage place that target names, copying shared
// containers on the way down, then checks the data limits.
func (it *interp) modify(target node, f func(*Value) error, pos int) error {
	switch t := target.(type) {
	case *varExpr:
		i := it.lookup(t.name)
		if i < 0 {
			return it.errf(ErrRuntime, t.pos, "Variable not found: %s", t.name)
		}
		if it.scope[i].isConst {
			return it.errf(ErrRuntime, t.pos, "Cannot modify constant %s", t.name)
		}
		slot := it.scope[i].slot()
		if err := f(slot); err != nil {
			return err
		}
		return it.checkSize(*slot, pos)
	case *thisExpr:
		if it.this == nil {
			return it.errf(ErrRuntime, t.pos, "'this' is not bound")
		}
		if err := f(it.this); err != nil {
			return err
		}
		return it.checkSize(*it.this, pos)
	case *propExpr:
		return it.modify(t.obj, func(pv *Value) error {
			m, ok := (*pv).(*Map)
			if !ok {
				return it.errf(ErrRuntime, t.pos, "Unknown property '%s' - a setter is not registered for type '%s'", t.name, TypeName(*pv))
			}
			if m.shared {
				m = it.ownM(m)
				*pv = m
			}
			cur, existed := m.m[t.name]
			if !existed {
				cur = Unit{}
			}
			before := it.sizeOf(cur)
			if err := f(&cur); err != nil {
				return err
			}
			m.m[t.name] = cur
			it.adjustMap(m, before, cur, existed)
			return nil
		}, pos)
	case *indexExpr:
		idx, err := it.eval(t.idx)
		if err != nil {
			return err
		}
		return it.modify(t.obj, func(pv *Value) error {
			switch c := (*pv).(type) {
			case *Array:
				k, ok := idx.(int64)
				if !ok {
					return it.errf(ErrRuntime, t.idx.at(), "Array index must be an integer, not %s", TypeName(idx))
				}
				n := int64(len(c.Items))
				if k < 0 {
					k += n
				}
				if k < 0 || k >= n {
					return it.errf(ErrRuntime, t.pos, "%s", boundsMsg("Array", "element", "array", idx, n))
				}
				if c.shared {
					c = it.ownA(c)
					*pv = c
				}
				before := it.sizeOf(c.Items[k])
				if err := f(&c.Items[k]); err != nil {
					c.szOK = false
					return err
				}
				if c.szOK {
					c.sz = c.sz.minus(before).plus(it.sizeOf(c.Items[k]))
				}
				return nil
			case *Map:
				k, ok := idx.(string)
				if !ok {
					return it.errf(ErrRuntime, t.idx.at(), "Object map index must be a string, not %s", TypeName(idx))
				}
				if c.shared {
					c = it.ownM(c)
					*pv = c
				}
				cur, existed := c.m[k]
				if !existed {
					cur = Unit{}
				}
				before := it.sizeOf(cur)
				if err := f(&cur); err != nil {
					return err
				}
				c.m[k] = cur
				it.adjustMap(c, before, cur, existed)
				return nil
			case string:
				k, ok := idx.(int64)
				if !ok {
					return it.errf(ErrRuntime, t.idx.at(), "String index must be an integer, not %s", TypeName(idx))
				}
				rs := []rune(c)
				n := int64(len(rs))
				if k < 0 {
					k += n
				}
				if k < 0 || k >= n {
					return it.errf(ErrRuntime, t.pos, "%s", boundsMsg("String", "character", "string", idx, n))
				}
				var cur Value = rs[k]
				if err := f(&cur); err != nil {
					return err
				}
				r, ok := cur.(rune)
				if !ok {
					return it.errf(ErrRuntime, t.pos, "Data type incorrect: %s (expecting char)", TypeName(cur))
				}
				rs[k] = r
				*pv = string(rs)
				return nil
			}
			return it.errf(ErrRuntime, t.pos, "Indexer unavailable: %s", TypeName(*pv))
		}, pos)
	}
	return it.errf(ErrRuntime, target.at(), "cannot assign to this expression")
}

func (it *interp) assign(s *assignStmt) error {
	v, err := it.eval(s.value)
	if err != nil {
		return err
	}
	// Mark the value before descending the target, so that assigning a
	// container into itself copies it instead of making a cycle.
	share(v)
	return it.modify(s.target, func(pv *Value) error {
		if s.op == "=" {
			*pv = share(v)
			return nil
		}
		op := strings.TrimSuffix(s.op, "=")
		if op == "+" {
			if a, ok := (*pv).(*Array); ok {
				if a.shared {
					a = it.ownA(a)
					*pv = a
				}
				if b, ok := v.(*Array); ok {
					it.appendItems(a, b.Items...)
				} else {
					it.appendItems(a, v)
				}
				return nil
			}
		}
		r, err := it.binary(op, *pv, v, s.pos)
		if err != nil {
			return err
		}
		*pv = r
		return nil
	}, s.pos)
}

func (it *interp) getProp(obj Value, name string, safe bool, pos int) (Value, error) {
	switch t := obj.(type) {
	case Unit:
		if safe {
			return Unit{}, nil
		}
	case *Map:
		if v, ok := t.m[name]; ok {
			return v, nil
		}
		return Unit{}, nil
	case string:
		switch name {
		case "len":
			if err := it.charge(len(t), pos); err != nil {
				return nil, err
			}
			return int64(utf8.RuneCountInString(t)), nil
		case "bytes":
			return int64(len(t)), nil
		case "is_empty":
			return len(t) == 0, nil
		}
	case *Array:
		switch name {
		case "len":
			return int64(len(t.Items)), nil
		case "is_empty":
			return len(t.Items) == 0, nil
		}
	case Range:
		switch name {
		case "start":
			return t.Start, nil
		case "end":
			return t.End, nil
		case "is_inclusive":
			return t.Inclusive, nil
		}
	case int64:
		switch name {
		case "is_odd":
			return t%2 != 0, nil
		case "is_even":
			return t%2 == 0, nil
		case "is_zero":
			return t == 0, nil
		}
	}
	return nil, it.errf(ErrRuntime, pos, "Unknown property '%s' - a getter is not registered for type '%s'", name, TypeName(obj))
}

func (it *interp) getIndex(obj, idx Value, pos int) (Value, error) {
	switch c := obj.(type) {
	case *Array:
		k, ok := idx.(int64)
		if !ok {
			return nil, it.errf(ErrRuntime, pos, "Array index must be an integer, not %s", TypeName(idx))
		}
		n := int64(len(c.Items))
		if k < 0 {
			k += n
		}
		if k < 0 || k >= n {
			return nil, it.errf(ErrRuntime, pos, "%s", boundsMsg("Array", "element", "array", idx, n))
		}
		return c.Items[k], nil
	case *Map:
		var k string
		switch i := idx.(type) {
		case string:
			k = i
		case rune:
			k = string(i)
		default:
			return nil, it.errf(ErrRuntime, pos, "Object map index must be a string, not %s", TypeName(idx))
		}
		if v, ok := c.m[k]; ok {
			return v, nil
		}
		return Unit{}, nil
	case string:
		k, ok := idx.(int64)
		if !ok {
			return nil, it.errf(ErrRuntime, pos, "String index must be an integer, not %s", TypeName(idx))
		}
		if err := it.charge(len(c), pos); err != nil {
			return nil, err
		}
		n := int64(utf8.RuneCountInString(c))
		if k < 0 {
			k += n
		}
		if k < 0 || k >= n {
			return nil, it.errf(ErrRuntime, pos, "%s", boundsMsg("String", "character", "string", idx, n))
		}
		r, _ := utf8.DecodeRuneInString(c[byteOffset(c, k):])
		return r, nil
	}
	return nil, it.errf(ErrRuntime, pos, "Indexer unavailable: %s", TypeName(obj))
}

// boundsMsg words an out-of-range index as Rhai does.
func boundsMsg(kind, unit, container string, idx Value, n int64) string {
	switch n {
	case 0:
		return fmt.Sprintf("%s index %d out of bounds: %s is empty", kind, idx, container)
	case 1:
		return fmt.Sprintf("%s index %d out of bounds: only 1 %s in %s", kind, idx, unit, container)
	}
	return fmt.Sprintf("%s index %d out of bounds: only %d %ss in %s", kind, idx, n, unit, container)
}

// adjustMap updates m's size cache after the entry that held a value of
// size before now holds cur.
func (it *interp) adjustMap(m *Map, before dsize, cur Value, existed bool) {
	if !m.szOK {
		return
	}
	m.sz = m.sz.minus(before).plus(it.sizeOf(cur))
	if !existed {
		m.sz.mp++
	}
}

// appendItems appends to an owned array, keeping its size cache.
func (it *interp) appendItems(a *Array, items ...Value) {
	for _, x := range items {
		a.Items = append(a.Items, share(x))
		if a.szOK {
			a.sz = a.sz.plus(it.sizeOf(x))
			a.sz.arr++
		}
	}
}
