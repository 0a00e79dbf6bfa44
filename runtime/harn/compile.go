package harn

import (
	"fmt"

	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// maxCompileDepth bounds the compiler's recursion over the syntax tree.
const maxCompileDepth = 2000

// compiler turns one module's syntax tree into evalFns.
type compiler struct {
	in    *Interp
	mod   *module
	fn    *fnScope
	depth int
	err   error
	// returns are the compiled values of `return E` statements that
	// return E's value plainly, for a function body that ends with one
	// (funcProto.ret).
	returns map[*ast.Return]evalFn
}

// fnScope is the compile-time state of one function body.
type fnScope struct {
	parent *fnScope
	proto  *funcProto
	block  *blockScope
	nslots int
	// caps maps an enclosing function's local to this function's copy.
	caps map[*local]*local
	// module is set for a module's top level, whose outermost block
	// declares globals.
	module bool
	// protected counts enclosing try/finally and defer regions: a
	// `return f(x)` inside one is not a tail call.
	protected int
	loops     int
	// prelude creates the module's functions and types before its top
	// level runs (module scope only).
	prelude []evalFn
}

type blockScope struct {
	parent *blockScope
	names  map[string]*local
	// top is the module's outermost block: its names are globals.
	top bool
	// hasDefer is set when a defer statement was compiled in the block.
}

// local is a resolved name: a frame slot of fn, or a module global when
// global >= 0.
type local struct {
	name   string
	fn     *fnScope
	slot   int
	global int
	mod    *module
	// cell: the slot holds a *cell shared with closures (function
	// declarations, so that they can call themselves and each other).
	cell    bool
	mutable bool
}

// cell boxes a function declaration's binding.
type cell struct{ v Value }

func (c *compiler) fail(sp ast.Span, format string, a ...any) {
	if c.err == nil {
		line, col := c.mod.position(sp.Start)
		c.err = fmt.Errorf("%s:%d:%d: %s", c.mod.path, line, col, fmt.Sprintf(format, a...))
	}
}

// enter guards recursion depth; callers defer c.leave().
func (c *compiler) enter(sp ast.Span) bool {
	c.depth++
	if c.depth > maxCompileDepth {
		c.fail(sp, "program nests too deeply (more than %d levels)", maxCompileDepth)
		return false
	}
	return true
}

func (c *compiler) leave() { c.depth-- }

func (c *compiler) pushBlock() *blockScope {
	b := &blockScope{parent: c.fn.block, names: map[string]*local{}}
	c.fn.block = b
	return b
}

func (c *compiler) popBlock() { c.fn.block = c.fn.block.parent }

// declare binds name in the current block. At a module's top level the
// name is a global (predeclared by declareGlobals); elsewhere a new slot.
func (c *compiler) declare(name string, mutable bool) *local {
	b := c.fn.block
	if b.top {
		if idx, ok := c.mod.globalIndex[name]; ok {
			l := &local{name: name, fn: c.fn, global: idx, mod: c.mod, mutable: mutable}
			b.names[name] = l
			return l
		}
		idx := c.mod.addGlobal(name)
		l := &local{name: name, fn: c.fn, global: idx, mod: c.mod, mutable: mutable}
		b.names[name] = l
		return l
	}
	l := &local{name: name, fn: c.fn, slot: c.fn.nslots, global: -1, mutable: mutable}
	c.fn.nslots++
	b.names[name] = l
	return l
}

// lookup resolves name from the current position: locals of this
// function, then of enclosing functions (captured by value, or by cell for
// function declarations), then module globals and imports. nil means not
// a program-declared name (a builtin, or undefined).
func (c *compiler) lookup(name string) *local {
	return c.lookupIn(c.fn, name)
}

func (c *compiler) lookupIn(fs *fnScope, name string) *local {
	for b := fs.block; b != nil; b = b.parent {
		if l, ok := b.names[name]; ok {
			return l
		}
	}
	if fs.parent == nil {
		if idx, ok := c.mod.globalIndex[name]; ok {
			return &local{name: name, global: idx, mod: c.mod, mutable: true}
		}
		if imp, ok := c.mod.imports[name]; ok {
			return &local{name: name, global: imp.index, mod: imp.mod, mutable: true}
		}
		return nil
	}
	outer := c.lookupIn(fs.parent, name)
	if outer == nil || outer.global >= 0 {
		return outer
	}
	if l, ok := fs.caps[outer]; ok {
		return l
	}
	l := &local{name: name, fn: fs, slot: fs.nslots, global: -1, cell: outer.cell, mutable: outer.mutable}
	fs.nslots++
	if fs.caps == nil {
		fs.caps = map[*local]*local{}
	}
	fs.caps[outer] = l
	fs.proto.caps = append(fs.proto.caps, capture{from: outer.slot, to: l.slot})
	return l
}

// readLocal compiles a read of l; shared marks the value's container as
// having another owner (value context).
func readLocal(l *local, shareIt bool) evalFn {
	switch {
	case l.global >= 0:
		m, i := l.mod, l.global
		if shareIt {
			return func(*frame) (Value, error) { return share(m.globals[i]), nil }
		}
		return func(*frame) (Value, error) { return m.globals[i], nil }
	case l.cell:
		s := l.slot
		return func(f *frame) (Value, error) {
			if c, ok := f.slots[s].r.(*cell); ok {
				return share(c.v), nil
			}
			return Nil, nil
		}
	default:
		s := l.slot
		if shareIt {
			return func(f *frame) (Value, error) { return share(f.slots[s]), nil }
		}
		return func(f *frame) (Value, error) { return f.slots[s], nil }
	}
}

// storeLocal returns a function storing into l.
func storeLocal(l *local) func(f *frame, v Value) {
	switch {
	case l.global >= 0:
		m, i := l.mod, l.global
		return func(_ *frame, v Value) { m.globals[i] = v }
	case l.cell:
		s := l.slot
		return func(f *frame, v Value) {
			if c, ok := f.slots[s].r.(*cell); ok {
				c.v = v
				return
			}
			f.slots[s] = v
		}
	default:
		s := l.slot
		return func(f *frame, v Value) { f.slots[s] = v }
	}
}

// newFn starts compiling a function body nested in the current one.
func (c *compiler) newFn(name string, sp ast.Span) *fnScope {
	fs := &fnScope{parent: c.fn, proto: &funcProto{name: name, mod: c.mod, span: sp}}
	fs.block = &blockScope{names: map[string]*local{}}
	return fs
}

// compileStmtList compiles statements as a sequence whose value is the
// last statement's; function declarations in it are hoisted. hasDefer
// reports a defer statement directly in the list.
func (c *compiler) compileStmtList(stmts []ast.Stmt) (evalFn, bool) {
	body, _, hasDefer := c.compileStmtParts(stmts)
	return body, hasDefer
}

// compileStmtParts is compileStmtList that also gives the compiled
// statements in order.
func (c *compiler) compileStmtParts(stmts []ast.Stmt) (evalFn, []evalFn, bool) {
	c.hoist(stmts)
	var fns []evalFn
	hasDefer := false
	for _, s := range stmts {
		if _, ok := s.(*ast.Defer); ok {
			hasDefer = true
		}
		if fn := c.stmt(s); fn != nil {
			fns = append(fns, fn)
		}
	}
	return seq(fns), fns, hasDefer
}

// seq runs fns in order; its value is the last one's.
func seq(fns []evalFn) evalFn {
	switch len(fns) {
	case 0:
		return nilFn
	case 1:
		return fns[0]
	case 2:
		a, b := fns[0], fns[1]
		return func(f *frame) (Value, error) {
			if _, err := a(f); err != nil {
				return Nil, err
			}
			return b(f)
		}
	}
	last := fns[len(fns)-1]
	init := fns[:len(fns)-1]
	return func(f *frame) (Value, error) {
		for _, s := range init {
			if _, err := s(f); err != nil {
				return Nil, err
			}
		}
		return last(f)
	}
}

// hoist declares the function declarations of a block before its
// statements compile, so that they may call each other in any order.
func (c *compiler) hoist(stmts []ast.Stmt) {
	for _, s := range stmts {
		fd, ok := s.(*ast.FuncDecl)
		if !ok || fd.Name == nil {
			continue
		}
		if c.fn.block.top {
			c.declare(fd.Name.Name, true)
			continue
		}
		if _, done := c.fn.block.names[fd.Name.Name]; done {
			continue
		}
		l := c.declare(fd.Name.Name, true)
		l.cell = true
	}
}

// block compiles a braced block in a new scope.
func (c *compiler) block(b *ast.Block) evalFn {
	if b == nil {
		return func(*frame) (Value, error) { return Nil, nil }
	}
	c.pushBlock()
	defer c.popBlock()
	body, hasDefer := c.compileStmtList(b.Stmts)
	body = c.withCells(body)
	if hasDefer {
		body = withDefers(body)
	}
	return body
}

// cellSlots are the slots of the cell locals the current block hoisted.
func (c *compiler) cellSlots() []int {
	var slots []int
	for _, l := range c.fn.block.names {
		if l.cell && l.fn == c.fn && l.global < 0 {
			slots = append(slots, l.slot)
		}
	}
	return slots
}

// withCells wraps body so that every cell local the current block hoisted
// gets a fresh cell when the block is entered.
func (c *compiler) withCells(body evalFn) evalFn {
	slots := c.cellSlots()
	if len(slots) == 0 {
		return body
	}
	return func(f *frame) (Value, error) {
		for _, s := range slots {
			f.slots[s] = Value{k: kindCell, r: &cell{}}
		}
		return body(f)
	}
}
