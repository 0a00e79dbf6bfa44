package validator

import (
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/runtime/blueprint"
	"github.com/harnlang/harn-check/runtime/rhai"
)

// Spawned is a blueprint whose output validators all compiled: what an
// agent holds from spawn to the end of its run.
type Spawned struct {
	Blueprint *blueprint.Blueprint
	// Checker holds the compiled validators by label and the run's
	// broken_scripts.
	Checker *Checker
	agent   Spec
	stages  map[string]Spec
}

// Spawn loads the blueprint at path and compiles every validator it
// declares, once per distinct label (the path as written), whether or not
// a caller will later override the format. Any problem refuses the load:
// the result is nil and the diagnostics say why (blueprint problems on the
// TOML file, script problems on the script, inline-script problems on the
// TOML file). The error is only for an unreadable blueprint.
func Spawn(path string, lim rhai.Limits) (*Spawned, []diagnostics.Diagnostic, error) {
	data, err := sourcefs.Read(path, 0)
	if err != nil {
		return nil, nil, err
	}
	bp, diags := blueprint.Parse(path, data)
	s := &Spawned{Blueprint: bp, Checker: &Checker{Validators: map[string]*Validator{}, Broken: &BrokenScripts{}},
		stages: map[string]Spec{}}
	compile := func(ref *blueprint.ValidatorRef) {
		if ref == nil || s.Checker.Validators[ref.Label] != nil {
			return
		}
		var v *Validator
		var cerr *CompileError
		if ref.Inline != "" {
			v, cerr = Compile(ref.Label, ref.Inline, lim)
			if cerr != nil {
				d := cerr.Diagnostic(path)
				d.Span = ref.ValueSpan
				if ref.InlineOffset >= 0 && cerr.Code != CodeNoValidate {
					d.Span = diagnostics.Span{Start: ref.InlineOffset + cerr.Span.Start, End: ref.InlineOffset + cerr.Span.End}
				}
				d.Message = "inline validator: " + d.Message
				diags = append(diags, d)
				return
			}
		} else {
			v, _, cerr = Load(ref.Resolved, ref.Label, lim)
			if cerr != nil {
				diags = append(diags, cerr.Diagnostic(ref.Resolved))
				return
			}
		}
		s.Checker.Validators[ref.Label] = v
	}
	if bp.Agent != nil {
		compile(bp.Agent.Validator)
		s.agent = layer(bp.Agent)
	}
	for _, st := range bp.Stages {
		s.Checker.StageNames = append(s.Checker.StageNames, st.Name)
		if st.Output != nil {
			compile(st.Output.Validator)
			s.stages[st.Name] = layer(st.Output)
		}
	}
	if w, ok := diagnostics.Worst(diags); ok && w == diagnostics.Error {
		return nil, diags, nil
	}
	return s, diags, nil
}

// layer turns a blueprint output table into a Spec layer.
func layer(o *blueprint.Output) Spec {
	var l Spec
	if o.Format != "" {
		f := o.Format
		l.Format = &f
	}
	if o.Schema != "" {
		sc := o.Schema
		l.Schema = &sc
	}
	if o.Validator != nil {
		label := o.Validator.Label
		l.Validator = &label
	}
	if o.OnValidatorError != "" {
		p := OnError(o.OnValidatorError)
		l.OnValidatorError = &p
	}
	return l
}

// Spec resolves the output spec of stage (agent settings when the stage is
// unknown or has no output table) under a request.
func (s *Spawned) Spec(stage string, request Spec) Resolved {
	return Resolve(s.agent, s.stages[stage], request)
}

// Submit runs the output tool's checks for stage on content.
func (s *Spawned) Submit(stage string, request Spec, content string) Decision {
	return s.Checker.Submit(s.Spec(stage, request), content)
}
