package evaluate

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/internal/suggest"
	"github.com/harnlang/harn-check/runtime/canonjson"
)

// Backends a policy may name.
const (
	BackendStructured = catalog.BackendStructured
	BackendNative     = catalog.BackendNative
)

// Policy is a decoded EvaluationPolicy.
type Policy struct {
	Backend, Provider, Model string
	// Effort is "none" when absent; Temperature 0 when absent.
	Effort      string
	Temperature float64
	// NativeOptionsSupplied records that effort or temperature was given
	// at all (a native route refuses either).
	NativeOptionsSupplied bool
	Threshold             float64
	EvaluationCostLimit   *float64
	RunCostLimit          *float64
}

var policyFields = []string{"backend", "provider", "model", "effort", "temperature", "threshold", "evaluation_cost_limit", "run_cost_limit"}

// DecodePolicy reads an EvaluationPolicy record. Unknown fields, missing
// or mistyped fields, a threshold outside [0, 1], a non-finite
// temperature and negative or non-finite limits are errors.
func DecodePolicy(v any) (*Policy, error) {
	o, ok := v.(*canonjson.Object)
	if !ok {
		return nil, fmt.Errorf("evaluation policy must be a record")
	}
	for _, k := range o.Keys {
		if !slices.Contains(policyFields, k) {
			return nil, fmt.Errorf("evaluation policy has unknown field `%s`", k)
		}
	}
	text := func(k string) (string, error) {
		if s, ok := o.Values[k].(string); ok {
			return s, nil
		}
		return "", fmt.Errorf("evaluation policy has no string `%s`", k)
	}
	number := func(k string) (float64, error) {
		switch n := o.Values[k].(type) {
		case float64:
			return n, nil
		case int64:
			return float64(n), nil
		case uint64:
			return float64(n), nil
		}
		return 0, fmt.Errorf("evaluation policy has no numeric `%s`", k)
	}
	optional := func(k string) (*float64, error) {
		if _, present := o.Values[k]; !present {
			return nil, nil
		}
		n, err := number(k)
		return &n, err
	}
	p := &Policy{Effort: "none"}
	var err error
	if p.Backend, err = text("backend"); err != nil {
		return nil, err
	}
	if p.Backend != BackendStructured && p.Backend != BackendNative {
		backends := []string{BackendStructured, BackendNative}
		near := suggest.Nearest(p.Backend, backends, len(p.Backend)+len(BackendStructured))
		return nil, fmt.Errorf("unknown evaluation backend `%s` (did you mean `%s`? backend is %q or %q)", p.Backend, near, BackendStructured, BackendNative)
	}
	if p.Provider, err = text("provider"); err != nil {
		return nil, err
	}
	if p.Model, err = text("model"); err != nil {
		return nil, err
	}
	if _, present := o.Values["effort"]; present {
		if p.Effort, err = text("effort"); err != nil {
			return nil, err
		}
		p.NativeOptionsSupplied = true
	}
	if _, present := o.Values["temperature"]; present {
		if p.Temperature, err = number("temperature"); err != nil {
			return nil, err
		}
		p.NativeOptionsSupplied = true
	}
	if p.Threshold, err = number("threshold"); err != nil {
		return nil, err
	}
	if p.EvaluationCostLimit, err = optional("evaluation_cost_limit"); err != nil {
		return nil, err
	}
	if p.RunCostLimit, err = optional("run_cost_limit"); err != nil {
		return nil, err
	}
	bad := func(f *float64) bool { return f != nil && (math.IsNaN(*f) || math.IsInf(*f, 0) || *f < 0) }
	if math.IsNaN(p.Threshold) || p.Threshold < 0 || p.Threshold > 1 || math.IsNaN(p.Temperature) || math.IsInf(p.Temperature, 0) ||
		bad(p.EvaluationCostLimit) || bad(p.RunCostLimit) {
		return nil, fmt.Errorf("evaluation policy requires finite nonnegative budgets and a threshold in [0, 1]")
	}
	return p, nil
}

// digestParts are the policy facts the policy digest covers, in order:
// every fact that changes what was asked, the threshold included (the
// same answers under another threshold are another decision). Numbers are
// written as Rust's {:?} writes them and optional limits as Some(x)/None,
// so the digest equals upstream's.
func (p *Policy) digestParts() []string {
	opt := func(f *float64) string {
		if f == nil {
			return "None"
		}
		return "Some(" + canonjson.RustDebugFloat(*f) + ")"
	}
	return []string{
		p.Backend, p.Provider, p.Model, p.Effort,
		canonjson.RustDebugFloat(p.Temperature),
		strconv.FormatBool(p.NativeOptionsSupplied),
		canonjson.RustDebugFloat(p.Threshold),
		opt(p.EvaluationCostLimit), opt(p.RunCostLimit),
	}
}
