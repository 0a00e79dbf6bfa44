package validator

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/runtime/blueprint"
	"github.com/harnlang/harn-check/runtime/rhai"
)

// FileResult is the outcome of checking one file.
type FileResult struct {
	Path        string
	Content     []byte
	Diagnostics []diagnostics.Diagnostic
}

// CheckPaths compiles every blueprint (a *.toml file declaring outputs,
// see blueprint.LooksLikeBlueprint) and every *.rhai script found under
// paths (directories are walked in lexical order, skipping .git and
// node_modules; a file named explicitly is checked whatever its
// extension, as a blueprint if it ends in .toml).
//
// The validator contract (exactly one validate, with one parameter)
// applies to scripts a blueprint references and to scripts named
// explicitly. Other scripts found by walking may be tools or providers
// with contracts of their own: they are checked for syntax, and for the
// contract only if they define a validate function. Referenced scripts
// are compiled even when they lie outside paths; their problems are
// reported on the script file. Results are sorted by path, one per file,
// with sorted, de-duplicated diagnostics. The error is only for a path
// that does not exist.
func CheckPaths(paths []string) ([]FileResult, error) {
	var files []string
	explicit := map[string]bool{}
	var skipped []FileResult
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			// A pipe or device named explicitly would block or never end.
			if err := sourcefs.Check(p); err != nil {
				return nil, fmt.Errorf("%s: %s", p, sourcefs.Reason(err))
			}
			files = append(files, p)
			explicit[filepath.Clean(p)] = true
			continue
		}
		entries, err := sourcefs.Walk(p, []string{".rhai", ".toml"}, map[string]bool{".git": true, "node_modules": true})
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Err != nil {
				skipped = append(skipped, FileResult{Path: filepath.Clean(e.Path), Diagnostics: []diagnostics.Diagnostic{notRead(filepath.Clean(e.Path), e.Err)}})
				continue
			}
			files = append(files, e.Path)
		}
	}
	c := &checker{results: map[string]*FileResult{}, compiled: map[string]bool{}}
	// Blueprints first, so that the scripts they reference get the full
	// contract whatever the walk order.
	for _, f := range files {
		if strings.HasSuffix(f, ".toml") {
			c.blueprint(f)
		}
	}
	for _, f := range files {
		if !strings.HasSuffix(f, ".toml") {
			c.script(f, explicit[filepath.Clean(f)])
		}
	}
	out := make([]FileResult, 0, len(c.results)+len(skipped))
	out = append(out, skipped...)
	for _, r := range c.results {
		diagnostics.Sort(r.Diagnostics)
		r.Diagnostics = slices.CompactFunc(r.Diagnostics, func(a, b diagnostics.Diagnostic) bool {
			return a.Code == b.Code && a.Span == b.Span && a.Message == b.Message
		})
		if r.Diagnostics == nil {
			r.Diagnostics = []diagnostics.Diagnostic{}
		}
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b FileResult) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

type checker struct {
	results  map[string]*FileResult
	compiled map[string]bool
}

func (c *checker) result(path string, content []byte) *FileResult {
	r := c.results[path]
	if r == nil {
		r = &FileResult{Path: path}
		c.results[path] = r
	}
	if r.Content == nil {
		r.Content = content
	}
	return r
}

// script compiles one .rhai file once. Unless contract is set, a script
// without any validate function is not held to the validator contract.
func (c *checker) script(path string, contract bool) {
	path = filepath.Clean(path)
	if c.compiled[path] {
		return
	}
	c.compiled[path] = true
	_, data, cerr := Load(path, path, rhai.Limits{})
	r := c.result(path, data)
	if cerr != nil && (contract || cerr.Code != CodeNoValidate) {
		r.Diagnostics = append(r.Diagnostics, cerr.Diagnostic(path))
	}
}

func (c *checker) blueprint(path string) {
	data, err := sourcefs.Read(path, 0)
	if err != nil {
		r := c.result(path, nil)
		r.Diagnostics = append(r.Diagnostics, diagnostics.New(path, diagnostics.SourceValidator, blueprint.CodeUnreadableBlueprint,
			diagnostics.Span{}, "cannot read blueprint: "+sourcefs.Reason(err)))
		return
	}
	if !blueprint.LooksLikeBlueprint(data) {
		return
	}
	bp, diags := blueprint.Parse(path, data)
	r := c.result(path, data)
	r.Diagnostics = append(r.Diagnostics, diags...)
	for _, ref := range refs(bp) {
		if ref.Inline == "" {
			c.script(ref.Resolved, true)
			continue
		}
		_, cerr := Compile(ref.Label, ref.Inline, rhai.Limits{})
		if cerr == nil {
			continue
		}
		d := cerr.Diagnostic(path)
		if ref.InlineOffset >= 0 && cerr.Code != CodeNoValidate {
			d.Span = diagnostics.Span{Start: ref.InlineOffset + cerr.Span.Start, End: ref.InlineOffset + cerr.Span.End}
		} else {
			d.Span = ref.ValueSpan
			if cerr.Code == CodeSyntax {
				d.Message = fmt.Sprintf("%s (line %d, position %d of the inline script)", d.Message, cerr.Line, cerr.Column)
			}
		}
		d.Message = "inline validator: " + d.Message
		r.Diagnostics = append(r.Diagnostics, d)
	}
}

// refs lists the validators a blueprint declares, agent first.
func refs(bp *blueprint.Blueprint) []*blueprint.ValidatorRef {
	var out []*blueprint.ValidatorRef
	if bp.Agent != nil && bp.Agent.Validator != nil {
		out = append(out, bp.Agent.Validator)
	}
	for _, s := range bp.Stages {
		if s.Output != nil && s.Output.Validator != nil {
			out = append(out, s.Output.Validator)
		}
	}
	return out
}

// OutputRequest asks RunOutput to run one validator on one answer.
type OutputRequest struct {
	ValidatorPath string
	// OnError is "reject" (the default when empty) or "accept".
	OnError string
	Content []byte
	// ContentSize, when positive, is the answer's full size and Content
	// only its first AnswerLimit()+1 bytes: a caller reads no more of an
	// answer than the validator can take. -1 says the answer is over the
	// limit by an unknown amount (a pipe); 0 that Content is the answer.
	ContentSize int64
	// MaxOperations overrides the operation budget when positive.
	MaxOperations int64
}

// AnswerLimit is the largest answer RunOutput hands a script, in bytes
// (the string size limit of the validator's interpreter); a larger one is
// a data_too_large failure without running the script.
func AnswerLimit() int { return rhai.DefaultLimits().MaxStringSize }

// OutputResult is the JSON printed by validate-output.
type OutputResult struct {
	Verdict string `json:"verdict"`
	// Reason is the script's reason (reject), or under on_error=reject the
	// failure message sent back to the agent; null otherwise.
	Reason        *string      `json:"reason"`
	Failure       *FailureInfo `json:"failure"`
	BrokenScripts []string     `json:"broken_scripts"`
	// Warnings are operator notes of a blueprint check (a schema that
	// does not compile, a validator failing under accept).
	Warnings []string `json:"warnings,omitempty"`
}

// RunOutput runs one validator on one answer. Exit code: 0 pass (or a
// failure under accept), 1 reject or a failure that rejects, 2 a
// validator that does not compile or cannot be read, or a bad OnError
// value (reported as RHAI-BLU-001 on the path "--on-error"). With exit 2
// the result's verdict is "failure" with kind "compile_error" and
// compileDiags says why.
func RunOutput(req OutputRequest) (res OutputResult, exitCode int, compileDiags []diagnostics.Diagnostic) {
	res.BrokenScripts = []string{}
	policy, err := ParseOnError(req.OnError)
	if err != nil {
		d := diagnostics.New("--on-error", diagnostics.SourceValidator, blueprint.CodeBadOnError, diagnostics.Span{}, err.Error())
		res.Verdict = string(Failure)
		res.Failure = &FailureInfo{Kind: "usage_error", Message: err.Error()}
		return res, 2, []diagnostics.Diagnostic{d}
	}
	lim := rhai.DefaultLimits()
	if req.MaxOperations > 0 {
		lim.MaxOperations = req.MaxOperations
	}
	v, _, cerr := Load(req.ValidatorPath, req.ValidatorPath, lim)
	if cerr != nil {
		res.Verdict = string(Failure)
		res.Failure = &FailureInfo{Kind: "compile_error", Message: cerr.Error()}
		return res, 2, []diagnostics.Diagnostic{cerr.Diagnostic(req.ValidatorPath)}
	}
	broken := &BrokenScripts{}
	var r Result
	if req.ContentSize != 0 && len(req.Content) > AnswerLimit() {
		r = v.tooLarge(req.ContentSize)
	} else {
		r = v.Validate(string(req.Content))
	}
	d := Apply(v.Label, r, policy, broken)
	res.Verdict = string(r.Verdict)
	res.Failure = r.Failure
	res.BrokenScripts = broken.Names()
	switch {
	case r.Verdict == Reject:
		reason := r.Reason
		res.Reason = &reason
	case r.Verdict == Failure && !d.Accepted:
		reason := r.Failure.Message
		res.Reason = &reason
	}
	if d.Accepted {
		return res, 0, nil
	}
	return res, 1, nil
}

// notRead is the diagnostic for a file a walk found but did not read: a
// pipe, device or pseudo file (HARN-IO-003), a link out of the folder
// (HARN-IO-004), or one that could not be resolved (HARN-IO-001).
func notRead(path string, err error) diagnostics.Diagnostic {
	var nr *sourcefs.NotRegularError
	var out *sourcefs.OutsideError
	switch {
	case errors.As(err, &nr):
		return diagnostics.New(path, diagnostics.SourceIO, "HARN-IO-003", diagnostics.Span{},
			"not checked: not a regular file: it is a "+nr.What)
	case errors.As(err, &out):
		return diagnostics.New(path, diagnostics.SourceIO, "HARN-IO-004", diagnostics.Span{},
			"not checked: "+out.Describe()+" being checked")
	}
	return diagnostics.New(path, diagnostics.SourceIO, "HARN-IO-001", diagnostics.Span{}, "cannot read file: "+sourcefs.Reason(err))
}

// BlueprintOutputRequest asks RunBlueprintOutput to run a blueprint
// stage's whole check chain on one answer.
type BlueprintOutputRequest struct {
	Blueprint string
	// Stage names the stage; empty with Agent set checks against
	// [agent.output] alone.
	Stage string
	Agent bool
	// Format and Schema, when non-nil, are a launch request's overrides:
	// a format other than the declared one retires the declared schema
	// and validator; the request's schema is kept.
	Format, Schema *string
	Content        []byte
}

// RunBlueprintOutput spawns the blueprint (every validator compiled) and
// runs the output tool's checks for one stage on one answer, in the
// contract's order: the format's parser, the JSON Schema (one that does
// not compile is skipped and the answer recorded unchecked, with a
// warning), then the validator. Exit code: 0 accepted, 1 refused, 2 a
// blueprint or validator that does not load, or an unknown stage.
func RunBlueprintOutput(req BlueprintOutputRequest) (res OutputResult, exitCode int, diags []diagnostics.Diagnostic) {
	res.BrokenScripts = []string{}
	usage := func(msg string) (OutputResult, int, []diagnostics.Diagnostic) {
		res.Verdict = string(Failure)
		res.Failure = &FailureInfo{Kind: "usage_error", Message: msg}
		return res, 2, nil
	}
	s, diags, err := Spawn(req.Blueprint, rhai.DefaultLimits())
	if err != nil {
		return usage("reading the blueprint: " + sourcefs.Reason(err))
	}
	if s == nil {
		res.Verdict = string(Failure)
		res.Failure = &FailureInfo{Kind: "compile_error", Message: "the blueprint or one of its validators does not load"}
		return res, 2, diags
	}
	if !req.Agent {
		found := false
		var names []string
		for _, st := range s.Blueprint.Stages {
			names = append(names, st.Name)
			found = found || st.Name == req.Stage
		}
		if !found {
			return usage(fmt.Sprintf("the blueprint has no stage %q (stages: %s)", req.Stage, strings.Join(names, ", ")))
		}
	}
	if len(req.Content) > AnswerLimit() {
		return usage(fmt.Sprintf("the answer is larger than %d bytes", AnswerLimit()))
	}
	d := s.Submit(req.Stage, Spec{Format: req.Format, Schema: req.Schema}, string(req.Content))
	res.BrokenScripts = s.Checker.Broken.Names()
	res.Warnings = d.Warnings
	switch {
	case d.Result != nil:
		res.Verdict = string(d.Result.Verdict)
		res.Failure = d.Result.Failure
	case d.Accepted:
		res.Verdict = string(Pass)
	default:
		res.Verdict = string(Reject)
	}
	if !d.Accepted {
		reason := strings.TrimPrefix(d.Refusal, refusalPrefix)
		res.Reason = &reason
		return res, 1, nil
	}
	return res, 0, nil
}
