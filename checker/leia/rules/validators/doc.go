// Package validators defines the validators rule.
//
// # Rule validators
//
// validators: an output validator an agent names exists and compiles
// (LEIA3008).
//
// An agent may name a Rhai output validator that decides whether its
// answer is acceptable: `validator: "validators/report.rhai"` in
// `agent { ... }`, in a legacy agent's configuration or in the options of
// `llm.agent`, with the path relative to the Leia file. As for a
// blueprint, the script is compiled when the agent is checked, not when it
// is first used: a missing file, a syntax error, or a script without
// exactly one `fn validate(content)` stops the run before any token is
// spent. The path must end in .rhai and stay inside the program's folder
// (no symbolic or hard link out of it); otherwise the file is refused
// before anything is read, as the runtime denies it. `on_validator_error`, when written, must be "reject" or
// "accept". The script's own problem (and its code, RHAI-SYN-001,
// RHAI-VAL-001, ...) is quoted in the message.
package validators
