package harn

// unimplemented lists the builtins of lang/harn/builtins this runtime
// does not provide, each with the reason; calling one raises "not
// available in this runtime: NAME REASON". TestEveryTableBuiltinImplemented
// holds the list to the table and the library both ways: every table
// builtin is in the library or listed here, a listed one is really absent,
// and every listed name is a table builtin.
var unimplemented = map[string]string{
	// Values and concurrency.
	"Some":            "needs Option values, which this runtime does not model (Result covers the same ground)",
	"select":          "is the select statement in this runtime; the function form is not implemented",
	"shared_scope_id": "needs shared-scope identifiers, which this runtime does not expose",
	"stream":          "needs the stream(source) constructor; build streams with the stream.* operators or a gen fn",

	// Output and logging.
	"log_json":    "needs JSON log lines, which this runtime does not write yet",
	"prompt_user": "needs an interactive terminal, which a run of this runtime does not read from",
	"metrics_inc": "needs connector metrics, which this runtime does not keep",

	// Encoding and networks.
	"brotli_decode":          "needs a Brotli codec, which Go's standard library does not include",
	"brotli_encode":          "needs a Brotli codec, which Go's standard library does not include",
	"zstd_decode":            "needs a Zstandard codec, which Go's standard library does not include",
	"zstd_encode":            "needs a Zstandard codec, which Go's standard library does not include",
	"jwt_verify":             "needs JWT signature verification, which this runtime does not provide yet",
	"websocket_accept":       "needs a WebSocket server; only mocked sockets (websocket_mock) are served",
	"websocket_route":        "needs a WebSocket server; only mocked sockets (websocket_mock) are served",
	"websocket_server":       "needs a WebSocket server; only mocked sockets (websocket_mock) are served",
	"websocket_server_close": "needs a WebSocket server; only mocked sockets (websocket_mock) are served",
	"pg_close":               "needs a PostgreSQL client; only pg_mock_pool handles are served",
	"pg_connect":             "needs a PostgreSQL client; only pg_mock_pool handles are served",
	"pg_pool":                "needs a PostgreSQL client; only pg_mock_pool handles are served",
	"pg_transaction":         "needs a PostgreSQL client; only pg_mock_pool handles are served",

	// The host and models.
	"host_tool_call":         "needs a host tool bridge, which this runtime does not have (mock host calls with host_mock)",
	"host_tool_list":         "needs a host tool bridge, which this runtime does not have (mock host calls with host_mock)",
	"provider_register":      "needs host-implemented model providers, which this runtime does not accept",
	"prompt_mark_rendered":   "needs prompt provenance tracking, which this runtime does not keep",
	"render_with_provenance": "needs prompt provenance tracking, which this runtime does not keep",
	"vision_ocr":             "needs image input to models, which this runtime does not send",
	"transcript_summarize":   "needs model-written transcript summaries, which this runtime does not implement yet",
	"tool_synth_invoke":      "needs synthesised tools, which this runtime does not implement yet",

	// Agents, policy and review.
	"agent_session_compact": "needs agent session compaction, which this runtime does not implement yet",
	"agent_trace_summary":   "needs agent trace summaries, which this runtime does not implement yet",
	"resume_agent":          "needs resumable agent handles, which this runtime does not implement yet",
	"spawn_agent":           "needs spawned agent handles, which this runtime does not implement yet",
	"escalate_to":           "needs human escalation routing, which this runtime does not implement yet",
	"worker_trigger":        "is provided by std/agents only; import it from there",
	"command_llm_risk_scan": "needs command policies, which this runtime does not implement yet",
	"command_policy":        "needs command policies, which this runtime does not implement yet",
	"command_policy_pop":    "needs command policies, which this runtime does not implement yet",
	"command_policy_push":   "needs command policies, which this runtime does not implement yet",
	"command_result_scan":   "needs command policies, which this runtime does not implement yet",
	"command_risk_scan":     "needs command policies, which this runtime does not implement yet",
	"secret_get":            "needs a secret store, which this runtime does not have",
	"secret_scan":           "needs secret scanning, which this runtime does not implement yet",
	"self_review":           "needs model self-review, which this runtime does not implement yet",

	// Artifacts, workflows and evaluation.
	"assemble_context":               "needs context packs, which this runtime does not implement yet",
	"context_pack_manifest":          "needs context packs, which this runtime does not implement yet",
	"context_pack_manifest_parse":    "needs context packs, which this runtime does not implement yet",
	"context_pack_suggestions":       "needs context packs, which this runtime does not implement yet",
	"event_log_emit":                 "is event_log.emit in this runtime; the flat name is not registered",
	"eval_metric":                    "needs evaluation packs, which this runtime does not implement yet",
	"eval_metrics":                   "needs evaluation packs, which this runtime does not implement yet",
	"eval_pack_manifest":             "needs evaluation packs, which this runtime does not implement yet",
	"eval_pack_run":                  "needs evaluation packs, which this runtime does not implement yet",
	"friction_clear":                 "needs friction records, which this runtime does not implement yet",
	"friction_eval_fixture":          "needs friction records, which this runtime does not implement yet",
	"friction_event":                 "needs friction records, which this runtime does not implement yet",
	"friction_events":                "needs friction records, which this runtime does not implement yet",
	"friction_record":                "needs friction records, which this runtime does not implement yet",
	"load_run_tree":                  "needs stored run trees, which this runtime does not implement yet",
	"plan_artifact":                  "needs plan artifacts, which this runtime does not implement yet",
	"plan_entries":                   "needs plan artifacts, which this runtime does not implement yet",
	"workflow_diff":                  "needs workflow graph editing, which this runtime does not implement yet",
	"workflow_insert_node":           "needs workflow graph editing, which this runtime does not implement yet",
	"workflow_replace_node":          "needs workflow graph editing, which this runtime does not implement yet",
	"workflow_rewire":                "needs workflow graph editing, which this runtime does not implement yet",
	"workflow_set_auto_compact":      "needs workflow graph editing, which this runtime does not implement yet",
	"workflow_set_context_policy":    "needs workflow graph editing, which this runtime does not implement yet",
	"workflow_set_model_policy":      "needs workflow graph editing, which this runtime does not implement yet",
	"workflow_set_output_visibility": "needs workflow graph editing, which this runtime does not implement yet",
}
