package harn

import (
	"errors"
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/runtime/execution"
	"github.com/harnlang/harn-check/runtime/host"
)

// Error is a Harn runtime error: a value thrown by `throw`, or an error the
// runtime or a builtin raised. Value is what `catch (e)` binds: the thrown
// value, or the message string for runtime errors. Trace lists where it
// happened, innermost first.
type Error struct {
	Value Value
	// Thrown is set for `throw` (and throw_error): the top-level message
	// reads "Thrown: <value>" then.
	Thrown bool
	// Category is the error category (throw_error, runtime classes).
	Category string
	Trace    []TraceEntry
}

// TraceEntry is one frame of an error's trace: the function and the
// position of the failing node or call in it.
type TraceEntry struct {
	Function     string
	Path         string
	Line, Column int // 1-based; Column counts characters
	span         ast.Span
	mod          *module
}

func (e *Error) Error() string { return e.Message() }

// Message is the error's one-line description, as the top level prints it.
func (e *Error) Message() string {
	if e.Thrown {
		return "Thrown: " + Display(e.Value)
	}
	return Display(e.Value)
}

// Format renders the message and the trace, one `at fn (file:line:col)`
// line per frame.
func (e *Error) Format() string {
	var b strings.Builder
	b.WriteString("error: " + e.Message() + "\n")
	for _, t := range e.Trace {
		fn := t.Function
		if fn == "" {
			fn = "<top level>"
		}
		fmt.Fprintf(&b, "    at %s (%s:%d:%d)\n", fn, t.Path, t.Line, t.Column)
	}
	return b.String()
}

// at appends a frame to the trace unless it is already the last one.
func (e *Error) at(fn string, mod *module, sp ast.Span) *Error {
	if n := len(e.Trace); n > 0 && e.Trace[n-1].span == sp && e.Trace[n-1].mod == mod {
		return e
	}
	if len(e.Trace) >= 64 {
		return e // deep recursion: the innermost frames tell the story
	}
	t := TraceEntry{Function: fn, span: sp, mod: mod}
	if mod != nil {
		t.Path = mod.path
		t.Line, t.Column = mod.position(sp.Start)
	}
	e.Trace = append(e.Trace, t)
	return e
}

// Pos is the innermost position, if known.
func (e *Error) Pos() (path string, line, col int, ok bool) {
	if len(e.Trace) == 0 {
		return "", 0, 0, false
	}
	t := e.Trace[0]
	return t.Path, t.Line, t.Column, true
}

// throwValue makes the error of `throw v`.
func throwValue(v Value) *Error { return &Error{Value: share(v), Thrown: true} }

// runtimeError is a runtime error whose caught value is its message.
func runtimeError(format string, a ...any) *Error {
	return &Error{Value: Str("Runtime error: " + fmt.Sprintf(format, a...))}
}

// typeError is a "Type error: ..." runtime error.
func typeError(format string, a ...any) *Error {
	return &Error{Value: Str("Type error: " + fmt.Sprintf(format, a...))}
}

// plainError is an error whose caught value is exactly msg.
func plainError(msg string) *Error { return &Error{Value: Str(msg)} }

// Errorf is for builtins: an error whose caught value is the formatted
// message, verbatim.
func Errorf(format string, a ...any) error { return plainError(fmt.Sprintf(format, a...)) }

// ThrowValue is for builtins: throw v as `throw` would.
func ThrowValue(v Value) error { return throwValue(v) }

// asError converts any error a builtin returned into an *Error.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var d *host.DeniedError
	if errors.As(err, &d) {
		return &Error{Value: Str(d.Error()), Category: "permission_denied"}
	}
	return &Error{Value: Str(err.Error())}
}

// Control flow travels as sentinel errors: they never reach a program.
type controlFlow int

const (
	flowBreak controlFlow = iota
	flowContinue
	flowReturn
	flowTailCall
)

func (c controlFlow) Error() string {
	return [...]string{"break outside a loop", "continue outside a loop", "return outside a function", "tail call"}[c]
}

var (
	errBreak    error = flowBreak
	errContinue error = flowContinue
	errReturn   error = flowReturn
	errTailCall error = flowTailCall
)

// isControl reports whether err is a control-flow signal, not an error.
func isControl(err error) bool {
	_, ok := err.(controlFlow)
	return ok
}

// errTaskCancelled ends a task its parent cancelled (a parallel block
// whose other branch failed) while it waited: like the run's stops it
// passes try/catch, so the task unwinds.
var errTaskCancelled error = taskCancelled{}

type taskCancelled struct{}

func (taskCancelled) Error() string { return "task cancelled" }

// passes reports whether err travels through error handling untouched:
// control flow, the run's stops (limits, cancellation, deadlock) and a
// task's cancellation.
func passes(err error) bool {
	switch err.(type) {
	case controlFlow, taskCancelled:
		return true
	}
	return execution.IsStop(err)
}
