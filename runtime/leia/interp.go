package leia

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/grammar/leia/ast"
	"github.com/harnlang/harn-check/grammar/leia/binding"
	"github.com/harnlang/harn-check/runtime/execution"
	"github.com/harnlang/harn-check/runtime/host"
)

// Options configure an interpreter. The zero value is usable: output to
// os.Stdout/os.Stderr, no step budget, the default call depth.
type Options struct {
	Stdout io.Writer
	Stderr io.Writer
	Stdin  io.Reader
	// Limits bound each run (Run or Call): steps (function calls, loop
	// iterations and builtin work), wall time, memory, live goroutines.
	// The zero value bounds nothing; the CLI passes execution.Defaults or
	// the user's flags. Exceeding one stops the run with a KindBudget
	// error that pcall cannot catch. Their Depth bounds nested Leia calls
	// (0: execution.HardDepth): deeper recursion is a "stack overflow"
	// runtime error pcall can catch, never a Go stack overflow.
	Limits execution.Limits
	// Args are the script's arguments: the global table `arg` and the
	// main chunk's `...`.
	Args []string
	// ScriptName is arg[0]; it defaults to the chunk's name.
	ScriptName string
	// MaxStringBytes bounds the strings a program can build (concatenation,
	// string.rep, table.concat, decompression; default 1 GiB).
	MaxStringBytes int
	// Debug adds Go stack traces to internal errors.
	Debug bool
	// Host is the program's access to the operating system (files,
	// environment, processes, network), with the user's --allow-* grants.
	// nil denies everything but the clock: fs, io.open, os.getenv and
	// friends then fail with a capability error.
	Host *host.Host
	// Modules loads the source of a required module; nil allows only
	// built-in modules. DirModules gives the usual loader.
	Modules ModuleLoader
	// GoModules are the host modules `import "go:path"` and
	// require("go:path") may load (the go: allow-list).
	GoModules map[string]*Table
}

// Interp is one Leia interpreter: globals, loaded modules and the
// scheduler its goroutines share. An Interp runs one program at a time;
// Leia goroutines run concurrently under one global lock, so scripts never
// race on tables.
type Interp struct {
	opts      Options
	maxDepth  int
	maxString int
	debug     bool
	globals   *Table
	loaded    *Table
	// stringMeta is the metatable of strings (__index = string).
	stringMeta *Table
	stdout     io.Writer
	stderr     io.Writer
	stdin      io.Reader
	outMu      sync.Mutex

	// run is the run in progress (Call starts one): budgets,
	// cancellation, the stop that ended it.
	run *execution.Run

	sched scheduler

	// coroutines still suspended, killed when the run ends
	coMu  sync.Mutex
	coSet map[*Coroutine]struct{}

	// libs are the library's module tables by name; deferred are the
	// library steps still to run at the first use of one of them.
	libs     map[string]*Table
	deferred []func(*Interp)

	// chunkCache holds compiled modules by path.
	modules map[string]Value
	// dialects is the tagged-dialect registry of this interpreter.
	dialects map[string]Dialect
	// requiring guards require cycles.
	requiring map[string]bool
	gcStopped bool
	gcMode    string
	// hook and sink are debug.setHook/setSink callbacks (nil: none);
	// inHook stops a hook from observing itself.
	hook, sink Value
	inHook     bool
	// declared are the globals a program declared with := (a global
	// holding nil is still declared, so = may assign it).
	declared map[*Table]map[string]bool
	// scriptDir is script.setDir's directory for require, dofile and
	// loadfile ("" = the requiring file's folder).
	scriptDir string
	// mainName is the running program's name (arg[0]); procArgs, when
	// set by process.setArgs, replace its arguments for process.args.
	mainName string
	procArgs []string
	// cwd is the program's working directory for relative paths
	// (fs.chdir changes it; the process's directory never changes).
	cwd string
}

// declare records that a program declared the global name in g.
func (in *Interp) declare(g *Table, name string) {
	d := in.declared[g]
	if d == nil {
		d = map[string]bool{}
		in.declared[g] = d
	}
	d[name] = true
}

// resolvePath makes p absolute against the program's working directory.
func (in *Interp) resolvePath(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if in.cwd == "" {
		if in.opts.Host != nil {
			in.cwd = in.opts.Host.Root()
		} else {
			in.cwd, _ = os.Getwd()
		}
	}
	return filepath.Join(in.cwd, p)
}

// mainDir is the directory scripts are relative to: script.setDir's, else
// the main program's.
func (in *Interp) mainDir() string {
	if in.scriptDir != "" {
		return in.scriptDir
	}
	if in.mainName == "" || strings.HasPrefix(in.mainName, "=") || strings.HasPrefix(in.mainName, "<") {
		return in.resolvePath(".")
	}
	return in.resolvePath(filepath.Dir(in.mainName))
}

// New returns an interpreter with the standard library installed (its
// module tables made at their first use).
func New(opts Options) *Interp { return newInterp(opts, true) }

// newInterp is New; lazy false makes every library table at once.
func newInterp(opts Options, lazy bool) *Interp {
	in := &Interp{opts: opts, maxDepth: opts.Limits.CallDepth(), debug: opts.Debug}
	in.maxString = opts.MaxStringBytes
	if in.maxString <= 0 {
		in.maxString = maxStringSize
	}
	in.stdout, in.stderr, in.stdin = opts.Stdout, opts.Stderr, opts.Stdin
	if in.stdout == nil {
		in.stdout = os.Stdout
	}
	if in.stderr == nil {
		in.stderr = os.Stderr
	}
	if in.stdin == nil {
		in.stdin = os.Stdin
	}
	in.globals = NewTable(0, 64)
	in.loaded = NewTable(0, 32)
	in.coSet = map[*Coroutine]struct{}{}
	in.modules = map[string]Value{}
	in.requiring = map[string]bool{}
	in.dialects = map[string]Dialect{}
	in.declared = map[*Table]map[string]bool{}
	in.run = execution.Start(context.Background(), execution.Limits{})
	in.sched.init(in)
	installLibrary(in, lazy)
	return in
}

// moduleTable returns the table a library step fills for the module
// name: the one registered at New when the step was deferred, else a new
// table with room for size entries.
func (in *Interp) moduleTable(name string, size int) *Table {
	if t := in.libs[name]; t != nil {
		if t.sidx == nil && cap(t.slots) < size {
			t.slots = make([]slot, 0, size)
		}
		return t
	}
	return NewTable(0, size)
}

// registerLib makes m, the library's table for the module name, a
// global and what require(name) returns, unless it took its place there
// at New (a deferred step: the program may have changed those since).
func (in *Interp) registerLib(name string, m *Table) {
	if in.libs[name] == m {
		return
	}
	in.libs[name] = m
	in.RegisterModule(name, m)
}

// lib is the library's own table of the module name, whatever the
// program has done to the global of that name.
func (in *Interp) lib(name string) *Table { return in.libs[name] }

// Globals returns the global table.
func (in *Interp) Globals() *Table { return in.globals }

// SetGlobal sets a global variable.
func (in *Interp) SetGlobal(name string, v Value) { in.globals.SetStr(name, v) }

// GetGlobal reads a global variable.
func (in *Interp) GetGlobal(name string) Value { return in.globals.GetStr(name) }

// Register installs a Go function as a global.
func (in *Interp) Register(name string, fn NativeFunc) {
	in.globals.SetStr(name, NewNative(name, fn))
}

// RegisterModule installs a module table both as a global and as what
// require(name) returns.
func (in *Interp) RegisterModule(name string, mod *Table) {
	in.globals.SetStr(name, TableValue(mod))
	in.loaded.SetStr(name, TableValue(mod))
}

// RegisterLazyModules installs a module table for each of names, as
// RegisterModule does, and returns them in that order. Their entries are
// made by fill at the first use of any of them (the first read or write
// of a string key, the first step of an iteration): a program that never
// uses them never pays for making them, and one that does sees them
// whole. fill gets the tables in the order of names and may only set
// their string keys.
func (in *Interp) RegisterLazyModules(names []string, fill func(mods []*Table)) []*Table {
	mods := make([]*Table, len(names))
	makeAll := func(*Table) {
		for _, m := range mods {
			if m.ext != nil && m.ext.fill != nil {
				m.ext = nil // fill sets them: none may start it again
			}
		}
		fill(mods)
	}
	fillAll := lazyFill(makeAll)
	for i, name := range names {
		mods[i] = newLazyTable(fillAll)
		in.RegisterModule(name, mods[i])
	}
	return mods
}

// Stdout is where print writes.
func (in *Interp) Stdout() io.Writer { return in.stdout }

// Compile parses and compiles a Leia program. A syntax error or a
// program the compiler rejects gives a *Error of kind KindParse. The
// program's top-level declarations are globals (shared with chunks it
// compiles at run time); a module's, loaded by require, stay local.
func (in *Interp) Compile(name string, src []byte) (*Chunk, error) {
	return in.compileSource(name, src, nil, true)
}

// compileSource parses and compiles source whose globals live in env
// (nil: the interpreter's globals).
func (in *Interp) compileSource(name string, src []byte, env *Table, topGlobals bool) (*Chunk, error) {
	file, diags := binding.Parse(name, src)
	chunk := &Chunk{Name: name, src: src, lines: lineStarts(src)}
	for _, d := range diags {
		line, col := chunk.position(d.Span.Start)
		return nil, &Error{Kind: KindParse, Message: "syntax error: " + d.Message, File: name, Line: line, Col: col, Value: String(fmt.Sprintf("%s:%d:%d: syntax error: %s", name, line, col, d.Message))}
	}
	return in.compileFile(chunk, file, env, topGlobals)
}

// CompileAST compiles an already parsed file (the checker's tree).
func (in *Interp) CompileAST(name string, src []byte, file *ast.File) (*Chunk, error) {
	chunk := &Chunk{Name: name, src: src, lines: lineStarts(src)}
	if len(file.Errors) > 0 {
		e := file.Errors[0]
		line, col := chunk.position(e.Start)
		msg := "syntax error"
		if e.Missing != "" {
			msg += ": missing " + e.Missing
		}
		return nil, &Error{Kind: KindParse, Message: msg, File: name, Line: line, Col: col}
	}
	return in.compileFile(chunk, file, nil, true)
}

func (in *Interp) compileFile(chunk *Chunk, file *ast.File, env *Table, topGlobals bool) (*Chunk, error) {
	res, main, errs := resolveFile(file, topGlobals)
	if len(errs) > 0 {
		line, col := chunk.position(errs[0].pos)
		msg := errs[0].msg
		return nil, &Error{Kind: KindParse, Message: msg, File: chunk.Name, Line: line, Col: col, Value: String(fmt.Sprintf("%s:%d:%d: %s", chunk.Name, line, col, msg))}
	}
	if env == nil {
		env = in.globals
	}
	env.made() // the global-read caches read its slots directly
	c := &compiler{in: in, globals: env, chunk: chunk, res: res}
	p, err := c.compileMain(file, main)
	if err != nil {
		return nil, err
	}
	chunk.main = p
	return chunk, nil
}

// Run executes a compiled chunk as the main program (once per Interp:
// when it returns, goroutines it started are stopped) and returns the
// values its top-level return gives. A failure is a *Error. ctx stops the
// run when cancelled (the error's Kind is KindCancelled).
func (in *Interp) Run(ctx context.Context, chunk *Chunk) (rets []Value, err error) {
	args := make([]Value, len(in.opts.Args))
	for i, a := range in.opts.Args {
		args[i] = String(a)
	}
	argt := NewTable(len(args), 1)
	for _, a := range args {
		argt.Append(a)
	}
	name := in.opts.ScriptName
	if name == "" {
		name = chunk.Name
	}
	argt.SetInt(0, String(name))
	in.mainName = name
	in.globals.SetStr("arg", TableValue(argt))
	fn := closureValue(&Closure{proto: chunk.main})
	defer in.killCoroutines()
	return in.Call(ctx, fn, args...)
}

// Call calls a Leia function value from Go on a fresh thread, as one run
// bounded by ctx and Options.Limits, and returns its results. Goroutines
// the function started are stopped when it returns.
func (in *Interp) Call(ctx context.Context, fn Value, args ...Value) (rets []Value, err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	run := execution.Start(ctx, in.opts.Limits)
	in.run = run
	th := newThread(in)
	in.sched.acquire(th)
	defer func() {
		// Goroutines still running or waiting stop: the turn is closed
		// before the main program lets go of it, so none runs Leia code
		// again.
		run.End()
		run.Turn().Close()
		run.Turn().Release()
	}()
	e := th.protectAll(func() {
		rets = append([]Value(nil), th.callAt(fn, args, -1)...)
	})
	if e != nil {
		return nil, e
	}
	return rets, nil
}

// tick runs every execution.Interval steps of a thread: the run's checks (its
// stop, the step budget, the heap) and fairness between goroutines.
func (in *Interp) tick(th *Thread) {
	if err := th.meter.Check(); err != nil {
		panic(th.stopError(err, -1))
	}
	in.sched.yield(th)
}

func (in *Interp) killCoroutines() {
	in.coMu.Lock()
	cos := make([]*Coroutine, 0, len(in.coSet))
	for c := range in.coSet {
		cos = append(cos, c)
	}
	in.coSet = map[*Coroutine]struct{}{}
	in.coMu.Unlock()
	for _, c := range cos {
		c.kill()
	}
}

// metaOf returns the metatable of any value (tables, strings, userdata);
// the result may be nil, and a nil *Table reads as empty.
func (in *Interp) metaOf(v Value) *Table {
	switch v.k {
	case KindTable:
		return v.Table().meta
	case KindString:
		return in.stringMeta
	case KindUserdata:
		return v.Userdata().Meta
	}
	return nil
}
