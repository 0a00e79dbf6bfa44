package infer

// documentedBuiltins are the free functions Harn's builtin reference lists
// (names only; their signatures are not modelled). A call of any of them is
// never an undefined function.
var documentedBuiltins = []string{
	"log", "print", "println", "type_of", "to_string", "to_int", "to_float",
	"Ok", "Err", "is_ok", "is_err", "unwrap", "unwrap_or", "unwrap_err",
	"json_parse", "json_stringify", "json_validate", "schema_check", "schema_parse", "schema_to_json_schema",
	"schema_extend", "schema_partial", "schema_pick", "schema_omit", "json_extract", "schema_of", "schema_is",
	"schema_expect",
	"abs", "ceil", "floor", "round", "sqrt", "pow", "min", "max", "random", "random_int",
	"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "log2", "log10", "ln", "exp", "pi", "e", "sign",
	"is_nan", "is_infinite",
	"set", "set_add", "set_remove", "set_contains", "set_union", "set_intersect", "set_intersection",
	"set_difference", "set_symmetric_difference", "set_is_subset", "set_is_superset", "set_is_disjoint", "to_list",
	"len", "trim", "lowercase", "uppercase", "split", "starts_with", "ends_with", "contains", "replace", "join",
	"substring", "format",
	"dirname", "basename", "extname", "path_join",
	"read_file", "write_file", "append_file", "copy_file", "delete_file", "file_exists", "list_dir", "mkdir",
	"stat", "temp_dir", "render",
	"env", "timestamp", "elapsed", "exec", "exec_at", "shell", "shell_at", "exit", "username", "hostname",
	"platform", "arch", "home_dir", "pid", "cwd", "source_dir", "project_root", "date_iso",
	"regex_match", "regex_replace", "regex_captures",
	"base64_encode", "base64_decode", "url_encode", "url_decode", "sha256", "md5",
	"date_now", "date_parse", "date_format",
	"assert", "assert_eq", "assert_ne", "unreachable",
	"http_get", "http_post", "http_put", "http_patch", "http_delete", "http_request", "http_mock",
	"http_mock_clear", "http_mock_calls",
	"prompt_user",
	"host_call", "host_capabilities", "host_has", "host_mock", "host_mock_clear", "host_mock_calls",
	"sleep", "channel", "send", "receive", "close_channel", "try_receive", "select",
	"atomic", "atomic_get", "atomic_set", "atomic_add", "atomic_cas",
	"store_get", "store_set", "store_delete", "store_list", "store_save", "store_clear",
	"llm_call", "llm_completion", "agent_loop", "llm_info", "llm_usage", "llm_resolve_model", "llm_pick_model",
	"llm_infer_provider", "llm_model_tier", "llm_healthcheck", "llm_providers", "llm_config", "llm_cost",
	"llm_session_cost", "llm_budget", "llm_budget_remaining", "llm_mock", "llm_mock_clear", "llm_mock_calls",
	"transcript", "transcript_from_messages", "transcript_messages", "transcript_summary", "transcript_id",
	"transcript_export", "transcript_import", "transcript_fork", "transcript_summarize", "transcript_compact",
	"transcript_auto_compact", "transcript_assets", "transcript_add_asset", "transcript_events",
	"transcript_reset", "transcript_archive", "transcript_abandon", "transcript_resume",
	"transcript_render_visible", "transcript_render_full", "add_user", "add_assistant", "add_message",
	"timer_start", "timer_end",
	"circuit_breaker", "circuit_check", "circuit_record_failure", "circuit_record_success", "circuit_reset",
	"trace_start", "trace_end", "trace_id", "enable_tracing", "trace_spans", "trace_summary",
	"throw_error", "error_category", "is_timeout", "is_rate_limited",
	"tool_registry", "tool_define", "tool_remove", "tool_list", "tool_find", "tool_select", "tool_count",
	"tool_describe", "tool_schema", "tool_prompt", "tool_parse_call", "tool_format_result",
	"log_json",
	"metadata_get", "metadata_resolve", "metadata_entries", "metadata_set", "metadata_save", "metadata_stale",
	"metadata_status", "metadata_refresh_hashes", "compute_content_hash", "invalidate_facts", "scan_directory",
	"mcp_connect", "mcp_list_tools", "mcp_call", "mcp_list_resources", "mcp_list_resource_templates",
	"mcp_read_resource", "mcp_list_prompts", "mcp_get_prompt", "mcp_server_info", "mcp_disconnect",
	"mcp_tools", "mcp_serve", "mcp_resource", "mcp_resource_template", "mcp_prompt",
	"workflow_graph", "workflow_validate", "workflow_inspect", "workflow_clone", "workflow_insert_node",
	"workflow_replace_node", "workflow_rewire", "workflow_set_model_policy", "workflow_set_context_policy",
	"workflow_set_transcript_policy", "workflow_policy_report", "workflow_diff", "workflow_commit",
	"workflow_execute", "run_record", "run_record_save", "run_record_load", "load_run_tree", "run_record_fixture",
	"run_record_eval", "run_record_eval_suite", "run_record_diff", "eval_suite_manifest", "eval_suite_run",
	"register_tool_hook", "clear_tool_hooks",
	"estimate_tokens", "microcompact", "select_artifacts_adaptive",
	"spawn_agent", "send_input", "resume_agent", "wait_agent", "close_agent", "list_agents",
	"artifact", "artifact_derive", "artifact_select", "artifact_context", "artifact_workspace_file",
	"artifact_workspace_snapshot", "artifact_editor_selection", "artifact_verification_result",
	"artifact_test_result", "artifact_command_result", "artifact_diff", "artifact_git_diff",
	"artifact_diff_review", "artifact_review_decision", "artifact_patch_proposal",
	"artifact_verification_bundle", "artifact_apply_intent",
	"iter", "range", "pair", "uuid", "read_lines",
}

func init() {
	for _, n := range documentedBuiltins {
		builtinNames[n] = true
	}
	// Globals that are values, not functions.
	builtinNames["mcp"] = true
}
