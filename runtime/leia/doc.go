// Package leia is the Leia interpreter: it runs the syntax tree of
// grammar/leia (the one parser the checker and the language server use)
// with Lua's semantics plus Leia's additions (`:=`, `const`, Go-style
// loops, goto, defer, goroutines, channels and select, tagged dialects).
//
// # Design: closures over a resolved tree
//
// Running a file has three steps. The parser gives an ast.File. The
// resolver (resolve.go) binds every name before anything runs: each
// function gets a frame of numbered slots, each local a slot, each use a
// slot, an upvalue index or a global; locals that closures capture are
// marked and live in heap cells. A program's top-level declarations are
// globals (shared with chunks it compiles at run time, as upstream does);
// global reads and writes go through an inline cache of the entry's slot
// in the globals table. The compiler (compile*.go) then turns the
// tree into Go closures, one per node: an expression becomes
// func(*frame) Value, a statement func(*frame) ctrl.
//
// Why closures rather than a tree walker or a register VM: a tree walker
// pays a type switch and a map or field lookup per node per execution;
// closures pay them once at compile time and leave one indirect call per
// node, which is most of what a register VM saves, without a bytecode
// format, an instruction set and a register allocator to maintain and
// fuzz. Specialised closures for the hot shapes (integer arithmetic with
// a constant, comparisons feeding a branch, constant-key field access,
// calls with fixed arguments) keep the common path to one type check.
// BENCHMARKS.md compares the result with github.com/yuin/gopher-lua.
//
// # Values
//
// A Value is a 24-byte struct: a kind, 8 bytes of payload (int64, float64
// bits or boolean) and a pointer (string bytes, *Table, *Closure, ...).
// Numbers are never boxed in an interface and making a string Value does
// not allocate. Integers are int64 (overflow of +, -, * promotes to
// float); / and ** give floats; % is floored. Tables (table.go) have an
// array part for 1..n and an insertion-ordered hash part, so iteration is
// deterministic. A call reserves its frame's slots on the thread's value
// stack and reuses frame records by depth: calling a Leia function does
// not allocate unless it captures variables or takes extra varargs.
//
// # Embedding and natives
//
// New(Options) makes an interpreter with the standard library; Compile
// and Run execute a file; Call calls a function value from Go. A native
// is a NativeFunc, func(t *Thread, args []Value) ([]Value, error):
// register one with Interp.Register or put it in a module table with
// NewNative and Interp.RegisterModule. Natives read arguments with
// CheckString, CheckInt, OptFloat ..., call back into Leia with
// Thread.Call / PCall, return results with Thread.Ret1 / Ret2 (no
// allocation) or a slice, and fail by returning an error (ScriptError(v)
// raises v itself). Tagged forms (tag`text`, tag { fields }) dispatch
// through one registry per interpreter (RegisterDialect): the data
// dialects live here, the AI dialect (model, tool, turn, agent, prompt)
// is registered by the llm layer.
//
// # Limits and safety
//
// Every recursion is bounded: the resolver and compiler refuse nesting
// deeper than maxNesting, calls deeper than Options.MaxDepth raise "stack
// overflow", metamethod chains stop after 100 links, Lua patterns have a
// depth and work budget, JSON a depth limit. The run's budgets live in the
// execution core (runtime/execution, Options.Limits): loops and calls
// count steps on the thread's Meter, which every execution.Interval steps
// checks the run (its stop, the step budget, the heap against the memory
// budget), and the thread then lets waiting goroutines run. A stop (a
// limit, cancellation, a deadlock) is a KindBudget or KindCancelled error
// that pcall, xpcall and coroutine boundaries pass on. Go panics inside
// natives become Leia errors; no panic leaves Run or Call. Leia goroutines
// run on Go goroutines that take the run's FIFO Turn, so scripts never
// race on tables; a program whose tasks all wait on each other is stopped
// with a deadlock error that says where each one waits.
//
// Operating-system access (files, environment, processes, network) goes
// only through Options.Host (runtime/host), which enforces the program's
// folder, the temp dir and the user's --allow-* grants; without a host a
// program can compute and print but not touch the machine.
package leia
