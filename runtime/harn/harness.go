package harn

import (
	"strings"
)

// The harness capability object (`fn main(harness)`, or the global
// `harness`) is assembled per run from the library's methods per
// capability: harness.stdio.println(...), harness.fs.read_file(...),
// harness.llm.... A capability handle is a host object named like the
// checker's handle types (HarnessStdio, HarnessLlm, ...); its methods are
// builtins. A family adds capabilities or methods with
// Library.HarnessMethod, e.g. the decision evaluator's
// harness.llm.evaluate, without editing this file.

// HarnessCapabilities are the capability members every harness has, in
// upstream's order; a family's Library.HarnessMethod may add more.
var HarnessCapabilities = []string{"stdio", "clock", "fs", "env", "random", "net", "process", "crypto", "system", "llm"}

// Harness is the run's harness object.
func (in *Interp) Harness() Value {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.harness.k != KindNil {
		return in.harness
	}
	harnessMethods := in.lib.harness
	members := map[string]Value{}
	caps := append([]string(nil), HarnessCapabilities...)
	for c := range harnessMethods {
		found := false
		for _, k := range caps {
			found = found || k == c
		}
		if !found {
			caps = append(caps, c)
		}
	}
	for _, c := range caps {
		methods := map[string]*Builtin{}
		for name, b := range harnessMethods[c] {
			methods[name] = b
		}
		members[c] = Value{k: KindObject, r: &Object{TypeName: "Harness" + strings.ToUpper(c[:1]) + c[1:], Methods: methods}}
	}
	in.harness = Value{k: KindObject, r: &Object{TypeName: "Harness", Members: members}}
	return in.harness
}

// harnessAlias declares harness.<capability>.<method> as the builtin
// named builtin (same arguments, same result).
func harnessAlias(lib *Library, capability, method, builtin string) {
	lib.HarnessMethod(capability, method, func(c *Call, args []Value) (Value, error) {
		b, ok := c.th.in.builtin(builtin)
		if !ok {
			return Nil, plainError(unavailableMessage(builtin))
		}
		return b.Fn(&Call{th: c.th, Name: builtin}, args)
	})
}

func installHarness(lib *Library) {
	for _, a := range [][3]string{
		{"stdio", "print", "print"}, {"stdio", "println", "println"}, {"stdio", "eprint", "eprint"},
		{"stdio", "eprintln", "eprintln"}, {"stdio", "log", "log"}, {"stdio", "read_stdin", "read_stdin"},
		{"clock", "now_ms", "now_ms"}, {"clock", "timestamp", "timestamp"}, {"clock", "monotonic_ms", "monotonic_ms"},
		{"clock", "sleep", "sleep"}, {"clock", "sleep_ms", "sleep_ms"},
		{"fs", "read_file", "read_file"}, {"fs", "read", "read_file"}, {"fs", "write_file", "write_file"},
		{"fs", "write", "write_file"}, {"fs", "append_file", "append_file"}, {"fs", "exists", "file_exists"},
		{"fs", "file_exists", "file_exists"}, {"fs", "list_dir", "list_dir"}, {"fs", "mkdir", "mkdir"},
		{"fs", "delete_file", "delete_file"}, {"fs", "stat", "stat"}, {"fs", "temp_dir", "temp_dir"},
		{"env", "get", "env"}, {"env", "get_or", "env_or"}, {"env", "env", "env"}, {"env", "env_or", "env_or"},
		{"random", "float", "random"}, {"random", "int", "random_int"}, {"random", "uuid", "uuid"},
		{"random", "choice", "random_choice"}, {"random", "shuffle", "random_shuffle"},
		{"net", "get", "http_get"}, {"net", "post", "http_post"}, {"net", "request", "http_request"},
		{"net", "http_get", "http_get"}, {"net", "http_post", "http_post"}, {"net", "http_request", "http_request"},
		{"process", "exec", "exec"}, {"process", "exec_at", "exec_at"}, {"process", "shell", "shell"},
		{"process", "shell_at", "shell_at"},
		{"crypto", "sha256", "sha256"}, {"crypto", "sha512", "sha512"}, {"crypto", "md5", "md5"},
		{"crypto", "hmac_sha256", "hmac_sha256"}, {"crypto", "uuid", "uuid"},
		{"system", "platform", "platform"}, {"system", "arch", "arch"}, {"system", "pid", "pid"},
		{"system", "cwd", "cwd"}, {"system", "hostname", "hostname"},
		{"llm", "call", "llm_call"}, {"llm", "mock", "llm_mock"}, {"llm", "mock_calls", "llm_mock_calls"},
		{"llm", "mock_clear", "llm_mock_clear"},
	} {
		harnessAlias(lib, a[0], a[1], a[2])
	}
	lib.HarnessMethod("system", "args", func(c *Call, args []Value) (Value, error) {
		v, _ := c.th.in.globalValue("argv")
		return v, nil
	})
}
