// Package validator is the output-validator contract: compiling a Rhai
// validator (fail early, before any token is spent), running it on an
// answer, and deciding what the output tool does with the verdict.
//
// # API for cmd/harn-check
//
//	// harn-check validate PATH...
//	func CheckPaths(paths []string) ([]FileResult, error)
//	type FileResult struct { Path string; Content []byte; Diagnostics []diagnostics.Diagnostic }
//	    // one result per blueprint (*.toml declaring outputs) and per *.rhai
//	    // script, sorted by path; error only for a path that does not exist.
//	    // Referenced and explicitly named scripts get the validator contract;
//	    // other walked scripts (tools, providers) only a syntax check unless
//	    // they define validate. Exit 1 when any diagnostic has error
//	    // severity (all codes here do).
//
//	// harn-check validate-output --validator FILE [--on-error reject|accept] [--content FILE]
//	func RunOutput(req OutputRequest) (res OutputResult, exitCode int, compileDiags []diagnostics.Diagnostic)
//	type OutputRequest struct { ValidatorPath string; OnError string; Content []byte; MaxOperations int64 }
//	type OutputResult struct {
//	    Verdict       string       `json:"verdict"`        // "pass" | "reject" | "failure"
//	    Reason        *string      `json:"reason"`         // reject reason, or the failure message under reject
//	    Failure       *FailureInfo `json:"failure"`        // {kind, message}
//	    BrokenScripts []string     `json:"broken_scripts"` // [] or [validator path]
//	}
//	    // exitCode: 0 pass (or failure under accept), 1 reject or rejecting
//	    // failure, 2 validator unreadable or not compiling (compileDiags
//	    // says why; res has verdict "failure", kind "compile_error") or a
//	    // bad OnError value (RHAI-BLU-001 on the path "--on-error").
//
// For a runtime host, Spawn(blueprintPath, limits) loads a blueprint and
// compiles all its validators (refusing the load on any problem), and
// Spawned.Submit(stage, request, content) runs the output tool's checks.
//
// # The contract (Leviath, seed 002)
//
// A script defines exactly one validate(content) with one parameter. The
// refusals at load time are: an unreadable file (RHAI-BLU-003), a syntax
// error (RHAI-SYN-001), no validate (RHAI-VAL-001), a validate with
// another arity (RHAI-VAL-002), more than one validate (RHAI-VAL-003).
// Each call runs top-level statements and then validate on a fresh
// interpreter with the hardened limits of runtime/rhai. validate returning
// () or a blank string passes; another string rejects with that reason,
// untrimmed; anything else (a throw, an engine error, an exhausted limit,
// a return of another type) is a failure with a kind and a message in
// Leviath's words ("<label>: validate: <Rhai error>", "<label>: validate
// must return () or a string, got i64").
//
// on_validator_error decides what a failure does: "reject" (default)
// refuses the answer with the script's own error as the reason; "accept"
// records it unchecked. Both flag the script by label, once, in
// BrokenScripts. Resolve implements the agent → stage → request cascade,
// retiring declared schema and validator when the request overrides the
// format. Checker.Submit runs the output tool's checks in order; a JSON
// Schema that does not compile is skipped with a warning (fail-open)
// whatever on_validator_error says.
//
// Invariants: nothing here prints; every problem is a diagnostic with a
// code registered in diagnostics/explain.
package validator
