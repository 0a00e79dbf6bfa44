package validator

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/runtime/blueprint"
	"github.com/harnlang/harn-check/runtime/rhai"
)

// The codes this package reports (blueprint codes live in runtime/blueprint).
const (
	CodeSyntax            = "RHAI-SYN-001"
	CodeNoValidate        = "RHAI-VAL-001"
	CodeArity             = "RHAI-VAL-002"
	CodeDuplicateValidate = "RHAI-VAL-003"
)

// Validator is a compiled validator script.
type Validator struct {
	// Label names the script in messages and in broken_scripts: the path
	// as written in the blueprint (Leviath keys scripts by that string).
	Label string
	// Limits of every call; zero fields take rhai.DefaultLimits.
	Limits rhai.Limits
	prog   *rhai.Program
}

// CompileError is a refusal to load a validator.
type CompileError struct {
	// Code is the diagnostic code: RHAI-SYN-001, RHAI-VAL-00x or
	// RHAI-BLU-003 (unreadable file).
	Code  string
	Label string
	// Message is the problem alone, without label or position.
	Message string
	// Span is in the script source (for RHAI-BLU-003: empty).
	Span diagnostics.Span
	// Line and Column locate syntax errors (1-based, characters).
	Line, Column int
}

// Error renders Leviath's wording, e.g. "Script compilation failed:
// v.rhai: <message> (line 3, position 5)".
func (e *CompileError) Error() string {
	switch e.Code {
	case CodeSyntax:
		return fmt.Sprintf("output validator failed to compile: Script compilation failed: %s: %s (line %d, position %d)", e.Label, e.Message, e.Line, e.Column)
	case blueprint.CodeMissingFile:
		return e.Message
	}
	return fmt.Sprintf("output validator failed to compile: Script validation failed: %s: %s", e.Label, e.Message)
}

// Diagnostic converts the error to a diagnostic about path.
func (e *CompileError) Diagnostic(path string) diagnostics.Diagnostic {
	d := diagnostics.New(path, diagnostics.SourceValidator, e.Code, e.Span, e.Message)
	switch e.Code {
	case CodeNoValidate:
		d.Help = "add `fn validate(content) { () }` returning () to accept or a string reason to reject"
	case CodeArity, CodeDuplicateValidate:
		d.Help = "define exactly one `fn validate(content)` with one parameter"
	}
	return d
}

// Compile compiles source and checks the contract: exactly one validate
// function, with one parameter. Unknown functions, variables and return
// types are not checked: Rhai resolves them at run time.
func Compile(label, source string, lim rhai.Limits) (*Validator, *CompileError) {
	prog, perr := rhai.Compile(source, lim.MaxExprDepth)
	if perr != nil {
		return nil, &CompileError{Code: CodeSyntax, Label: label, Message: perr.Message,
			Span: diagnostics.Span{Start: perr.Pos, End: perr.End}, Line: perr.Line, Column: perr.Column}
	}
	var found []rhai.Function
	for _, f := range prog.Functions() {
		if f.Name == "validate" {
			found = append(found, f)
		}
	}
	switch {
	case len(found) == 0:
		return nil, &CompileError{Code: CodeNoValidate, Label: label, Message: "script must define fn validate(content)"}
	case len(found) > 1:
		// Leviath takes whichever the AST yields first; we demand one.
		f := found[1]
		return nil, &CompileError{Code: CodeDuplicateValidate, Label: label, Span: diagnostics.Span{Start: f.Pos, End: f.End},
			Message: fmt.Sprintf("fn validate is defined %d times; define it exactly once, with one parameter (content)", len(found))}
	case len(found[0].Params) != 1:
		f := found[0]
		return nil, &CompileError{Code: CodeArity, Label: label, Span: diagnostics.Span{Start: f.Pos, End: f.End},
			Message: fmt.Sprintf("fn validate must take exactly one parameter (content), found %d", len(f.Params))}
	}
	return &Validator{Label: label, Limits: lim, prog: prog}, nil
}

// Load reads and compiles the script at path, labelled label.
func Load(path, label string, lim rhai.Limits) (*Validator, []byte, *CompileError) {
	data, err := sourcefs.Read(path, 0)
	if err != nil {
		return nil, nil, &CompileError{Code: blueprint.CodeMissingFile, Label: label,
			Message: fmt.Sprintf("cannot read output validator '%s': %s", path, sourcefs.Reason(err))}
	}
	v, cerr := Compile(label, string(data), lim)
	return v, data, cerr
}

// Verdict is the outcome of one validation.
type Verdict string

// The verdicts.
const (
	// Pass: validate returned () or an empty or whitespace-only string.
	Pass Verdict = "pass"
	// Reject: validate returned any other string, the reason.
	Reject Verdict = "reject"
	// Failure: the validator could not give a verdict (a throw, an engine
	// error, an exhausted limit, or a return of another type).
	Failure Verdict = "failure"
)

// FailureInfo says why a validator failed to run.
type FailureInfo struct {
	// Kind is one of throw, runtime_error, too_many_operations,
	// stack_overflow, data_too_large, json_syntax_error, bad_return_type,
	// internal_error.
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Result is the verdict of one call.
type Result struct {
	Verdict Verdict
	// Reason is the script's reason for Reject, untrimmed.
	Reason  string
	Failure *FailureInfo
}

// tooLarge is the failure of an answer of size bytes, over the string
// size limit; a negative size is an answer of unknown size over it.
func (v *Validator) tooLarge(size int64) Result {
	lim := v.limits().MaxStringSize
	what := fmt.Sprintf("%d bytes, more than", size)
	if size < 0 {
		what = "more than"
	}
	return Result{Verdict: Failure, Failure: &FailureInfo{Kind: rhai.ErrDataTooLarge.String(),
		Message: fmt.Sprintf("%s: validate: the answer is %s the string size limit of %d bytes", v.Label, what, lim)}}
}

// Validate runs validate(content) on a fresh interpreter; top-level
// statements run first, on the same budget. Invalid UTF-8 in content is
// replaced by U+FFFD (a Rhai string is always valid UTF-8).
func (v *Validator) Validate(content string) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = Result{Verdict: Failure, Failure: &FailureInfo{Kind: "internal_error",
				Message: fmt.Sprintf("%s: validate: internal error: %v", v.Label, r)}}
		}
	}()
	// The string limit holds for the answer itself: a script must not be
	// handed more than it could ever build.
	if len(content) > v.limits().MaxStringSize {
		return v.tooLarge(int64(len(content)))
	}
	if !utf8.ValidString(content) {
		content = strings.ToValidUTF8(content, "\uFFFD")
	}
	out, err := v.prog.Call("validate", []rhai.Value{content}, v.Limits)
	if err != nil {
		return Result{Verdict: Failure, Failure: &FailureInfo{Kind: err.Kind.String(),
			Message: fmt.Sprintf("%s: validate: %s", v.Label, err.Error())}}
	}
	switch t := out.(type) {
	case rhai.Unit:
		return Result{Verdict: Pass}
	case string:
		if strings.TrimSpace(t) == "" {
			return Result{Verdict: Pass}
		}
		if lim := v.limits(); len(t) > lim.MaxStringSize {
			return Result{Verdict: Failure, Failure: &FailureInfo{Kind: rhai.ErrDataTooLarge.String(),
				Message: fmt.Sprintf("%s: validate: the reason is %d bytes, more than the string size limit of %d bytes", v.Label, len(t), lim.MaxStringSize)}}
		}
		return Result{Verdict: Reject, Reason: t}
	}
	return Result{Verdict: Failure, Failure: &FailureInfo{Kind: "bad_return_type",
		Message: fmt.Sprintf("%s: validate must return () or a string, got %s", v.Label, rustTypeName(out))}}
}

// rustTypeName names a value's type as Rhai's error text does.
func rustTypeName(v rhai.Value) string {
	switch n := rhai.TypeName(v); n {
	case "range", "range=":
		return "range"
	default:
		return n
	}
}

// limits returns the validator's limits with the defaults filled in.
func (v *Validator) limits() rhai.Limits {
	lim, d := v.Limits, rhai.DefaultLimits()
	if lim.MaxStringSize <= 0 {
		lim.MaxStringSize = d.MaxStringSize
	}
	return lim
}
