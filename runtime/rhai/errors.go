package rhai

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ParseError is a compile-time error with its location in the source.
type ParseError struct {
	// Message is Rhai-style text without the position suffix.
	Message string
	// Pos and End are UTF-8 byte offsets of the offending text (End >= Pos).
	Pos, End int
	// Line and Column are 1-based; Column counts characters, as Rhai's
	// "position" does.
	Line, Column int
}

// Error returns "<message> (line L, position P)" as Rhai prints it.
func (e *ParseError) Error() string {
	return fmt.Sprintf("%s (line %d, position %d)", e.Message, e.Line, e.Column)
}

func newParseError(src string, pos int, format string, args ...any) *ParseError {
	pos = min(max(pos, 0), len(src))
	line, col := lineCol(src, pos)
	end := pos
	if end < len(src) {
		_, size := utf8.DecodeRuneInString(src[end:])
		end += size
	}
	return &ParseError{Message: fmt.Sprintf(format, args...), Pos: pos, End: end, Line: line, Column: col}
}

// lineCol returns the 1-based line and character column of byte offset pos.
func lineCol(src string, pos int) (int, int) {
	pos = min(max(pos, 0), len(src))
	before := src[:pos]
	line := strings.Count(before, "\n") + 1
	lineStart := strings.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCountInString(before[lineStart:]) + 1
}

// ErrorKind classifies run-time errors.
type ErrorKind int

// The run-time error kinds. The names follow Rhai's EvalAltResult variants.
const (
	// ErrThrow is a value thrown by the script.
	ErrThrow ErrorKind = iota
	// ErrRuntime covers catchable engine errors: type mismatches, unknown
	// variables, functions and properties, bad indices, arithmetic.
	ErrRuntime
	// ErrTooManyOperations: the operation budget is spent (uncatchable).
	ErrTooManyOperations
	// ErrStackOverflow: too many nested function calls (uncatchable).
	ErrStackOverflow
	// ErrDataTooLarge: a string, array or map over its limit (uncatchable).
	ErrDataTooLarge
	// ErrJSONSyntax: parse_json was given malformed text (uncatchable, as a
	// Rhai parse error is).
	ErrJSONSyntax
)

// String names the kind as the validator's failure report does.
func (k ErrorKind) String() string {
	switch k {
	case ErrThrow:
		return "throw"
	case ErrRuntime:
		return "runtime_error"
	case ErrTooManyOperations:
		return "too_many_operations"
	case ErrStackOverflow:
		return "stack_overflow"
	case ErrDataTooLarge:
		return "data_too_large"
	case ErrJSONSyntax:
		return "json_syntax_error"
	}
	return "runtime_error"
}

// EvalError is a run-time error.
type EvalError struct {
	Kind ErrorKind
	// Message is the Rhai-style text without position.
	Message string
	// Value is the thrown value for ErrThrow.
	Value Value
	// Pos is the byte offset in the script, -1 when unknown.
	Pos          int
	Line, Column int
	// Calls lists the script functions the error passed through,
	// innermost first.
	Calls []string
	// JSONPos is, for ErrJSONSyntax, the byte offset in the JSON text;
	// Line and Column then locate the error in that text.
	JSONPos int
}

// Catchable reports whether try/catch may intercept the error.
func (e *EvalError) Catchable() bool {
	return e.Kind == ErrThrow || e.Kind == ErrRuntime
}

// Error renders the error as Rhai does: message, " (line L, position P)"
// when known, then one "in call to function 'f'" line per script function.
func (e *EvalError) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	if (e.Pos >= 0 || e.Kind == ErrJSONSyntax) && e.Line > 0 {
		fmt.Fprintf(&b, " (line %d, position %d)", e.Line, e.Column)
	}
	for _, f := range e.Calls {
		fmt.Fprintf(&b, "\nin call to function '%s'", f)
	}
	return b.String()
}

// toCatchValue is what `catch (e)` binds: the thrown value, or for engine
// errors a map with message, line and position.
func (e *EvalError) toCatchValue() Value {
	if e.Kind == ErrThrow {
		return e.Value
	}
	m := newMap()
	m.m["message"] = e.Message
	if e.Pos >= 0 && e.Line > 0 {
		m.m["line"] = int64(e.Line)
		m.m["position"] = int64(e.Column)
	}
	return m
}

// control-flow signals travel as errors through the evaluator.
type ctrlKind int

const (
	ctrlBreak ctrlKind = iota
	ctrlContinue
	ctrlReturn
	ctrlExit
)

type ctrl struct {
	kind  ctrlKind
	value Value
	pos   int
}

func (c *ctrl) Error() string { return "control flow" }
