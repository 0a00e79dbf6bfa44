// Package harn is the Harn interpreter: it runs the programs the checker
// checks, over the same syntax tree (grammar/harn/ast through the one
// parser, grammar/harn/binding); there is no second parser.
//
// # Design: closures over slot-resolved locals
//
// A module is compiled once into a tree of Go closures (evalFn): every
// expression and statement becomes a func(*frame) (Value, error) that
// already knows where its operands live. Names are resolved at compile
// time to frame slots (locals and parameters), module globals (top-level
// bindings, shared by every function of the module and by importers) or
// constants (builtins); nothing is looked up by name at run time. This
// is the simplest design that is fast in Go: no bytecode decoding loop,
// no map lookups, no per-node type switch at run time, and the Go
// compiler inlines the small closures' bodies. Frames take their slots
// from a per-thread segmented stack and are pooled by depth, so a call
// allocates nothing; `return f(x)` in tail position reuses the frame.
//
// Harn closures capture by value: a closure copies the values of the
// outer locals it uses when it is created (upstream Harn snapshots the
// environment the same way), so frames never outlive their call and need
// no heap cells. Function declarations are the exception: they are bound
// in a shared cell so that local functions can call themselves and each
// other.
//
// # Values
//
// Value is a small struct (kind, scalar bits, reference), so ints, floats
// and bools never allocate. Lists, dicts and structs are values to the
// program: `xs[i] = v` gives xs a new value that other owners never see.
// The interpreter shares storage and copies on write: every read that
// hands a container to a second owner marks it shared, and an in-place
// update copies a shared container first. `xs = xs.push(v)` appends in
// place when xs is the newest view of its storage, so building a list is
// amortised O(1) per element (upstream copies on every push).
//
// # Errors, limits and cancellation
//
// A thrown value or runtime error is an *Error with the thrown value and
// a trace (function, file:line:col per frame); break, continue and return
// travel as sentinel errors. Every recursion is bounded: calls by
// Options.MaxDepth (a catchable "Stack overflow" error), compilation by
// nesting depth, value printing, comparison and hashing by value depth.
// The run's budgets live in the execution core (runtime/execution): each
// thread counts a step per loop iteration and call on its Meter, which
// every execution.Interval steps checks the run (its stop, the step
// budget, the heap against the memory budget), and the thread checks its
// `deadline` blocks. Options.Limits sets the budgets. A stop (a limit,
// the caller's cancellation, a deadlock) ends the whole run: it passes
// try/catch, retry and every other catch (execution.IsStop), and every
// later check of any task returns it again. Run recovers any Go panic
// into an "internal error" so none escapes.
//
// # Concurrency
//
// spawn, parallel, generators and streams run on goroutines, but only one
// runs program code at a time: the run's FIFO Turn (runtime/execution)
// passes between them when a task finishes or blocks (await, channels,
// sleep, processes, network, a generator handing over a value). Program
// state needs no locks and output is deterministic whenever upstream's
// is. Waits that only another task can end (a channel, await, a lock)
// are reported to the run's Tracker, which stops a run whose tasks all
// wait so with a deadlock error saying where each one waits. When the run
// ends or stops, the turn is closed: tasks still waiting for it are
// abandoned at once and never run program code again.
//
// # The standard library and the host
//
// Builtins come in families (Family: lib_strings.go, lib_json.go,
// lib_fs.go, ... here, and the packages under runtime/harn/lib), each a
// value that declares its builtins, std modules and harness methods. The
// families are listed once, where the runtime is assembled (package
// runtime/harn/lib), and built into a Library (NewLibrary, which fails
// on a name declared twice) that every interpreter reads
// (Options.Library); nothing is registered from init. The builtins
// follow the one builtin table of lang/harn/builtins; a test keeps them
// in step, and a name of the table without an implementation fails with
// "not available in this runtime: NAME needs ...". Everything that touches
// the operating system goes through runtime/host, which confines the file
// system to the program's folder and the temp dir and denies processes
// and network without --allow-exec / --allow-net.
//
// The `harness` object is assembled from the library's methods per
// capability (see harness.go), so a family can add members
// (harness.llm.evaluate) without editing this package's core.
package harn
