package stdlib

// fn describes one function by its signature (see parseFunc).
type fn struct {
	sig       string
	doc       string
	results   int
	errResult bool
	// category overrides the category of its list (a base function the
	// AI layer registers: toolof).
	category string
}

type module struct {
	name     string
	doc      string
	scope    Scope
	category string
	// unimplemented says why this runtime provides no implementation.
	unimplemented string
	funcs         []fn
	values        []string
}

type value struct{ name, doc string }

// builtinFuncs are the base library's global functions (spec "Values",
// "Errors", "Modules", "Concurrency"; the Lua-style base library).
var builtinFuncs = []fn{
	{sig: "print(values...: any)", doc: "write the values to standard output, separated by tabs, ending with a newline"},
	{sig: "assert(value: any, message?: any, values...: any) -> any", doc: "raise message (or \"assertion failed!\") unless value is truthy; return its arguments"},
	{sig: "error(value?: any, level?: integer)", doc: "raise value as an error, unchanged"},
	{sig: "pcall(f: function, args...: any) -> ok: boolean, results: any", doc: "call f in protected mode: true and its results, or false and the error", results: 2},
	{sig: "xpcall(f: function, handler: function, args...: any) -> ok: boolean, results: any", doc: "pcall with a message handler applied to the error", results: 2},
	{sig: "type(value: any) -> string", doc: "the type name of value: nil, boolean, number, string, table, function, channel, ..."},
	{sig: "tostring(value: any) -> string", doc: "convert value to a string (honours __tostring)"},
	{sig: "tonumber(value: any, base?: integer) -> number?", doc: "convert value to a number, or nil"},
	{sig: "pairs(t: table) -> function, table, nil", doc: "iterate over every entry of a table"},
	{sig: "ipairs(t: table) -> function, table, integer", doc: "iterate over t[1], t[2], ... up to the first nil"},
	{sig: "next(t: table, key?: any) -> key: any, value: any", doc: "the entry of t after key"},
	{sig: "select(n: integer|string, values...: any) -> any", doc: "the values from the n-th on, or their count with \"#\""},
	{sig: "rawget(t: table, key: any) -> any", doc: "t[key] without metamethods"},
	{sig: "rawset(t: table, key: any, value: any) -> table", doc: "t[key] = value without metamethods"},
	{sig: "rawequal(a: any, b: any) -> boolean", doc: "a == b without metamethods"},
	{sig: "rawlen(v: table|string) -> integer", doc: "the length of v without metamethods"},
	{sig: "setmetatable(t: table, mt: table?) -> table", doc: "set the metatable of t; returns t"},
	{sig: "getmetatable(v: any) -> table?", doc: "the metatable of v, or its __metatable field"},
	{sig: "require(name: string) -> any", doc: "load a module once and return its value (package.loaded[name])"},
	{sig: "unpack(t: table, i?: integer, j?: integer) -> any", doc: "t[i], ..., t[j] as multiple values"},
	{sig: "spread(values...: any) -> any", doc: "expand a call's results in a non-final position"},
	{sig: "append(list: table, values...: any) -> table", doc: "append values to a list; returns the list"},
	{sig: "make(kind: any, size?: integer) -> channel", doc: "make(chan) or make(chan, n): a new channel"},
	{sig: "close(ch: channel)", doc: "close a channel"},
	{sig: "cap(ch: channel) -> integer", doc: "the buffer capacity of a channel"},
	{sig: "len(v: string|table|channel) -> integer", doc: "the length of a string, table or channel"},
	{sig: "load(chunk: string|function, name?: string, mode?: string, env?: table) -> fn: function?, err: string?", doc: "compile a chunk of source into a function", results: 2},
	{sig: "dofile(path?: string) -> any", doc: "run a source file and return its results"},
	{sig: "loadfile(path?: string, mode?: string, env?: table) -> fn: function?, err: string?", doc: "compile a source file into a function without running it", results: 2},
	{sig: "collectgarbage(opt?: string, arg?: integer) -> any", doc: "control the garbage collector"},
	{sig: "toolof(agent: agent, opts?: table) -> tool", doc: "wrap an agent as a tool (alias of llm.toolof)", category: "ai"},
	{sig: "sleep(seconds: number)", doc: "pause the current task"},
}

// values are predeclared non-function globals.
var values = []value{
	{"_G", "the global environment table"},
	{"_VERSION", "the runtime version string"},
	{"arg", "the script's command-line arguments"},
}

// modules are the standard-library and AI modules, available as globals
// (and through require with the same name).
var modules = []module{
	{name: "string", category: "text", doc: "string functions (byte strings; #s is the byte length)", funcs: []fn{
		{sig: "string.len(s: string) -> integer", doc: "the length of s in bytes"}, {sig: "string.sub(s: string, i: integer, j?: integer) -> string", doc: "the bytes of s from i to j (negative counts from the end)"}, {sig: "string.upper(s: string) -> string", doc: "s in upper case"}, {sig: "string.lower(s: string) -> string", doc: "s in lower case"},
		{sig: "string.find(s: string, pattern: string, init?: integer, plain?: boolean) -> start: integer?, end: integer?", doc: "the first match of pattern in s from init: its start and end, then the captures; nil when none"}, {sig: "string.match(s: string, pattern: string, init?: integer) -> string?", doc: "the captures of the first match of pattern (the whole match without captures), or nil"},
		{sig: "string.gmatch(s: string, pattern: string) -> function", doc: "an iterator over the matches of pattern in s"}, {sig: "string.gsub(s: string, pattern: string, repl: string|table|function, n?: integer) -> result: string, count: integer", doc: "s with the matches of pattern replaced (at most n), and the number replaced"},
		{sig: "string.format(format: string, values...: any) -> string", doc: "the values formatted by the %-directives of format (%d %s %q %f %x ...)"}, {sig: "string.rep(s: string, n: integer, sep?: string) -> string", doc: "n copies of s, separated by sep"}, {sig: "string.reverse(s: string) -> string", doc: "the bytes of s in reverse order"},
		{sig: "string.byte(s: string, i?: integer, j?: integer) -> integer", doc: "the byte values of s[i..j]"}, {sig: "string.char(codes...: integer) -> string", doc: "the string of the given byte values"},
		{sig: "string.split(*)"}, {sig: "string.trim(*)"}, {sig: "string.join(*)"}, {sig: "string.contains(*)"},
		{sig: "string.has_prefix(*)"}, {sig: "string.has_suffix(*)"}, {sig: "string.starts_with(*)"},
		{sig: "string.ends_with(*)"}, {sig: "string.replace(*)"},
	}},
	{name: "table", category: "collections", doc: "table and list functions", funcs: []fn{
		{sig: "table.insert(t: table, pos_or_value: any, value?: any)", doc: "insert a value at the end of t, or at a position"}, {sig: "table.remove(t: table, pos?: integer) -> any", doc: "remove and return t[pos] (the last element by default)"},
		{sig: "table.concat(t: table, sep?: string, i?: integer, j?: integer) -> string", doc: "the strings or numbers t[i..j] joined by sep"}, {sig: "table.sort(t: table, less?: function)", doc: "sort the list t in place, by < or by less(a, b)"}, {sig: "table.unpack(t: table, i?: integer, j?: integer) -> any", doc: "t[i], ..., t[j] as multiple values"},
		{sig: "table.pack(values...: any) -> table", doc: "the values as a list with n set to their count"}, {sig: "table.keys(*)"}, {sig: "table.values(*)"}, {sig: "table.copy(*)"},
	}},
	{name: "math", category: "math", doc: "mathematical functions", values: []string{"pi", "huge", "maxinteger", "mininteger"}, funcs: []fn{
		{sig: "math.floor(x: number) -> integer", doc: "the largest integer not above x"}, {sig: "math.ceil(x: number) -> integer", doc: "the smallest integer not below x"}, {sig: "math.abs(x: number) -> number", doc: "the absolute value of x"}, {sig: "math.sqrt(x: number) -> number", doc: "the square root of x"},
		{sig: "math.max(x: number, values...: number) -> number", doc: "the largest argument"}, {sig: "math.min(x: number, values...: number) -> number", doc: "the smallest argument"}, {sig: "math.fmod(x, y)"},
		{sig: "math.modf(x)"}, {sig: "math.exp(x)"}, {sig: "math.log(x, base?)"}, {sig: "math.sin(x)"},
		{sig: "math.cos(x)"}, {sig: "math.tan(x)"}, {sig: "math.asin(x)"}, {sig: "math.acos(x)"},
		{sig: "math.atan(y, x?)"}, {sig: "math.random(m?: integer, n?: integer) -> number", doc: "a random float in [0,1), or integer in [1,m] or [m,n]"}, {sig: "math.randomseed(x?, y?)"},
		{sig: "math.type(x)"}, {sig: "math.tointeger(x)"}, {sig: "math.ult(m, n)"}, {sig: "math.pow(*)"},
		{sig: "math.round(*)"}, {sig: "math.deg(x)"}, {sig: "math.rad(x)"}, {sig: "math.frexp(x)"},
		{sig: "math.ldexp(m, e)"},
	}},
	{name: "os", category: "os", doc: "operating-system access (subject to the host's capability policy)", funcs: []fn{
		{sig: "os.getenv(name: string) -> string?", doc: "the value of the environment variable name, or nil when it is unset (subject to the host's capability policy)"}, {sig: "os.time(t?: table) -> integer", doc: "the current time, or the time of the date table t, in seconds since the epoch"}, {sig: "os.clock() -> number", doc: "CPU seconds used by the program"}, {sig: "os.date(format?: string, time?: integer) -> string|table", doc: "the time formatted by format (strftime; \"*t\" gives a table)"},
		{sig: "os.exit(code?: integer|boolean)", doc: "end the program with an exit status"}, {sig: "os.remove(*)"}, {sig: "os.rename(*)"}, {sig: "os.tmpname(*)"},
		{sig: "os.difftime(*)"}, {sig: "os.setenv(*)"},
	}},
	{name: "io", category: "io", doc: "input and output"},
	{name: "utf8", category: "text", doc: "UTF-8 helpers over byte strings"},
	{name: "coroutine", category: "concurrency", doc: "coroutines"},
	{name: "package", category: "base", doc: "module loading state (package.loaded)", values: []string{"loaded", "path", "preload"}},
	{name: "json", category: "encoding", doc: "JSON encoding and decoding", funcs: []fn{
		{sig: "json.encode(value: any, opts?: table) -> text: string?, err: string?", doc: "value as JSON text ({indent: \"  \"} to indent)", results: 2}, {sig: "json.decode(text: string) -> value: any, err: string?", doc: "the value of the JSON text, or nil and the error", results: 2},
	}},
	{name: "time", category: "os", doc: "clocks, durations and formatting"},
	{name: "fs", category: "io", doc: "file system (subject to the host's capability policy)"},
	{name: "path", category: "io", doc: "file path manipulation"},
	{name: "url", category: "net", doc: "URL parsing and escaping"},
	{name: "regexp", category: "text", doc: "regular expressions"},
	{name: "base64", category: "encoding", doc: "base64 encoding", funcs: []fn{
		{sig: "base64.encode(s: string) -> string", doc: "s in standard base64"}, {sig: "base64.decode(s)", results: 2},
		{sig: "base64.urlEncode(s)"}, {sig: "base64.urlDecode(s)", results: 2},
	}},
	{name: "hash", category: "encoding", doc: "hash functions", funcs: []fn{
		{sig: "hash.crc32(s)"}, {sig: "hash.md5(s)"}, {sig: "hash.sha1(s)"}, {sig: "hash.sha256(s: string) -> string", doc: "the SHA-256 digest of s in hex"},
		{sig: "hash.sha512(s)"}, {sig: "hash.hmacSHA256(key, message)"},
	}},
	{name: "bit32", category: "math", doc: "32-bit bitwise operations"},
	{name: "bits", category: "math", doc: "bit manipulation"},
	{name: "rand", category: "math", doc: "random numbers"},
	{name: "encoding", category: "encoding", doc: "text and binary encodings"},
	{name: "compress", category: "encoding", doc: "compression"},
	{name: "container", category: "collections", doc: "containers (heaps, lists, sets)"},
	{name: "log", category: "base", doc: "structured logging"},
	{name: "csv", category: "encoding", doc: "CSV reading and writing"},
	{name: "uuid", category: "encoding", doc: "UUIDs"},
	{name: "sort", category: "collections", doc: "sorting"},
	{name: "testkit", category: "base", doc: "test helpers"},
	{name: "http", category: "net", doc: "HTTP client and server (subject to the host's capability policy)"},
	{name: "serve", category: "net", unimplemented: "the HTTP server host module is not provided by this runtime", doc: "HTTP server apps from a route table (upstream's host module beside http; subject to the host's capability policy)", funcs: []fn{
		{sig: "serve.app(config)", doc: "an HTTP app serving config.routes ({method, path, handler}) on config.listen"},
	}},
	{name: "crypto", category: "encoding", doc: "cryptography"},
	{name: "debug", category: "base", doc: "debugging helpers"},
	{name: "db", category: "data", unimplemented: "needs a database driver, which this runtime does not provide", doc: "database access"},
	{name: "data", category: "data", doc: "data frames"},
	{name: "linalg", category: "math", unimplemented: "not provided by this runtime", doc: "linear algebra"},
	{name: "glob", category: "io", doc: "file-name patterns"},
	{name: "context", category: "concurrency", doc: "cancellation contexts"},
	{name: "q", category: "dialect", doc: "the q dialect's helpers (q.sql, q.query)"},
	{name: "array", category: "collections", doc: "dense typed arrays (array.i64, array.f64, ...)"},
	{name: "soa", category: "collections", doc: "structure-of-arrays frames (soa.zip, ...)"},
	{name: "script", category: "base", doc: "compiling and running Leia source at run time (script.compile)"},
	{name: "binary", category: "encoding", doc: "binary encoding and decoding"},
	{name: "bytes", category: "text", doc: "byte buffers"},
	{name: "color", category: "text", doc: "terminal colours"},
	{name: "yaml", category: "encoding", unimplemented: "not provided by this runtime", doc: "YAML encoding and decoding"},
	{name: "xlsx", category: "data", unimplemented: "not provided by this runtime", doc: "spreadsheets"},
	{name: "net", category: "net", doc: "network access (subject to the host's capability policy)"},
	{name: "matrix", category: "math", doc: "dense matrices (matrix.dense, getf, setf, ...)"},
	{name: "process", category: "os", doc: "processes (subject to the host's capability policy)"},
	{name: "sync", category: "concurrency", doc: "in-process synchronization primitives"},
	{name: "vec", category: "collections", doc: "numeric vectors"},
	{name: "dialect", category: "dialect", doc: "the tagged-dialect runtime: dialect.eval, eval_block, eval_raw, interpolate, register", funcs: []fn{
		{sig: "dialect.eval(tag: string, body: string|table, opts?: table) -> value: any, err: table?", doc: "evaluate text (or encode a table) with the dialect tag (json, jsonl, ini, env, headers, cookie, duration, html_escape, template, ...)", results: 2}, {sig: "dialect.eval_block(tag, fields, opts?)", results: 2},
		{sig: "dialect.eval_raw(tag, fn, opts?)", results: 2}, {sig: "dialect.interpolate(tag, parts, values)"},
	}},
	{name: "llm", category: "ai", doc: "the AI runtime: models, tools, turns, agents, budgets, trace and replay", funcs: []fn{
		{sig: "llm.register_models(models: table)", doc: "register model aliases and provider configs"},
		{sig: "llm.models(models)"},
		{sig: "llm.tool(name: string, fn: function, opts?: table) -> tool", doc: "a tool the model may call: its name, implementation and {description, params, requires}"},
		{sig: "llm.turn(request: table) -> result: table?, err: error?", doc: "one model turn: request {model, messages or user, system, tools, output, max_tokens, ...}; the result has text, calls, usage; err is an error value, never raised", results: 2, errResult: true},
		{sig: "llm.agent(name: string, config: table, flow?: function, opts?: table) -> agent", doc: "an agent: a name, its config (model, system, tools, budget, ...) and an optional flow function"},
		{sig: "llm.agent_defaults(defaults)"},
		{sig: "llm.system(text: string) -> table", doc: "a system message"}, {sig: "llm.user(text: string) -> table", doc: "a user message"}, {sig: "llm.assistant(text: string) -> table", doc: "an assistant message"},
		{sig: "llm.assistant_call(call)"}, {sig: "llm.tool_result(id, value)"}, {sig: "llm.tool_error(id, message)"},
		{sig: "llm.dispatch(call: table, tools: table) -> result: any, err: error?", doc: "run the tool a model's call names, checking its capabilities", results: 2, errResult: true},
		{sig: "llm.tool_caps(tools)"}, {sig: "llm.check_tools(tools, allowed)", results: 2},
		{sig: "llm.toolof(agent, opts?)"}, {sig: "llm.agent_as_tool(agent, opts?)"},
		{sig: "llm.handoff(*)"}, {sig: "llm.delegate(*)"},
		{sig: "llm.react(*)", results: 2, errResult: true},
		{sig: "llm.run_agent(*)", results: 2, errResult: true},
		{sig: "llm.with_budget(budget, fn)"},
		{sig: "llm.validate_output(value, shape)", results: 2},
		{sig: "llm.schema(*)"}, {sig: "llm.schema_info(*)"}, {sig: "llm.output_schema(*)"},
		{sig: "llm.workflow(*)"}, {sig: "llm.step(*)"}, {sig: "llm.stage(*)"}, {sig: "llm.workflow_graph(*)"},
		{sig: "llm.sections(*)", results: 2, errResult: true}, {sig: "llm.generate_sections(*)", results: 2, errResult: true},
		{sig: "llm.doc(*)"}, {sig: "llm.document(*)"}, {sig: "llm.collection(*)"}, {sig: "llm.docs(*)"},
		{sig: "llm.retrieve(*)"}, {sig: "llm.search(*)"}, {sig: "llm.context(*)"}, {sig: "llm.evidence(*)"},
		{sig: "llm.tool_info(*)"}, {sig: "llm.tool_schema(*)"}, {sig: "llm.validate_tools(*)", results: 2},
		{sig: "llm.tool_registry(*)"}, {sig: "llm.validate_tool_registry(*)"},
		{sig: "llm.tool_invocation_trace(*)"}, {sig: "llm.tool_outcome(*)"}, {sig: "llm.tool_outcome_event(*)"},
		{sig: "llm.policy(*)"}, {sig: "llm.check_policy(*)", results: 2}, {sig: "llm.policy_outcome(*)"},
		{sig: "llm.approval_trace(*)"}, {sig: "llm.budget_outcome(*)"},
		{sig: "llm.agent_state_checkpoint(*)"},
		{sig: "llm.replay_record(*)", results: 2}, {sig: "llm.replay_fixture(*)"}, {sig: "llm.replay_index(*)"},
		{sig: "llm.trace_event(*)"}, {sig: "llm.trace_envelope(*)"}, {sig: "llm.trace_summary(*)"},
		{sig: "llm.trace_assert(*)"}, {sig: "llm.fixture_index(*)"}, {sig: "llm.model_io_envelope(*)"},
		{sig: "llm.report_artifact_contract(*)"},
		// Part-3 helper families (runtime/leia/ai, issue 20): workflows, planning graphs, retrieval
		// and evidence, outcomes and their trace events, envelopes, checkpoints, tool contracts,
		// replay records, fixture indexes and package contracts; camelCase aliases.
		{sig: "llm.replayFixture(*)", results: 2}, {sig: "llm.replayIndex(*)", results: 2}, {sig: "llm.replayRecord(*)", results: 2},
		{sig: "llm.replayTraceEvent(*)"}, {sig: "llm.traceAssert(*)"}, {sig: "llm.traceEnvelope(*)"},
		{sig: "llm.traceEvent(*)"}, {sig: "llm.traceSummary(*)"},
		{sig: "llm.agentStateCheckpoint(*)"}, {sig: "llm.agentStateCheckpointEvent(*)"}, {sig: "llm.agentStateCheckpointTraceEvent(*)"},
		{sig: "llm.agent_state_checkpoint_event(*)"}, {sig: "llm.agent_state_checkpoint_trace_event(*)"}, {sig: "llm.approvalTrace(*)"},
		{sig: "llm.approvalTraceEvent(*)"}, {sig: "llm.approval_trace_event(*)"}, {sig: "llm.budgetOutcome(*)"},
		{sig: "llm.budgetOutcomeEvent(*)"}, {sig: "llm.budgetOutcomeTraceEvent(*)"}, {sig: "llm.budget_outcome_event(*)"},
		{sig: "llm.budget_outcome_trace_event(*)"}, {sig: "llm.checkPolicy(*)", results: 2}, {sig: "llm.chunk(*)"},
		{sig: "llm.chunks(*)"}, {sig: "llm.citation(*)"}, {sig: "llm.citationOutcome(*)"},
		{sig: "llm.citationOutcomeEvent(*)"}, {sig: "llm.citation_outcome(*)"}, {sig: "llm.citation_outcome_event(*)"},
		{sig: "llm.cite(*)"}, {sig: "llm.corpus(*)"}, {sig: "llm.corpus_add(*)"},
		{sig: "llm.corpus_reset(*)"}, {sig: "llm.evidenceOutcome(*)"}, {sig: "llm.evidenceOutcomeEvent(*)"},
		{sig: "llm.evidenceOutcomeTraceEvent(*)"}, {sig: "llm.evidence_outcome(*)"}, {sig: "llm.evidence_outcome_event(*)"},
		{sig: "llm.evidence_outcome_trace_event(*)"}, {sig: "llm.fixtureIndex(*)"}, {sig: "llm.memoryOutcome(*)"},
		{sig: "llm.memoryOutcomeEvent(*)"}, {sig: "llm.memoryOutcomeTraceEvent(*)"}, {sig: "llm.memory_outcome(*)"},
		{sig: "llm.memory_outcome_event(*)"}, {sig: "llm.memory_outcome_trace_event(*)"}, {sig: "llm.modelCallEnvelope(*)"},
		{sig: "llm.modelIOEnvelope(*)"}, {sig: "llm.model_call_envelope(*)"}, {sig: "llm.outputSchema(*)"},
		{sig: "llm.planNode(*)"}, {sig: "llm.plan_node(*)"}, {sig: "llm.planningGraph(*)"},
		{sig: "llm.planningTrace(*)"}, {sig: "llm.planning_graph(*)"}, {sig: "llm.planning_trace(*)"},
		{sig: "llm.policyOutcome(*)"}, {sig: "llm.policyOutcomeEvent(*)"}, {sig: "llm.policyOutcomeTraceEvent(*)"},
		{sig: "llm.policy_outcome_event(*)"}, {sig: "llm.policy_outcome_trace_event(*)"}, {sig: "llm.providerFreePackageContract(*)"},
		{sig: "llm.provider_free_package_contract(*)"}, {sig: "llm.replayApiRecord(*)", results: 2}, {sig: "llm.replayArtifactRecord(*)", results: 2},
		{sig: "llm.replayHttpRecord(*)", results: 2},
		{sig: "llm.replay_api_record(*)", results: 2},
		{sig: "llm.replay_artifact_record(*)", results: 2}, {sig: "llm.replay_http_record(*)", results: 2}, {sig: "llm.replay_trace_event(*)"},
		{sig: "llm.reportArtifactContract(*)"}, {sig: "llm.retrievalOutcome(*)"}, {sig: "llm.retrievalOutcomeEvent(*)"},
		{sig: "llm.retrieval_outcome(*)"}, {sig: "llm.retrieval_outcome_event(*)"}, {sig: "llm.schemaInfo(*)"},
		{sig: "llm.stateCheckpoint(*)"}, {sig: "llm.state_checkpoint(*)"}, {sig: "llm.toolInfo(*)"},
		{sig: "llm.toolInvocationTrace(*)"}, {sig: "llm.toolOutcome(*)"}, {sig: "llm.toolOutcomeEvent(*)"},
		{sig: "llm.toolOutcomeTraceEvent(*)"}, {sig: "llm.toolRegistry(*)"}, {sig: "llm.toolSchema(*)"},
		{sig: "llm.tool_outcome_trace_event(*)"},
		{sig: "llm.turnEnvelope(*)"},
		{sig: "llm.turn_envelope(*)"}, {sig: "llm.validateFixtureIndex(*)"}, {sig: "llm.validateOutput(*)", results: 2},
		{sig: "llm.validatePackageContract(*)"}, {sig: "llm.validatePlanningGraph(*)"}, {sig: "llm.validateToolRegistry(*)"},
		{sig: "llm.validateTools(*)", results: 2}, {sig: "llm.validate_fixture_index(*)"}, {sig: "llm.validate_package_contract(*)"},
		{sig: "llm.validate_planning_graph(*)"},
	}, values: []string{"config"}},
	{name: "msg", category: "ai", doc: "message constructors: msg.system, user, assistant, assistant_call, tool_result, tool_error", funcs: []fn{
		{sig: "msg.system(text: string) -> table", doc: "a system message"}, {sig: "msg.user(text: string) -> table", doc: "a user message"}, {sig: "msg.assistant(text: string) -> table", doc: "an assistant message"},
		{sig: "msg.assistant_call(call)"}, {sig: "msg.tool_result(id, value)"}, {sig: "msg.tool_error(id, message)"},
		{sig: "msg.assistantCall(call)"}, {sig: "msg.toolResult(id, value)"}, {sig: "msg.toolError(id, message)"},
	}},
	{name: "history", category: "ai", doc: "message-history queries: find, last, find_all, append", funcs: []fn{
		{sig: "history.find(history, filter)", results: 2}, {sig: "history.last(history, filter)", results: 2},
		{sig: "history.find_all(history, filter)"}, {sig: "history.append(history, message)"},
	}},
	{name: "chat", category: "ai", doc: "chat helpers (chat.merge, chat.window, chat.tokens)", funcs: []fn{{sig: "chat.merge(*)"}, {sig: "chat.window(messages, n)"}, {sig: "chat.tokens(*)"}}},
	{name: "loop", category: "ai", doc: "agent loops: react, simple, plan_execute, reflect, snapshot, resume", funcs: []fn{
		{sig: "loop.react(*)", results: 2, errResult: true}, {sig: "loop.simple(*)", results: 2, errResult: true},
		{sig: "loop.plan_execute(*)", results: 2, errResult: true}, {sig: "loop.reflect(*)", results: 2, errResult: true},
		{sig: "loop.snapshot(*)"}, {sig: "loop.resume(*)", results: 2},
	}},
	{name: "eval", category: "evaluate", doc: "the evaluation harness (only inside evaluate blocks run by the harness)", scope: EvaluateOnly, funcs: []fn{
		{sig: "eval.case(id: string, fn: function) -> result: any, err: error?", doc: "run one evaluation case and record its outcome", results: 2}, {sig: "eval.metric(name: string, value: number|boolean)", doc: "record a metric of the running evaluate block"}, {sig: "eval.load_jsonl(path: string) -> table", doc: "the records of a JSON-lines dataset file, relative to the program's folder, as a list of tables"},
		{sig: "eval.skip_if(condition: any, reason?: string)", doc: "skip the rest of the block when condition holds"}, {sig: "eval.fail_if(condition: any, message?: string)", doc: "fail the block when condition holds"},
		{sig: "eval.usage() -> table", doc: "the model usage of the block so far (turns, tokens, cost)"}, {sig: "eval.budget(limits: table)", doc: "bound the block's model usage (turns, tokens, cost)"}, {sig: "eval.judge(opts: table) -> verdict: table?, err: error?", doc: "ask a model to grade an answer against a rubric", results: 2, errResult: true},
	}},
}
