package leia

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/harnlang/harn-check/runtime/execution"
)

// ErrorKind classifies an Error.
type ErrorKind string

// Error kinds.
const (
	// KindParse is a syntax error or a program the compiler rejects.
	KindParse ErrorKind = "parse"
	// KindRuntime is an error the interpreter raised (bad operands,
	// calling nil, a native's failure).
	KindRuntime ErrorKind = "runtime"
	// KindScript is a value raised by error(v) or assert(false, v).
	KindScript ErrorKind = "script"
	// KindBudget is a run stopped by one of its limits (steps, time,
	// memory, goroutines); Err is the *execution.LimitError.
	KindBudget ErrorKind = "budget"
	// KindCancelled is a run stopped from outside (its context) or by a
	// deadlock; Err is the execution core's stop.
	KindCancelled ErrorKind = "cancelled"
	// KindExit is os.exit(code); Code holds the status.
	KindExit ErrorKind = "exit"
	// KindProcessExit is process.exit(code): pcall catches it (its value
	// is "process exit <code>"); uncaught, the program ends with Code.
	KindProcessExit ErrorKind = "process exit"
)

// Error is a Leia error with the position it was raised at and the Leia
// call stack at that moment.
type Error struct {
	Kind    ErrorKind
	Message string
	// Value is the raised value for script errors, else the message as
	// a string value (what pcall returns).
	Value     Value
	File      string
	Line, Col int
	Traceback []TraceFrame
	// Code is the exit status of KindExit.
	Code int
	// Err is an underlying Go error (context, budget), if any.
	Err error
}

// TraceFrame is one line of a traceback: the function and where it was
// when the error happened.
type TraceFrame struct {
	Function  string
	File      string
	Line, Col int
}

// Error formats "file:line:col: message".
func (e *Error) Error() string {
	if e.File != "" && e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Message)
	}
	return e.Message
}

// Unwrap returns the underlying Go error.
func (e *Error) Unwrap() error { return e.Err }

// TracebackText renders the traceback, innermost call first.
func (e *Error) TracebackText() string {
	if len(e.Traceback) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("stack traceback:\n")
	for _, f := range e.Traceback {
		name := f.Function
		if name == "" {
			name = "function literal"
		} else if name != "main chunk" && name != "..." {
			name = "function '" + name + "'"
		}
		if f.Line > 0 {
			fmt.Fprintf(&b, "\t%s:%d:%d: in %s\n", f.File, f.Line, f.Col, name)
		} else {
			fmt.Fprintf(&b, "\t%s\n", name)
		}
	}
	return b.String()
}

// scriptError carries a value raised by a native (error, assert) to the
// call site, which adds the position.
type scriptError struct{ v Value }

func (s *scriptError) Error() string { return "script error" }

// ScriptError makes a native's error that raises v unchanged (as error(v)
// does): pcall returns v itself.
func ScriptError(v Value) error { return &scriptError{v} }

// coroutineKill unwinds an abandoned coroutine's goroutine; it is never
// caught by pcall.
type coroutineKill struct{}

// runtimeError builds a runtime error at source offset pos of the current
// frame (pos < 0: the frame's current call site).
func (th *Thread) runtimeError(pos int32, format string, args ...any) *Error {
	e := &Error{Kind: KindRuntime, Message: fmt.Sprintf(format, args...)}
	th.locate(e, pos)
	e.Value = String(e.Error())
	return e
}

// locate fills in the position and traceback.
func (th *Thread) locate(e *Error, pos int32) {
	fr := th.current()
	if pos < 0 {
		pos = fr.callPos
	}
	if fr.cl != nil && pos >= 0 {
		c := fr.cl.proto.chunk
		e.File = c.Name
		e.Line, e.Col = c.position(int(pos))
	}
	const keep = 12
	for d := th.depth; d >= 1; d-- {
		if len(e.Traceback) == keep && d > keep {
			e.Traceback = append(e.Traceback, TraceFrame{Function: "..."})
			d = keep
		}
		f := th.frames[d]
		tf := TraceFrame{Function: f.cl.proto.Name, File: f.cl.proto.chunk.Name}
		p := f.callPos
		if d == th.depth {
			p = pos
		}
		if p >= 0 {
			tf.Line, tf.Col = f.cl.proto.chunk.position(int(p))
		}
		e.Traceback = append(e.Traceback, tf)
	}
}

// wrapNativeError turns a native's returned error into a raised Error.
func (th *Thread) wrapNativeError(err error, nf *Native, pos int32) *Error {
	var le *Error
	if errors.As(err, &le) {
		return le
	}
	var se *scriptError
	if errors.As(err, &se) {
		e := &Error{Kind: KindScript, Value: se.v, Message: scriptMessage(se.v)}
		th.locate(e, pos)
		return e
	}
	if stop := execution.AsStop(err); stop != nil {
		return th.stopError(stop, pos)
	}
	msg := err.Error()
	if nf != nil && nf.Name != "" && !strings.Contains(msg, nf.Name) && !strings.HasPrefix(msg, "assertion failed") {
		msg = fmt.Sprintf("%s: %s", nf.Name, msg)
	}
	e := &Error{Kind: KindRuntime, Message: msg, Err: err}
	th.locate(e, pos)
	// As in Lua, an error raised by a library function reaches pcall
	// without a position prefix (the Error still records where).
	e.Value = String(msg)
	return e
}

// scriptMessage is the text of a raised value for messages.
func scriptMessage(v Value) string {
	switch v.k {
	case KindString:
		return v.AsString()
	case KindInt, KindFloat:
		return FormatNumber(v)
	case KindNil:
		return "nil"
	case KindTable:
		if m := v.Table().GetStr("message"); m.k == KindString {
			return m.AsString()
		}
	}
	return "(error object is a " + v.TypeName() + " value)"
}

// toError converts a recovered panic into an Error. Go runtime panics
// (bugs in a native) become runtime errors; coroutine kills keep
// unwinding.
func (th *Thread) toError(r any) *Error {
	switch r := r.(type) {
	case *Error:
		return r
	case coroutineKill:
		panic(r)
	case error:
		if stop := execution.AsStop(r); stop != nil {
			return th.stopError(stop, -1)
		}
		if errors.Is(r, context.Canceled) || errors.Is(r, context.DeadlineExceeded) {
			return th.stopError(&execution.CancelledError{Cause: r}, -1)
		}
		e := th.runtimeError(-1, "internal error: %v", r)
		if th.in.debug {
			e.Message += "\n" + string(debug.Stack())
		}
		return e
	}
	e := th.runtimeError(-1, "internal error: %v", r)
	if th.in.debug {
		e.Message += "\n" + string(debug.Stack())
	}
	return e
}

// stopError is the Leia error of a stop of the run (err from the
// execution core: a limit, a cancellation, a deadlock) at pos: KindBudget
// for a limit, KindCancelled otherwise; Err keeps the stop, so that no
// pcall, xpcall or coroutine boundary catches it.
func (th *Thread) stopError(err error, pos int32) *Error {
	var le *Error
	if errors.As(err, &le) {
		return le
	}
	stop := execution.AsStop(err)
	if stop == nil {
		stop = &execution.CancelledError{Cause: err}
	}
	kind := KindCancelled
	var limit *execution.LimitError
	if errors.As(stop, &limit) {
		kind = KindBudget
	}
	e := &Error{Kind: kind, Message: stop.Error(), Err: stop}
	th.locate(e, pos)
	e.Value = String(e.Error())
	return e
}

// uncatchable reports whether no protected call may catch e: the run's
// stops and os.exit.
func (e *Error) uncatchable() bool {
	return e.Kind == KindExit || e.Kind == KindBudget || e.Kind == KindCancelled || execution.IsStop(e.Err)
}
