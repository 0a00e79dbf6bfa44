package ai

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/internal/english"
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
	"github.com/harnlang/harn-check/runtime/rhai"
	"github.com/harnlang/harn-check/runtime/validator"
)

// Output checks of the built-in loop, in the order of Leviath's output
// tool (runtime/validator): a final answer must not be empty; when the
// agent declares an output shape or a JSON Schema it must parse as JSON;
// it must match the JSON Schema (output_schema; a schema that does not
// compile is skipped with a warning, fail-open); it must match the
// output shape (output: an example table: every key present with a value
// of the example's kind); and it must satisfy the Rhai validator
// (validator: a path relative to the program's folder, compiled when the
// agent is made). on_validator_error decides what a validator that fails
// to run does: "reject" (the default) refuses the answer with the
// script's own error as the reason, "accept" records it unchecked; both
// flag the script in broken_scripts (once per script per run).
//
// A validator's refusal goes back to the model as its next user message;
// a shape or schema refusal does when output_retries or output_repair ask
// for repair turns. When none is left the agent fails with {kind:
// "validation", message, reason, broken_scripts, history}.

type outputSpec struct {
	shape     leia.Value
	schema    string
	validator *validator.Validator
	label     string
	onError   validator.OnError
}

func (s outputSpec) active() bool {
	return !s.shape.IsNil() || s.schema != "" || s.validator != nil
}

// wantsJSON is true when the answer must be a JSON document.
func (s outputSpec) wantsJSON() bool { return !s.shape.IsNil() || s.schema != "" }

// responseFormat is the provider hint for the declared output: a JSON
// Schema response format, or json_object for a shape.
func (s outputSpec) responseFormat(name string) leia.Value {
	if s.schema != "" {
		var doc any
		if json.Unmarshal([]byte(s.schema), &doc) == nil {
			if name == "" {
				name = "output"
			}
			return T("type", "json_schema", "json_schema", T("name", name, "schema", FromGo(llm.NormalizeValue(doc))))
		}
	}
	if !s.shape.IsNil() {
		return T("type", "json_object")
	}
	return leia.Nil
}

// outputSpec reads the output checks of opts over base's.
func (rt *Runtime) outputSpec(opts leia.Value, base *outputSpec) (outputSpec, error) {
	var s outputSpec
	if base != nil {
		s = *base
	}
	if s.onError == "" {
		s.onError = validator.RejectOnError
	}
	if o := Field(opts, "output"); o.Table() != nil {
		s.shape = o
	}
	switch sc := Field(opts, "output_schema"); {
	case sc.Kind() == leia.KindString:
		s.schema = sc.AsString()
	case sc.Table() != nil:
		b, err := json.Marshal(llm.NormalizeValue(ToGo(sc)))
		if err != nil {
			return s, fmt.Errorf("output_schema cannot be encoded as JSON: %v", err)
		}
		s.schema = string(b)
	case !sc.IsNil():
		return s, fmt.Errorf("output_schema must be a table or a JSON string, got %s", sc.TypeName())
	}
	if oe := Field(opts, "on_validator_error"); !oe.IsNil() {
		p, err := validator.ParseOnError(Str(oe))
		if err != nil || oe.Kind() != leia.KindString {
			return s, fmt.Errorf("on_validator_error must be \"reject\" or \"accept\", got %s", describe(oe))
		}
		s.onError = p
	}
	if vp := Field(opts, "validator"); !vp.IsNil() {
		if vp.Kind() != leia.KindString || vp.AsString() == "" {
			return s, fmt.Errorf("validator must be the path of a .rhai script, got %s", describe(vp))
		}
		v, err := rt.loadValidator(vp.AsString())
		if err != nil {
			return s, err
		}
		s.validator, s.label = v, vp.AsString()
	}
	return s, nil
}

func describe(v leia.Value) string {
	if v.Kind() == leia.KindString {
		return fmt.Sprintf("%q", v.AsString())
	}
	return english.A(v.TypeName())
}

// loadValidator compiles a validator once per run, reading it through the
// host (so the program's file-system confinement applies).
func (rt *Runtime) loadValidator(path string) (*validator.Validator, error) {
	if v, ok := rt.validators[path]; ok {
		return v, nil
	}
	if filepath.Ext(path) != ".rhai" {
		// Not read: its content must not reach a compile error.
		return nil, fmt.Errorf("validator %s: RHAI-BLU-003: cannot read output validator: not a Rhai script (the path must end in .rhai)", path)
	}
	var src []byte
	var err error
	if h := rt.cfg.Host; h != nil {
		// The host resolves a relative path against the program's folder.
		src, err = h.ReadFile(path)
	} else {
		full := path
		if !filepath.IsAbs(full) {
			full = filepath.Join(rt.cfg.Dir, path)
		}
		src, err = os.ReadFile(full)
	}
	if err != nil {
		msg := err.Error()
		if pe, ok := err.(*os.PathError); ok {
			msg = pe.Err.Error()
		}
		return nil, fmt.Errorf("validator %s: RHAI-BLU-003: cannot read output validator: %s", path, msg)
	}
	v, cerr := validator.Compile(path, string(src), rhai.DefaultLimits())
	if cerr != nil {
		return nil, fmt.Errorf("validator %s: %s: %s", path, cerr.Code, cerr.Message)
	}
	rt.validators[path] = v
	return v, nil
}

// outputCheck is the verdict on one final answer.
type outputCheck struct {
	accepted bool
	refusal  string
	value    leia.Value
	// status is passed, unchecked (accepted under on_validator_error =
	// "accept" after the validator failed to run) or rejected.
	status   string
	warnings []string
	broken   []string
	// byValidator is true when the Rhai validator refused (its refusals go
	// back to the model by default; shape and schema refusals only with
	// output_retries or output_repair, as upstream's loop).
	byValidator bool
}

func (c outputCheck) table() leia.Value {
	return T("status", c.status, "broken_scripts", StringList(c.broken), "warnings", StringList(c.warnings))
}

func (rt *Runtime) checkOutput(s outputSpec, text string) outputCheck {
	c := outputCheck{accepted: true, status: "passed", broken: []string{}, warnings: []string{}}
	if !s.active() {
		return c
	}
	res := validator.Resolved{Schema: s.schema, OnValidatorError: s.onError}
	if s.wantsJSON() {
		res.Format = "json"
	}
	ch := validator.Checker{Broken: &rt.broken}
	if s.validator != nil {
		res.Validator = s.label
		ch.Validators = map[string]*validator.Validator{s.label: s.validator}
	}
	before := map[string]bool{}
	for _, n := range rt.BrokenScripts() {
		before[n] = true
	}
	rt.mu.Lock()
	d := ch.Submit(res, text)
	rt.mu.Unlock()
	for _, n := range rt.BrokenScripts() {
		if n == s.label {
			c.broken = append(c.broken, n)
		}
		if !before[n] {
			rt.Emit(llm.TraceEvent{Type: "validator_broken", Status: string(s.onError), Message: "output validator failed to run: " + n})
		}
	}
	c.warnings = append(c.warnings, d.Warnings...)
	if d.Accepted && d.Result != nil && d.Result.Verdict == validator.Failure {
		c.status = "unchecked"
	}
	if !d.Accepted {
		c.accepted, c.refusal, c.status = false, d.Refusal, "rejected"
		c.byValidator = d.Result != nil
		return c
	}
	if s.wantsJSON() {
		var doc any
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		if dec.Decode(&doc) == nil {
			c.value = FromGo(llm.NormalizeValue(doc))
		}
		if !s.shape.IsNil() {
			if why := shapeMismatch(s.shape, c.value, "", 0); why != "" {
				c.accepted, c.refusal, c.status = false, "[error] the final output does not match the output shape: "+why, "rejected"
				c.value = leia.Nil
			}
		}
	}
	return c
}

// shapeMismatch compares a value with an example shape: every key of the
// example must be present, with a string, number, boolean or table as
// the example's value is; a list example wants a list. "" when it
// matches.
func shapeMismatch(shape, v leia.Value, path string, depth int) string {
	if depth > 32 {
		return ""
	}
	where := path
	if where == "" {
		where = "the output"
	}
	if v.IsNil() {
		return where + " is missing"
	}
	switch shape.Kind() {
	case leia.KindString:
		if v.Kind() != leia.KindString {
			return where + " must be a string"
		}
	case leia.KindInt, leia.KindFloat:
		if !v.IsNumber() {
			return where + " must be a number"
		}
	case leia.KindBool:
		if v.Kind() != leia.KindBool {
			return where + " must be a boolean"
		}
	case leia.KindTable:
		if v.Table() == nil {
			return where + " must be an object"
		}
		if items := Items(shape); len(items) > 0 {
			for i, it := range Items(v) {
				if why := shapeMismatch(items[0], it, fmt.Sprintf("%s[%d]", path, i+1), depth+1); why != "" {
					return why
				}
			}
			return ""
		}
		for _, k := range Keys(shape) {
			sub := k
			if path != "" {
				sub = path + "." + k
			}
			if why := shapeMismatch(Field(shape, k), Field(v, k), sub, depth+1); why != "" {
				return why
			}
		}
	}
	return ""
}
