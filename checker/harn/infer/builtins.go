package infer

import (
	"github.com/harnlang/harn-check/checker/harn/types"
)

// builtinSigs are built-in functions whose signatures the checker knows
// exactly; calls of them get arity and argument checks.
var builtinSigs = map[string]*types.Func{
	"len":            fn(types.IntType, p("value", types.AnyType)),
	"to_string":      fn(types.StringType, p("value", types.AnyType)),
	"to_int":         fn(types.IntType, p("value", types.AnyType)),
	"to_float":       fn(types.FloatType, p("value", types.AnyType)),
	"type_of":        fn(types.StringType, p("value", types.AnyType)),
	"abs":            fn(types.FloatType, p("value", types.FloatType)),
	"json_stringify": fn(types.StringType, p("value", types.AnyType)),
	"json_parse":     fn(types.AnyType, p("text", types.StringType)),
	"read_file":      fn(types.StringType, p("path", types.StringType)),
	"read_lines":     fn(&types.List{Elem: types.StringType}, p("path", types.StringType)),
	"file_exists":    fn(types.BoolType, p("path", types.StringType)),
	"write_file":     fn(types.NilType, p("path", types.StringType), p("content", types.StringType)),
	"assert_eq":      fn(types.NilType, p("actual", types.AnyType), p("expected", types.AnyType), opt("message", types.StringType)),
	"assert_ne":      fn(types.NilType, p("actual", types.AnyType), p("expected", types.AnyType), opt("message", types.StringType)),
	"assert":         fn(types.NilType, p("condition", types.AnyType), opt("message", types.StringType)),
	"unreachable":    fn(types.NeverType, opt("value", types.AnyType)),
	"uuid":           fn(types.StringType),
	"timestamp":      fn(types.FloatType),
}

// builtinNames are the other built-ins: known to exist, signatures not
// modelled (calls are gradual).
var builtinNames = setOf(
	"log", "println", "print", "eprintln", "format", "path_join", "llm_mock", "llm_mock_clear", "llm_mock_calls",
	"tool_define", "tool_registry", "mkdir", "contains", "llm_call", "exec", "agent_loop", "sleep", "iter",
	"http_mock", "http_get", "http_post", "host_call", "delete_file", "set", "set_add", "set_union", "set_contains",
	"channel", "send", "receive", "unwrap", "unwrap_or", "unwrap_err", "is_ok", "is_err", "Ok", "Err", "Result",
	"shell", "regex_captures", "regex_match", "regex_replace", "schema_of", "schema_is", "schema_expect", "schema_parse",
	"json_extract", "range", "split", "join", "pair", "min", "max", "floor", "ceil", "round", "sqrt", "pow",
	"keys", "values", "entries", "list_dir", "env", "cwd", "now", "date", "random", "random_int", "trim",
	"upper", "lower", "replace", "starts_with", "ends_with", "sum", "sort", "reverse", "zip", "enumerate",
	"map", "filter", "reduce", "any", "all", "first", "last", "count", "push", "pop", "merge", "clone",
	"hash", "sha256", "base64_encode", "base64_decode", "url_encode", "url_decode", "prompt", "ask",
	"llm_stream", "llm_embed", "tool_call", "mcp_connect", "mcp_call", "spawn_agent", "wait", "await",
	"emit", "panic", "exit", "input", "read_stdin", "args", "getenv", "setenv", "glob", "stat", "copy_file",
	"move_file", "append_file", "tempdir", "transcript", "llm_options", "checkpoint", "workflow", "memory",
	"persona", "approval", "request_approval", "dual_control", "ask_user", "escalate_to", "Some", "None",
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func fn(result types.Type, params ...types.Param) *types.Func {
	return &types.Func{Params: params, Result: result}
}

func p(name string, t types.Type) types.Param { return types.Param{Name: name, Type: t} }
func opt(name string, t types.Type) types.Param {
	return types.Param{Name: name, Type: t, Optional: true}
}

// builtinValue returns the type of a built-in name used as a value.
func builtinValue(name string) (types.Type, bool) {
	if sig, ok := builtinSigs[name]; ok {
		return sig, true
	}
	if builtinNames[name] {
		return types.AnyType, true
	}
	return nil, false
}
