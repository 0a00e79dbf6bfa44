package validator

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/runtime/blueprint"
	"github.com/harnlang/harn-check/runtime/rhai"
)

func TestCompileContract(t *testing.T) {
	cases := []struct {
		name, src string
		code      string // "" means it compiles
		spanText  string // the source text the span covers
		msg       string
	}{
		{name: "valid validator", src: "fn validate(content) { () }"},
		{name: "any parameter name", src: "fn validate(answer) { () }"},
		{name: "return type is not checked at compile time", src: "fn validate(c) { #{ valid: true } }"},
		{name: "unknown function is not checked at compile time", src: "fn validate(c) { open_file(c) }"},
		{name: "syntax error", src: "fn validate(c) {\n  let x = 1\n  x\n}", code: CodeSyntax, spanText: "x", msg: "Expecting ';'"},
		{name: "eval is a compile error", src: "fn validate(c) { eval(c) }", code: CodeSyntax, spanText: "eval", msg: "eval"},
		{name: "missing validate", src: "fn check(c) { () }", code: CodeNoValidate, msg: "script must define fn validate(content)"},
		{name: "empty script", src: "", code: CodeNoValidate, msg: "script must define fn validate(content)"},
		{name: "validate with no parameter", src: "fn validate() { () }", code: CodeArity, spanText: "validate", msg: "found 0"},
		{name: "validate with two parameters", src: "fn validate(a, b) { () }", code: CodeArity, spanText: "validate", msg: "fn validate must take exactly one parameter (content), found 2"},
		{name: "validate overloaded", src: "fn validate(a) { () }\nfn validate(a, b) { () }", code: CodeDuplicateValidate, spanText: "validate", msg: "defined 2 times"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := Compile("v.rhai", c.src, rhai.Limits{})
			if c.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if v.Label != "v.rhai" {
					t.Fatalf("label %q", v.Label)
				}
				return
			}
			if err == nil {
				t.Fatal("compiled")
			}
			if err.Code != c.code || !strings.Contains(err.Message, c.msg) {
				t.Fatalf("got %s %q, want %s containing %q", err.Code, err.Message, c.code, c.msg)
			}
			if got := c.src[err.Span.Start:min(err.Span.End, len(c.src))]; got != c.spanText {
				t.Fatalf("span covers %q, want %q", got, c.spanText)
			}
			if _, ok := diagnostics.Lookup(err.Code); !ok {
				t.Fatalf("code %s has no explanation page", err.Code)
			}
		})
	}
}

func TestCompileErrorWording(t *testing.T) {
	_, err := Compile("validators/x.rhai", "fn validate(c) {\n  let x = 1\n  x\n}", rhai.Limits{})
	want := "output validator failed to compile: Script compilation failed: validators/x.rhai: Expecting ';' to terminate this statement, found 'x' (line 3, position 3)"
	if err.Error() != want {
		t.Fatalf("got  %q\nwant %q", err.Error(), want)
	}
	_, err = Compile("validators/x.rhai", "fn validate(a, b) { () }", rhai.Limits{})
	want = "output validator failed to compile: Script validation failed: validators/x.rhai: fn validate must take exactly one parameter (content), found 2"
	if err.Error() != want {
		t.Fatalf("got  %q\nwant %q", err.Error(), want)
	}
	_, _, err = Load(filepath.Join(t.TempDir(), "nope.rhai"), "nope.rhai", rhai.Limits{})
	if err == nil || err.Code != blueprint.CodeMissingFile || !strings.Contains(err.Error(), "cannot read output validator") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestVerdicts(t *testing.T) {
	cases := []struct {
		name    string
		src     string // body of validate(c)
		content string
		verdict Verdict
		reason  string
		kind    string
		msg     string // substring of the failure message
	}{
		{name: "unit passes", src: "()", verdict: Pass},
		{name: "empty string passes", src: `""`, verdict: Pass},
		{name: "whitespace string passes", src: "\" \\n\\t\"", verdict: Pass},
		{name: "no explicit return passes (if without else)", src: "if false { 1 }", verdict: Pass},
		{name: "string rejects with reason untrimmed", src: `" needs a root "`, verdict: Reject, reason: " needs a root "},
		{name: "reason from interpolation", src: "`got ${c.len()} chars`", content: "abc", verdict: Reject, reason: "got 3 chars"},
		{name: "int is a failure", src: "1", verdict: Failure, kind: "bad_return_type", msg: "v.rhai: validate must return () or a string, got i64"},
		{name: "bool is a failure", src: "true", verdict: Failure, kind: "bad_return_type", msg: "got bool"},
		{name: "map is a failure", src: "#{ valid: true }", verdict: Failure, kind: "bad_return_type", msg: "got map"},
		{name: "char is a failure", src: "'x'", verdict: Failure, kind: "bad_return_type", msg: "got char"},
		{name: "array is a failure", src: "[]", verdict: Failure, kind: "bad_return_type", msg: "got array"},
		{name: "throw is a failure", src: `throw "boom";`, verdict: Failure, kind: "throw", msg: "v.rhai: validate: Runtime error: boom (line 1, position 18)"},
		{name: "runtime error is a failure", src: "c.x", verdict: Failure, kind: "runtime_error", msg: "Unknown property 'x'"},
		{name: "op budget is a failure", src: "loop {}", verdict: Failure, kind: "too_many_operations", msg: "Too many operations"},
		{name: "stack overflow is a failure", src: "f(1)", verdict: Failure, kind: "stack_overflow", msg: "Stack overflow"},
		{name: "data too large is a failure", src: "let s = c; loop { s += s; }", content: "x", verdict: Failure, kind: "data_too_large", msg: "Length of string too large"},
		{name: "malformed json is an uncatchable failure (read from source)", src: `try { parse_json(c) } catch { return "caught"; }`, content: "{oops", verdict: Failure, kind: "json_syntax_error", msg: "v.rhai: validate: Syntax error: expecting a string key in the JSON text (line 1, position 2)"},
		{name: "non-object json is a catchable error (read from source)", src: `try { parse_json(c); () } catch (e) { e.message }`, content: "[1]", verdict: Reject, reason: "Output type incorrect: array (expecting map)"},
		{name: "exit value is classified (read from source)", src: `exit("early reason"); ()`, verdict: Reject, reason: "early reason"},
		{name: "content arrives whole", src: "if c == \"a\\nb\" { () } else { \"wrong\" }", content: "a\nb", verdict: Pass},
		{name: "invalid utf-8 is replaced", src: "c", content: "a\xffb", verdict: Reject, reason: "a\uFFFDb"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, cerr := Compile("v.rhai", "fn validate(c) { "+c.src+" }\nfn f(n) { f(n + 1) }", rhai.Limits{})
			if cerr != nil {
				t.Fatal(cerr)
			}
			r := v.Validate(c.content)
			if r.Verdict != c.verdict {
				t.Fatalf("verdict %s, want %s (%+v %+v)", r.Verdict, c.verdict, r, r.Failure)
			}
			if r.Reason != c.reason {
				t.Fatalf("reason %q, want %q", r.Reason, c.reason)
			}
			if c.verdict == Failure {
				if r.Failure == nil || r.Failure.Kind != c.kind || !strings.Contains(r.Failure.Message, c.msg) {
					t.Fatalf("failure %+v, want kind %s containing %q", r.Failure, c.kind, c.msg)
				}
			} else if r.Failure != nil {
				t.Fatalf("unexpected failure %+v", r.Failure)
			}
		})
	}
}

func TestTopLevelStatementsRunEveryCall(t *testing.T) {
	v, _ := Compile("v.rhai", "let n = 0; loop { n += 1; }\nfn validate(c) { () }", rhai.Limits{})
	if r := v.Validate("x"); r.Verdict != Failure || r.Failure.Kind != "too_many_operations" {
		t.Fatalf("got %+v", r)
	}
	v, _ = Compile("v.rhai", "fn validate(c) { let n = 0; while n < 100 { n += 1; } () }", rhai.Limits{MaxOperations: 50})
	if r := v.Validate("x"); r.Verdict != Failure || r.Failure.Kind != "too_many_operations" {
		t.Fatalf("configurable budget: got %+v", r)
	}
}

func TestApplyPolicy(t *testing.T) {
	fail := Result{Verdict: Failure, Failure: &FailureInfo{Kind: "throw", Message: "v.rhai: validate: Runtime error: boom"}}
	cases := []struct {
		name     string
		res      Result
		policy   OnError
		accepted bool
		refusal  string
		flagged  bool
	}{
		{"pass is accepted", Result{Verdict: Pass}, RejectOnError, true, "", false},
		{"reject is refused with the reason", Result{Verdict: Reject, Reason: "needs root"}, AcceptOnError, false, "[error] the final output was rejected: needs root", false},
		{"failure under reject is refused with the script's error", fail, RejectOnError, false, "[error] the final output was rejected: v.rhai: validate: Runtime error: boom", true},
		{"failure under accept is recorded unchecked", fail, AcceptOnError, true, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := &BrokenScripts{}
			d := Apply("v.rhai", c.res, c.policy, b)
			if d.Accepted != c.accepted || d.Refusal != c.refusal {
				t.Fatalf("got %+v", d)
			}
			if got := len(b.Names()) == 1; got != c.flagged {
				t.Fatalf("flagged %v, want %v", b.Names(), c.flagged)
			}
			if c.policy == AcceptOnError && c.res.Verdict == Failure && len(d.Warnings) != 1 {
				t.Fatalf("accept must warn: %+v", d)
			}
		})
	}
}

func TestBrokenScriptsOncePerScript(t *testing.T) {
	bad, _ := Compile("validators/bad.rhai", `fn validate(c) { throw "x"; }`, rhai.Limits{})
	worse, _ := Compile("validators/worse.rhai", `fn validate(c) { 1 }`, rhai.Limits{})
	good, _ := Compile("validators/good.rhai", `fn validate(c) { () }`, rhai.Limits{})
	b := &BrokenScripts{}
	for range 3 {
		for _, v := range []*Validator{bad, good, worse} {
			Apply(v.Label, v.Validate("x"), AcceptOnError, b)
		}
	}
	if got := b.Names(); !slices.Equal(got, []string{"validators/bad.rhai", "validators/worse.rhai"}) {
		t.Fatalf("got %v", got)
	}
	if (&BrokenScripts{}).Names() == nil {
		t.Fatal("Names must never be nil")
	}
}

func TestParseOnError(t *testing.T) {
	for in, want := range map[string]OnError{"": RejectOnError, "reject": RejectOnError, "accept": AcceptOnError} {
		if got, err := ParseOnError(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, in := range []string{"Reject", "ACCEPT", "ignore", " reject"} {
		if _, err := ParseOnError(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestResolveCascadeAndFormatOverride(t *testing.T) {
	agent := Spec{Format: ptr("a2ui"), Validator: ptr("validators/a2ui.rhai"), Schema: ptr(`{"type":"object"}`)}
	cases := []struct {
		name                      string
		agent, stage, request     Spec
		format, validator, schema string
		policy                    OnError
		reshaped                  bool
	}{
		{name: "agent only", agent: agent, format: "a2ui", validator: "validators/a2ui.rhai", schema: `{"type":"object"}`, policy: RejectOnError},
		{name: "stage inherits the agent validator", agent: agent, stage: Spec{OnValidatorError: ptr(AcceptOnError)}, format: "a2ui", validator: "validators/a2ui.rhai", schema: `{"type":"object"}`, policy: AcceptOnError},
		{name: "stage value wins", agent: Spec{Format: ptr("a2ui"), Validator: ptr("a.rhai"), OnValidatorError: ptr(AcceptOnError)}, stage: Spec{Validator: ptr("b.rhai"), OnValidatorError: ptr(RejectOnError)}, format: "a2ui", validator: "b.rhai", policy: RejectOnError},
		{name: "stage format differing from agent is not a reshape", agent: agent, stage: Spec{Format: ptr("report")}, format: "report", validator: "validators/a2ui.rhai", schema: `{"type":"object"}`, policy: RejectOnError},
		{name: "request repeating the format keeps the validator", agent: agent, request: Spec{Format: ptr("a2ui")}, format: "a2ui", validator: "validators/a2ui.rhai", schema: `{"type":"object"}`, policy: RejectOnError},
		{name: "request overriding the format retires validator and schema", agent: agent, request: Spec{Format: ptr("markdown")}, format: "markdown", policy: RejectOnError, reshaped: true},
		{name: "reshaped run keeps the request schema", agent: agent, request: Spec{Format: ptr("json"), Schema: ptr(`{"type":"array"}`)}, format: "json", schema: `{"type":"array"}`, policy: RejectOnError, reshaped: true},
		{name: "request cannot supply a validator", agent: agent, request: Spec{Format: ptr("json"), Validator: ptr("evil.rhai")}, format: "json", policy: RejectOnError, reshaped: true},
		{name: "format comparison is exact", agent: agent, request: Spec{Format: ptr("A2UI")}, format: "A2UI", policy: RejectOnError, reshaped: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Resolve(c.agent, c.stage, c.request)
			if r.Format != c.format || r.Validator != c.validator || r.Schema != c.schema || r.OnValidatorError != c.policy || r.Reshaped != c.reshaped {
				t.Fatalf("got %+v", r)
			}
		})
	}
}

func TestCheckerSubmit(t *testing.T) {
	a2ui, _ := Compile("validators/a2ui.rhai", "fn validate(c) { let d = parse_json(c); if d.root == () { return \"needs root\"; } () }", rhai.Limits{})
	c := &Checker{Validators: map[string]*Validator{a2ui.Label: a2ui}, Broken: &BrokenScripts{}, StageNames: []string{"present"}}
	spec := Resolved{Format: "json", Validator: a2ui.Label, OnValidatorError: RejectOnError}
	cases := []struct {
		name     string
		spec     Resolved
		content  string
		accepted bool
		refusal  string // prefix
		warning  string
	}{
		{name: "empty content", spec: spec, content: "  ", refusal: "[error] the final output is empty"},
		{name: "stage name", spec: spec, content: " PRESENT ", refusal: "[error] the final output is the stage name"},
		{name: "format check runs before the validator", spec: spec, content: "{oops", refusal: "[error] the final output is not valid json"},
		{name: "validator rejects", spec: spec, content: `{"a": 1}`, refusal: "[error] the final output was rejected: needs root"},
		{name: "validator passes", spec: spec, content: `{"root": 1}`, accepted: true},
		{name: "schema mismatch refuses before the validator", spec: Resolved{Format: "json", Schema: `{"type":"object","required":["root"]}`, Validator: a2ui.Label}, content: `{"a": 1}`, refusal: "[error] the final output does not match the output schema"},
		{name: "schema that does not compile is skipped (fail-open)", spec: Resolved{Format: "json", Schema: `{"type": 12}`}, content: `{"a": 1}`, accepted: true, warning: "the output schema does not compile"},
		{name: "fail-open schema under reject with a passing validator", spec: Resolved{Format: "json", Schema: `{not json`, Validator: a2ui.Label, OnValidatorError: RejectOnError}, content: `{"root": 1}`, accepted: true, warning: "does not compile"},
		{name: "schema never loads external refs", spec: Resolved{Format: "json", Schema: `{"$ref": "file:///etc/passwd"}`}, content: `{}`, accepted: true, warning: "does not compile"},
		{name: "retired validator does not run", spec: Resolved{Format: "markdown", Reshaped: true}, content: "# hi", accepted: true},
		{name: "xml format", spec: Resolved{Format: "XML"}, content: "<a><b></a>", refusal: "[error] the final output is not valid xml"},
		{name: "toml format", spec: Resolved{Format: "toml"}, content: "a = ", refusal: "[error] the final output is not valid toml"},
		{name: "csv format", spec: Resolved{Format: "csv"}, content: "a,\"b\n", refusal: "[error] the final output is not valid csv"},
		{name: "unknown format is not parsed", spec: Resolved{Format: "a2ui"}, content: "anything", accepted: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := c.Submit(tc.spec, tc.content)
			if d.Accepted != tc.accepted || !strings.HasPrefix(d.Refusal, tc.refusal) || (tc.refusal == "") != (d.Refusal == "") {
				t.Fatalf("got %+v", d)
			}
			if tc.warning != "" && (len(d.Warnings) == 0 || !strings.Contains(d.Warnings[0], tc.warning)) {
				t.Fatalf("warnings %v, want %q", d.Warnings, tc.warning)
			}
		})
	}
}

func TestRunOutput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a2ui := write("a2ui.rhai", "fn validate(c) { let d = parse_json(c); if d.root == () { return \"needs root\"; } () }")
	broken := write("broken.rhai", "fn validate(c) {")
	cases := []struct {
		name     string
		req      OutputRequest
		exit     int
		verdict  string
		reason   string // "" means null
		kind     string
		brokenOK bool
		diag     string
	}{
		{name: "pass", req: OutputRequest{ValidatorPath: a2ui, Content: []byte(`{"root": {}}`)}, exit: 0, verdict: "pass"},
		{name: "reject", req: OutputRequest{ValidatorPath: a2ui, Content: []byte(`{}`)}, exit: 1, verdict: "reject", reason: "needs root"},
		{name: "failure rejects by default", req: OutputRequest{ValidatorPath: a2ui, Content: []byte(`{bad`)}, exit: 1, verdict: "failure", reason: a2ui + ": validate: Syntax error: expecting a string key in the JSON text", kind: "json_syntax_error", brokenOK: true},
		{name: "failure under accept", req: OutputRequest{ValidatorPath: a2ui, OnError: "accept", Content: []byte(`{bad`)}, exit: 0, verdict: "failure", kind: "json_syntax_error", brokenOK: true},
		{name: "budget is configurable", req: OutputRequest{ValidatorPath: a2ui, MaxOperations: 3, Content: []byte(`{}`)}, exit: 1, verdict: "failure", reason: a2ui + ": validate: Too many operations", kind: "too_many_operations", brokenOK: true},
		{name: "syntax error exits 2", req: OutputRequest{ValidatorPath: broken, Content: []byte(`{}`)}, exit: 2, verdict: "failure", kind: "compile_error", diag: CodeSyntax},
		{name: "missing file exits 2", req: OutputRequest{ValidatorPath: filepath.Join(dir, "nope.rhai")}, exit: 2, verdict: "failure", kind: "compile_error", diag: blueprint.CodeMissingFile},
		{name: "bad on-error exits 2", req: OutputRequest{ValidatorPath: a2ui, OnError: "ignore"}, exit: 2, verdict: "failure", kind: "usage_error", diag: blueprint.CodeBadOnError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, exit, diags := RunOutput(c.req)
			if exit != c.exit || res.Verdict != c.verdict {
				t.Fatalf("exit %d verdict %s, want %d %s (%+v)", exit, res.Verdict, c.exit, c.verdict, res)
			}
			if (c.reason == "") != (res.Reason == nil) || res.Reason != nil && !strings.HasPrefix(*res.Reason, c.reason) {
				t.Fatalf("reason %v, want %q", res.Reason, c.reason)
			}
			if (c.kind == "") != (res.Failure == nil) || res.Failure != nil && res.Failure.Kind != c.kind {
				t.Fatalf("failure %+v, want kind %q", res.Failure, c.kind)
			}
			if want := []string{}; c.brokenOK {
				if !slices.Equal(res.BrokenScripts, []string{c.req.ValidatorPath}) {
					t.Fatalf("broken %v", res.BrokenScripts)
				}
			} else if res.BrokenScripts == nil || !slices.Equal(res.BrokenScripts, want) {
				t.Fatalf("broken %#v, want []", res.BrokenScripts)
			}
			if (c.diag == "") != (len(diags) == 0) || len(diags) > 0 && diags[0].Code != c.diag {
				t.Fatalf("diags %+v, want %s", diags, c.diag)
			}
		})
	}
}

// TestOutputResultJSON pins the wire shape validate-output prints: key
// order, null for absent reason and failure, [] for no broken scripts.
func TestOutputResultJSON(t *testing.T) {
	reason := "needs root"
	cases := []struct {
		res  OutputResult
		want string
	}{
		{OutputResult{Verdict: "pass", BrokenScripts: []string{}}, `{"verdict":"pass","reason":null,"failure":null,"broken_scripts":[]}`},
		{OutputResult{Verdict: "reject", Reason: &reason, BrokenScripts: []string{}}, `{"verdict":"reject","reason":"needs root","failure":null,"broken_scripts":[]}`},
		{OutputResult{Verdict: "failure", Failure: &FailureInfo{Kind: "throw", Message: "v.rhai: validate: Runtime error: x"}, BrokenScripts: []string{"v.rhai"}},
			`{"verdict":"failure","reason":null,"failure":{"kind":"throw","message":"v.rhai: validate: Runtime error: x"},"broken_scripts":["v.rhai"]}`},
	}
	for _, c := range cases {
		got, err := json.Marshal(c.res)
		if err != nil || string(got) != c.want {
			t.Errorf("got %s (%v)\nwant %s", got, err, c.want)
		}
	}
	// RunOutput never leaves broken_scripts null.
	res, _, _ := RunOutput(OutputRequest{ValidatorPath: filepath.Join(t.TempDir(), "none.rhai")})
	if got, _ := json.Marshal(res); !strings.Contains(string(got), `"broken_scripts":[]`) {
		t.Errorf("got %s", got)
	}
}
