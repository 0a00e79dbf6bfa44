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
	{sig: "pcall(f: any, args...: any) -> ok: boolean, results: any", doc: "call f in protected mode: true and its results, or false and the error", results: 2},
	{sig: "xpcall(f: any, handler: any, args...: any) -> ok: boolean, results: any", doc: "pcall with a message handler applied to the error", results: 2},
	{sig: "type(value: any) -> string", doc: "the type name of value: nil, boolean, number, string, table, function, channel, ..."},
	{sig: "tostring(value: any) -> string", doc: "convert value to a string (honours __tostring)"},
	{sig: "tonumber(value: any, base?: integer) -> number?", doc: "convert value to a number, or nil"},
	{sig: "pairs(t: table) -> function, table, nil", doc: "iterate over every entry of a table"},
	{sig: "ipairs(t: any) -> function, table, integer", doc: "iterate over t[1], t[2], ... up to the first nil"},
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
	{sig: "load(chunk: string|function, name?: any, mode?: any, env?: any) -> fn: function?, err: string?", doc: "compile a chunk of source into a function", results: 2},
	{sig: "dofile(path?: string) -> any", doc: "run a source file and return its results"},
	{sig: "loadfile(path?: any, mode?: any, env?: any) -> fn: function?, err: string?", doc: "compile a source file into a function without running it", results: 2},
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
		{sig: "string.len(s: string) -> integer", doc: "the length of s in bytes"}, {sig: "string.sub(s: string, i?: integer, j?: integer) -> string", doc: "the bytes of s from i to j (negative counts from the end)"}, {sig: "string.upper(s: string) -> string", doc: "s in upper case"}, {sig: "string.lower(s: string) -> string", doc: "s in lower case"},
		{sig: "string.find(s: string, pattern: string, init?: integer, plain?: boolean) -> start: integer?, end: integer?", doc: "the first match of pattern in s from init: its start and end, then the captures; nil when none"}, {sig: "string.match(s: string, pattern: string, init?: integer) -> string?", doc: "the captures of the first match of pattern (the whole match without captures), or nil"},
		{sig: "string.gmatch(s: string, pattern: string) -> function", doc: "an iterator over the matches of pattern in s"}, {sig: "string.gsub(s: string, pattern: string, repl: string|table|function, n?: integer) -> result: string, count: integer", doc: "s with the matches of pattern replaced (at most n), and the number replaced"},
		{sig: "string.format(format: string, values...: any) -> string", doc: "the values formatted by the %-directives of format (%d %s %q %f %x ...)"}, {sig: "string.rep(s: string, n: integer, sep?: string) -> string", doc: "n copies of s, separated by sep"}, {sig: "string.reverse(s: string) -> string", doc: "the bytes of s in reverse order"},
		{sig: "string.byte(s: string, i?: integer, j?: integer) -> integer", doc: "the byte values of s[i..j]"}, {sig: "string.char(codes...: integer) -> string", doc: "the string of the given byte values"},
		{sig: "string.split(s: string, sep?: string) -> table", doc: "s split around sep (white space by default)"}, {sig: "string.trim(s: string, chars?: any) -> string", doc: "s without surrounding white space (or chars)"}, {sig: "string.join(list: table, sep?: string) -> string", doc: "the elements joined by sep"}, {sig: "string.contains(s: string, sub: string) -> boolean", doc: "whether s contains sub"},
		{sig: "string.has_prefix(s: string, prefix: string) -> boolean", doc: "whether s starts with prefix"}, {sig: "string.has_suffix(s: string, suffix: string) -> boolean", doc: "whether s ends with suffix"}, {sig: "string.starts_with(s: string, prefix: string) -> boolean", doc: "whether s starts with prefix"},
		{sig: "string.ends_with(s: string, suffix: string) -> boolean", doc: "whether s ends with suffix"}, {sig: "string.replace(s: string, old: string, new: string, n?: integer) -> string", doc: "s with old replaced by new (at most n times)"},
	}},
	{name: "table", category: "collections", doc: "table and list functions", funcs: []fn{
		{sig: "table.insert(t: table, pos_or_value: any, value?: any)", doc: "insert a value at the end of t, or at a position"}, {sig: "table.remove(t: table, pos?: integer) -> any", doc: "remove and return t[pos] (the last element by default)"},
		{sig: "table.concat(t: table, sep?: string, i?: integer, j?: integer) -> string", doc: "the strings or numbers t[i..j] joined by sep"}, {sig: "table.sort(t: table, less?: function)", doc: "sort the list t in place, by < or by less(a, b)"}, {sig: "table.unpack(t: table, i?: integer, j?: integer) -> any", doc: "t[i], ..., t[j] as multiple values"},
		{sig: "table.pack(values...: any) -> table", doc: "the values as a list with n set to their count"}, {sig: "table.keys(t: table) -> table", doc: "the keys of t"}, {sig: "table.values(t: table) -> table", doc: "the values of t"}, {sig: "table.copy(t: table, deep?: boolean) -> table", doc: "a copy of t"},
	}},
	{name: "math", category: "math", doc: "mathematical functions", values: []string{"pi", "huge", "maxinteger", "mininteger"}, funcs: []fn{
		{sig: "math.floor(x: number) -> integer", doc: "the largest integer not above x"}, {sig: "math.ceil(x: number) -> integer", doc: "the smallest integer not below x"}, {sig: "math.abs(x: number) -> number", doc: "the absolute value of x"}, {sig: "math.sqrt(x: number) -> number", doc: "the square root of x"},
		{sig: "math.max(x: number, values...: number) -> number", doc: "the largest argument"}, {sig: "math.min(x: number, values...: number) -> number", doc: "the smallest argument"}, {sig: "math.fmod(x: number, y: number) -> number", doc: "remainder of x / y towards zero"},
		{sig: "math.modf(x: number) -> integral: number, fraction: number", doc: "integral and fractional parts"}, {sig: "math.exp(x: number) -> number", doc: "e to the x"}, {sig: "math.log(x: number, base?: number) -> number", doc: "logarithm"}, {sig: "math.sin(x: number) -> number", doc: "sine"},
		{sig: "math.cos(x: number) -> number", doc: "cosine"}, {sig: "math.tan(x: number) -> number", doc: "tangent"}, {sig: "math.asin(x: number) -> number", doc: "arc sine"}, {sig: "math.acos(x: number) -> number", doc: "arc cosine"},
		{sig: "math.atan(y: number, x?: number) -> number", doc: "arc tangent of y/x"}, {sig: "math.random(m?: integer, n?: integer) -> number", doc: "a random float in [0,1), or integer in [1,m] or [m,n]"}, {sig: "math.randomseed(x?: number, y?: number) -> integer, integer", doc: "seed the generator"},
		{sig: "math.type(x: any) -> string?", doc: "\"integer\", \"float\", or nil for a non-number"}, {sig: "math.tointeger(x: any) -> integer?", doc: "x as an integer, or nil"}, {sig: "math.ult(m: integer, n: integer) -> boolean", doc: "unsigned m < n"}, {sig: "math.pow(x: number, y: number) -> number", doc: "x to the y"},
		{sig: "math.round(x: number, places?: integer) -> number", doc: "x rounded half away from zero"}, {sig: "math.deg(x: number) -> number", doc: "radians to degrees"}, {sig: "math.rad(x: number) -> number", doc: "degrees to radians"}, {sig: "math.frexp(x: number) -> m: number, e: integer", doc: "mantissa and exponent"},
		{sig: "math.ldexp(m: number, e: integer) -> number", doc: "m times 2 to the e"},
	}},
	{name: "os", category: "os", doc: "operating-system access (subject to the host's capability policy)", funcs: []fn{
		{sig: "os.getenv(name: string) -> string?", doc: "the value of the environment variable name, or nil when it is unset (subject to the host's capability policy)"}, {sig: "os.time(t?: any) -> integer", doc: "the current time, or the time of the date table t, in seconds since the epoch"}, {sig: "os.clock() -> number", doc: "CPU seconds used by the program"}, {sig: "os.date(format?: string, time?: integer) -> string|table", doc: "the time formatted by format (strftime; \"*t\" gives a table)"},
		{sig: "os.exit(code?: integer|boolean)", doc: "end the program with an exit status"}, {sig: "os.remove(path: string) -> ok: boolean?, err: string?", doc: "remove a file"}, {sig: "os.rename(from: string, to: string) -> ok: boolean?, err: string?", doc: "rename a file"}, {sig: "os.tmpname() -> string", doc: "a name for a temporary file"},
		{sig: "os.difftime(t2: number, t1?: number) -> number", doc: "t2 - t1 in seconds"}, {sig: "os.setenv(name: string, value?: string) -> ok: boolean?, err: string?", doc: "set an environment variable"},
	}},
	{name: "io", category: "io", doc: "input and output"},
	{name: "utf8", category: "text", doc: "UTF-8 helpers over byte strings"},
	{name: "coroutine", category: "concurrency", doc: "coroutines"},
	{name: "package", category: "base", doc: "module loading state (package.loaded)", values: []string{"loaded", "path", "preload"}},
	{name: "json", category: "encoding", doc: "JSON encoding and decoding", funcs: []fn{
		{sig: "json.encode(value: any, opts?: any) -> text: string?, err: string?", doc: "value as JSON text ({indent: \"  \"} to indent)", results: 2}, {sig: "json.decode(text: string) -> value: any, err: string?", doc: "the value of the JSON text, or nil and the error", results: 2},
	}},
	{name: "time", category: "os", doc: "clocks, durations and formatting"},
	{name: "fs", category: "io", doc: "file system (subject to the host's capability policy)"},
	{name: "path", category: "io", doc: "file path manipulation"},
	{name: "url", category: "net", doc: "URL parsing and escaping"},
	{name: "regexp", category: "text", doc: "regular expressions"},
	{name: "base64", category: "encoding", doc: "base64 encoding", funcs: []fn{
		{sig: "base64.encode(s: string) -> string", doc: "s in standard base64"}, {sig: "base64.decode(s: string) -> text: string?, err: string?", doc: "decode standard base64", results: 2},
		{sig: "base64.urlEncode(s: string) -> string", doc: "s in URL-safe base64"}, {sig: "base64.urlDecode(s: string) -> text: string?, err: string?", doc: "decode URL-safe base64", results: 2},
	}},
	{name: "hash", category: "encoding", doc: "hash functions", funcs: []fn{
		{sig: "hash.crc32(s: string) -> integer", doc: "the CRC-32 checksum"}, {sig: "hash.md5(s: string) -> string", doc: "MD5 in hex"}, {sig: "hash.sha1(s: string) -> string", doc: "SHA-1 in hex"}, {sig: "hash.sha256(s: string) -> string", doc: "the SHA-256 digest of s in hex"},
		{sig: "hash.sha512(s: string) -> string", doc: "SHA-512 in hex"}, {sig: "hash.hmacSHA256(key: string, message: string) -> string", doc: "HMAC-SHA256 in hex"},
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
		{sig: "serve.app(config: table) -> table", doc: "an HTTP app serving config.routes ({method, path, handler}) on config.listen"},
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
		{sig: "dialect.eval(tag: string, body: string|table, opts?: table) -> value: any, err: table?", doc: "evaluate text (or encode a table) with the dialect tag (json, jsonl, ini, env, headers, cookie, duration, html_escape, template, ...)", results: 2}, {sig: "dialect.eval_block(tag: string, fields: table, opts?: table) -> value: any, err: table?", doc: "evaluate a field block with the dialect tag", results: 2},
		{sig: "dialect.eval_raw(tag: string, body?: any, opts?: any) -> value: any, err: table?", doc: "evaluate a raw body with the dialect tag", results: 2}, {sig: "dialect.interpolate(tag: string, parts: table, values?: table) -> string", doc: "build a dialect's text from literal pieces and values"},
	}},
	{name: "llm", category: "ai", doc: "the AI runtime: models, tools, turns, agents, budgets, trace and replay", funcs: []fn{
		{sig: "llm.register_models(models: table)", doc: "register model aliases and provider configs"},
		{sig: "llm.models(models: table) -> ok: boolean, err: string?", doc: "alias of register_models"},
		{sig: "llm.tool(name: string, fn: function, opts?: any) -> tool", doc: "a tool the model may call: its name, implementation and {description, params, requires}"},
		{sig: "llm.turn(request: table) -> result: table?, err: error?", doc: "one model turn: request {model, messages or user, system, tools, output, max_tokens, ...}; the result has text, calls, usage; err is an error value, never raised", results: 2, errResult: true},
		{sig: "llm.agent(name: string, config: table|function, flow?: function, opts?: table) -> agent", doc: "an agent: a name, its config (model, system, tools, budget, ...) and an optional flow function"},
		{sig: "llm.agent_defaults(defaults: table) -> ok: boolean, err: string?", doc: "set defaults for later agents"},
		{sig: "llm.system(text: any) -> table", doc: "a system message"}, {sig: "llm.user(text: any) -> table", doc: "a user message"}, {sig: "llm.assistant(text: any) -> table", doc: "an assistant message"},
		{sig: "llm.assistant_call(call: table) -> table", doc: "an assistant message carrying tool calls"}, {sig: "llm.tool_result(id: any, value: any) -> table", doc: "a tool-result message"}, {sig: "llm.tool_error(id: any, message: any) -> table", doc: "a tool-error message"},
		{sig: "llm.dispatch(call: table, tools: table) -> result: any, err: error?", doc: "run the tool a model's call names, checking its capabilities", results: 2, errResult: true},
		{sig: "llm.tool_caps(tools: table) -> table", doc: "the capabilities the tools require"}, {sig: "llm.check_tools(tools: table, allowed: table) -> ok: boolean, err: string?", doc: "whether the tools' capabilities are allowed", results: 2},
		{sig: "llm.toolof(agent: function, opts?: table) -> table", doc: "wrap an agent as a tool"}, {sig: "llm.agent_as_tool(agent: function, opts?: table) -> table", doc: "alias of toolof"},
		{sig: "llm.handoff(agent: function, opts?: table) -> table", doc: "a tool that hands the conversation to an agent"}, {sig: "llm.delegate(agent: function, opts?: table) -> table", doc: "a tool that delegates a task to an agent"},
		{sig: "llm.react(opts: table) -> result: table?, err: table?", doc: "run a ReAct agent loop", results: 2, errResult: true},
		{sig: "llm.run_agent(opts: table) -> result: table?, err: table?", doc: "run an agent loop", results: 2, errResult: true},
		{sig: "llm.with_budget(budget: table, fn: function) -> any", doc: "run fn under a usage budget"},
		{sig: "llm.validate_output(value: any, shape: any) -> ok: boolean, err: string?", doc: "validate a value against an output shape", results: 2},
		{sig: "llm.schema(spec: any) -> table", doc: "a schema from a spec"}, {sig: "llm.schema_info(spec: any) -> table", doc: "a description of a schema"}, {sig: "llm.output_schema(spec: any, schema?: any) -> table", doc: "the output schema of a spec"},
		{sig: "llm.workflow(steps: table, opts?: table) -> table", doc: "a workflow from steps"}, {sig: "llm.step(name: string, fn: function, opts?: any) -> table", doc: "a workflow step"}, {sig: "llm.stage(name: string, fn: function, opts?: any) -> table", doc: "a workflow stage"}, {sig: "llm.workflow_graph(config: table, fixtures?: table) -> table", doc: "the graph of a workflow"},
		{sig: "llm.sections(opts: table) -> result: table?, err: table?", doc: "generate a document by sections", results: 2, errResult: true}, {sig: "llm.generate_sections(opts: table) -> result: table?, err: table?", doc: "alias of sections", results: 2, errResult: true},
		{sig: "llm.doc(value: any, opts?: any) -> table", doc: "a document"}, {sig: "llm.document(value: any, opts?: any) -> table", doc: "alias of doc"}, {sig: "llm.collection(docs: any, opts?: any) -> table", doc: "a document collection"}, {sig: "llm.docs(docs: any, opts?: any) -> table", doc: "alias of collection"},
		{sig: "llm.retrieve(collection: any, query: any, opts?: any) -> table", doc: "the documents matching a query"}, {sig: "llm.search(collection: any, query: any, opts?: any) -> table", doc: "alias of retrieve"}, {sig: "llm.context(docs: any, opts?: any) -> table", doc: "retrieval context for a request"}, {sig: "llm.evidence(docs: any, opts?: any) -> table", doc: "evidence for a request"},
		{sig: "llm.tool_info(tools: table, opts?: any) -> table", doc: "a description of a tool or tools"}, {sig: "llm.tool_schema(tools: table, opts?: any) -> table", doc: "the schema of a tool or tools"}, {sig: "llm.validate_tools(tools: table, opts?: any) -> ok: boolean, err: string?", doc: "validate tool definitions", results: 2},
		{sig: "llm.tool_registry(tools: table, opts?: table) -> table", doc: "a tool registry"}, {sig: "llm.validate_tool_registry(registry: table, opts?: table) -> table", doc: "validate a tool registry"},
		{sig: "llm.tool_invocation_trace(call: table, result?: any, opts?: table) -> table", doc: "the trace of a tool invocation"}, {sig: "llm.tool_outcome(call: table, result?: any, opts?: table) -> table", doc: "the outcome of a tool call"}, {sig: "llm.tool_outcome_event(outcome: table, opts?: table) -> table", doc: "a trace event of a tool outcome"},
		{sig: "llm.policy(spec?: table, opts?: table) -> table", doc: "a tool policy"}, {sig: "llm.check_policy(tools: table, policy?: table) -> ok: boolean, err: string?", doc: "check tools against a policy", results: 2}, {sig: "llm.policy_outcome(tools: table, policy?: table, opts?: table) -> table", doc: "the outcome of a policy check"},
		{sig: "llm.approval_trace(approval: table, opts?: any) -> table", doc: "the trace of an approval"}, {sig: "llm.budget_outcome(budget: table, opts?: table) -> table", doc: "the outcome of a budget"},
		{sig: "llm.agent_state_checkpoint(state: table, opts?: table) -> table", doc: "a checkpoint of an agent's state"},
		{sig: "llm.replay_record(record: table, opts?: table) -> record: table?, err: string?", doc: "a replay record", results: 2}, {sig: "llm.replay_fixture(records: table, opts?: table) -> fixture: table?, err: string?", doc: "a replay fixture"}, {sig: "llm.replay_index(records: table, opts?: table) -> index: table?, err: string?", doc: "an index of replay records"},
		{sig: "llm.trace_event(event: table, opts?: any) -> table", doc: "a trace event"}, {sig: "llm.trace_envelope(events: table, opts?: table) -> table", doc: "a trace envelope of events"}, {sig: "llm.trace_summary(trace: table, opts?: any) -> table", doc: "a summary of a trace"},
		{sig: "llm.trace_assert(trace: table, expect?: table) -> table", doc: "check a trace against expectations"}, {sig: "llm.fixture_index(index: table, opts?: table) -> table", doc: "a fixture index"}, {sig: "llm.model_io_envelope(io: table, opts?: table) -> table", doc: "an envelope of a model call's input and output"},
		{sig: "llm.report_artifact_contract(spec?: table, opts?: any) -> table", doc: "the contract of a report artifact"},
		// Part-3 helper families (runtime/leia/ai, issue 20): workflows, planning graphs, retrieval
		// and evidence, outcomes and their trace events, envelopes, checkpoints, tool contracts,
		// replay records, fixture indexes and package contracts; camelCase aliases.
		{sig: "llm.replayFixture(records: table, opts?: table) -> fixture: table?, err: string?", doc: "alias of replay_fixture", results: 2}, {sig: "llm.replayIndex(records: table, opts?: table) -> index: table?, err: string?", doc: "alias of replay_index", results: 2}, {sig: "llm.replayRecord(record: table, opts?: table) -> record: table?, err: string?", doc: "alias of replay_record", results: 2},
		{sig: "llm.replayTraceEvent(match: table, opts?: table) -> table", doc: "alias of replay_trace_event"}, {sig: "llm.traceAssert(trace: table, expect?: table) -> table", doc: "alias of trace_assert"}, {sig: "llm.traceEnvelope(events: table, opts?: table) -> table", doc: "alias of trace_envelope"},
		{sig: "llm.traceEvent(event: table, opts?: any) -> table", doc: "alias of trace_event"}, {sig: "llm.traceSummary(trace: table, opts?: any) -> table", doc: "alias of trace_summary"},
		{sig: "llm.agentStateCheckpoint(state: table, opts?: table) -> table", doc: "alias of agent_state_checkpoint"}, {sig: "llm.agentStateCheckpointEvent(checkpoint: table, opts?: table) -> table", doc: "alias of agent_state_checkpoint_event"}, {sig: "llm.agentStateCheckpointTraceEvent(checkpoint: table, opts?: table) -> table", doc: "alias of agent_state_checkpoint_event"},
		{sig: "llm.agent_state_checkpoint_event(checkpoint: table, opts?: table) -> table", doc: "a trace event of a checkpoint"}, {sig: "llm.agent_state_checkpoint_trace_event(checkpoint: table, opts?: table) -> table", doc: "alias of agent_state_checkpoint_event"}, {sig: "llm.approvalTrace(approval: table, opts?: any) -> table", doc: "alias of approval_trace"},
		{sig: "llm.approvalTraceEvent(trace: table, opts?: table) -> table", doc: "alias of approval_trace_event"}, {sig: "llm.approval_trace_event(trace: table, opts?: table) -> table", doc: "a trace event of an approval"}, {sig: "llm.budgetOutcome(budget: table, opts?: table) -> table", doc: "alias of budget_outcome"},
		{sig: "llm.budgetOutcomeEvent(outcome: table, opts?: table) -> table", doc: "alias of budget_outcome_event"}, {sig: "llm.budgetOutcomeTraceEvent(outcome: table, opts?: table) -> table", doc: "alias of budget_outcome_event"}, {sig: "llm.budget_outcome_event(outcome: table, opts?: table) -> table", doc: "a trace event of a budget outcome"},
		{sig: "llm.budget_outcome_trace_event(outcome: table, opts?: table) -> table", doc: "alias of budget_outcome_event"}, {sig: "llm.checkPolicy(tools: table, policy?: table) -> ok: boolean, err: string?", doc: "alias of check_policy", results: 2}, {sig: "llm.chunk(docs: any, opts?: any) -> table", doc: "alias of chunks"},
		{sig: "llm.chunks(docs: any, opts?: any) -> table", doc: "documents split into chunks"}, {sig: "llm.citation(doc: any, opts?: any) -> table"}, {sig: "llm.citationOutcome(evidence: table, opts?: table) -> table", doc: "alias of evidence_outcome"},
		{sig: "llm.citationOutcomeEvent(outcome: table, opts?: table) -> table", doc: "alias of evidence_outcome_event"}, {sig: "llm.citation_outcome(evidence: table, opts?: table) -> table", doc: "alias of evidence_outcome"}, {sig: "llm.citation_outcome_event(outcome: table, opts?: table) -> table", doc: "alias of evidence_outcome_event"},
		{sig: "llm.cite(doc: any, opts?: any) -> table"}, {sig: "llm.corpus(docs?: any, opts?: any) -> table", doc: "a corpus"}, {sig: "llm.corpus_add(corpus: any, docs: any) -> table", doc: "add documents to a corpus"},
		{sig: "llm.corpus_reset(corpus?: any) -> table", doc: "empty a corpus"}, {sig: "llm.evidenceOutcome(evidence: table, opts?: table) -> table", doc: "alias of evidence_outcome"}, {sig: "llm.evidenceOutcomeEvent(outcome: table, opts?: table) -> table", doc: "alias of evidence_outcome_event"},
		{sig: "llm.evidenceOutcomeTraceEvent(outcome: table, opts?: table) -> table", doc: "alias of evidence_outcome_event"}, {sig: "llm.evidence_outcome(evidence: table, opts?: table) -> table", doc: "the outcome of evidence use"}, {sig: "llm.evidence_outcome_event(outcome: table, opts?: table) -> table", doc: "a trace event of an evidence outcome"},
		{sig: "llm.evidence_outcome_trace_event(outcome: table, opts?: table) -> table", doc: "alias of evidence_outcome_event"}, {sig: "llm.fixtureIndex(index: table, opts?: table) -> table", doc: "alias of fixture_index"}, {sig: "llm.memoryOutcome(memory: table, opts?: table) -> table", doc: "alias of memory_outcome"},
		{sig: "llm.memoryOutcomeEvent(outcome: table, opts?: table) -> table", doc: "alias of memory_outcome_event"}, {sig: "llm.memoryOutcomeTraceEvent(outcome: table, opts?: table) -> table", doc: "alias of memory_outcome_event"}, {sig: "llm.memory_outcome(memory: table, opts?: table) -> table", doc: "the outcome of memory use"},
		{sig: "llm.memory_outcome_event(outcome: table, opts?: table) -> table", doc: "a trace event of a memory outcome"}, {sig: "llm.memory_outcome_trace_event(outcome: table, opts?: table) -> table", doc: "alias of memory_outcome_event"}, {sig: "llm.modelCallEnvelope(io: table, opts?: table) -> table", doc: "alias of model_io_envelope"},
		{sig: "llm.modelIOEnvelope(io: table, opts?: table) -> table", doc: "alias of model_io_envelope"}, {sig: "llm.model_call_envelope(io: table, opts?: table) -> table", doc: "alias of model_io_envelope"}, {sig: "llm.outputSchema(spec: any, schema?: any) -> table", doc: "alias of output_schema"},
		{sig: "llm.planNode(id: string, opts?: table) -> table", doc: "alias of plan_node"}, {sig: "llm.plan_node(id: string, opts?: table) -> table", doc: "a planning-graph node"}, {sig: "llm.planningGraph(nodes: table, edges?: table, opts?: table) -> table", doc: "alias of planning_graph"},
		{sig: "llm.planningTrace(graph: table, events?: table, opts?: table) -> table", doc: "alias of planning_trace"}, {sig: "llm.planning_graph(nodes: table, edges?: table, opts?: table) -> table", doc: "a planning graph"}, {sig: "llm.planning_trace(graph: table, events?: table, opts?: table) -> table", doc: "the trace of a planning graph"},
		{sig: "llm.policyOutcome(tools: table, policy?: table, opts?: table) -> table", doc: "alias of policy_outcome"}, {sig: "llm.policyOutcomeEvent(outcome: table, opts?: table) -> table", doc: "alias of policy_outcome_event"}, {sig: "llm.policyOutcomeTraceEvent(outcome: table, opts?: table) -> table", doc: "alias of policy_outcome_event"},
		{sig: "llm.policy_outcome_event(outcome: table, opts?: table) -> table", doc: "a trace event of a policy outcome"}, {sig: "llm.policy_outcome_trace_event(outcome: table, opts?: table) -> table", doc: "alias of policy_outcome_event"}, {sig: "llm.providerFreePackageContract(contract: table, opts?: table) -> table", doc: "alias of provider_free_package_contract"},
		{sig: "llm.provider_free_package_contract(contract: table, opts?: table) -> table", doc: "a provider-free package contract"}, {sig: "llm.replayApiRecord(record: table, opts?: table) -> record: table?, err: string?", doc: "alias of replay_http_record", results: 2}, {sig: "llm.replayArtifactRecord(record: table, opts?: table) -> record: table?, err: string?", doc: "alias of replay_artifact_record", results: 2},
		{sig: "llm.replayHttpRecord(record: table, opts?: table) -> record: table?, err: string?", doc: "alias of replay_http_record", results: 2},
		{sig: "llm.replay_api_record(record: table, opts?: table) -> record: table?, err: string?", doc: "alias of replay_http_record", results: 2},
		{sig: "llm.replay_artifact_record(record: table, opts?: table) -> record: table?, err: string?", doc: "a replay record of an artifact", results: 2}, {sig: "llm.replay_http_record(record: table, opts?: table) -> record: table?, err: string?", doc: "a replay record of an HTTP exchange", results: 2}, {sig: "llm.replay_trace_event(match: table, opts?: table) -> table", doc: "a trace event of a replay match"},
		{sig: "llm.reportArtifactContract(spec?: table, opts?: any) -> table", doc: "alias of report_artifact_contract"}, {sig: "llm.retrievalOutcome(memory: table, opts?: table) -> table", doc: "alias of memory_outcome"}, {sig: "llm.retrievalOutcomeEvent(outcome: table, opts?: table) -> table", doc: "alias of memory_outcome_event"},
		{sig: "llm.retrieval_outcome(memory: table, opts?: table) -> table", doc: "alias of memory_outcome"}, {sig: "llm.retrieval_outcome_event(outcome: table, opts?: table) -> table", doc: "alias of memory_outcome_event"}, {sig: "llm.schemaInfo(spec: any) -> table", doc: "alias of schema_info"},
		{sig: "llm.stateCheckpoint(state: table, opts?: table) -> table", doc: "alias of agent_state_checkpoint"}, {sig: "llm.state_checkpoint(state: table, opts?: table) -> table", doc: "alias of agent_state_checkpoint"}, {sig: "llm.toolInfo(tools: table, opts?: any) -> table", doc: "alias of tool_info"},
		{sig: "llm.toolInvocationTrace(call: table, result?: any, opts?: table) -> table", doc: "alias of tool_invocation_trace"}, {sig: "llm.toolOutcome(call: table, result?: any, opts?: table) -> table", doc: "alias of tool_outcome"}, {sig: "llm.toolOutcomeEvent(outcome: table, opts?: table) -> table", doc: "alias of tool_outcome_event"},
		{sig: "llm.toolOutcomeTraceEvent(outcome: table, opts?: table) -> table", doc: "alias of tool_outcome_event"}, {sig: "llm.toolRegistry(tools: table, opts?: table) -> table", doc: "alias of tool_registry"}, {sig: "llm.toolSchema(tools: table, opts?: any) -> table", doc: "alias of tool_schema"},
		{sig: "llm.tool_outcome_trace_event(outcome: table, opts?: table) -> table", doc: "alias of tool_outcome_event"},
		{sig: "llm.turnEnvelope(io: table, opts?: table) -> table", doc: "alias of model_io_envelope"},
		{sig: "llm.turn_envelope(io: table, opts?: table) -> table", doc: "alias of model_io_envelope"}, {sig: "llm.validateFixtureIndex(index: table, opts?: table) -> table", doc: "alias of validate_fixture_index"}, {sig: "llm.validateOutput(value: any, shape: any) -> ok: boolean, err: string?", doc: "alias of validate_output", results: 2},
		{sig: "llm.validatePackageContract(contract: table, opts?: table) -> table", doc: "alias of validate_package_contract"}, {sig: "llm.validatePlanningGraph(graph: table, opts?: table) -> table", doc: "alias of validate_planning_graph"}, {sig: "llm.validateToolRegistry(registry: table, opts?: table) -> table", doc: "alias of validate_tool_registry"},
		{sig: "llm.validateTools(tools: table, opts?: any) -> ok: boolean, err: string?", doc: "alias of validate_tools", results: 2}, {sig: "llm.validate_fixture_index(index: table, opts?: table) -> table", doc: "validate a fixture index"}, {sig: "llm.validate_package_contract(contract: table, opts?: table) -> table", doc: "validate a package contract"},
		{sig: "llm.validate_planning_graph(graph: table, opts?: table) -> table", doc: "validate a planning graph"},
	}, values: []string{"config"}},
	{name: "msg", category: "ai", doc: "message constructors: msg.system, user, assistant, assistant_call, tool_result, tool_error", funcs: []fn{
		{sig: "msg.system(text: any) -> table", doc: "a system message"}, {sig: "msg.user(text: any) -> table", doc: "a user message"}, {sig: "msg.assistant(text: any) -> table", doc: "an assistant message"},
		{sig: "msg.assistant_call(call: table) -> table", doc: "an assistant message carrying tool calls"}, {sig: "msg.tool_result(id: any, value: any) -> table", doc: "a tool-result message"}, {sig: "msg.tool_error(id: any, message: any) -> table", doc: "a tool-error message"},
		{sig: "msg.assistantCall(call: table) -> table", doc: "alias of assistant_call"}, {sig: "msg.toolResult(id: any, value: any) -> table", doc: "alias of tool_result"}, {sig: "msg.toolError(id: any, message: any) -> table", doc: "alias of tool_error"},
	}},
	{name: "history", category: "ai", doc: "message-history queries: find, last, find_all, append", funcs: []fn{
		{sig: "history.find(history: table, filter?: any) -> message: table?, index: integer?", doc: "the first message matching filter", results: 2}, {sig: "history.last(history: table, filter?: any) -> message: table?, index: integer?", doc: "the last message matching filter", results: 2},
		{sig: "history.find_all(history: table, filter?: any) -> table", doc: "every message matching filter"}, {sig: "history.append(history: table, messages...: any) -> table", doc: "the history with a message appended"},
	}},
	{name: "chat", category: "ai", doc: "chat helpers (chat.merge, chat.window, chat.tokens)", funcs: []fn{{sig: "chat.merge(histories...: table) -> table", doc: "message lists merged"}, {sig: "chat.window(messages: table, n?: integer) -> table", doc: "the last n messages, keeping the system message"}, {sig: "chat.tokens(messages?: any) -> number", doc: "an estimate of the tokens of messages"}}},
	{name: "loop", category: "ai", doc: "agent loops: react, simple, plan_execute, reflect, snapshot, resume", funcs: []fn{
		{sig: "loop.react(opts: table) -> result: table?, err: table?", doc: "a ReAct agent loop", results: 2, errResult: true}, {sig: "loop.simple(opts: table) -> result: table?, err: table?", doc: "a simple tool loop", results: 2, errResult: true},
		{sig: "loop.plan_execute(opts: table) -> result: table?, err: table?", doc: "a plan-then-execute loop", results: 2, errResult: true}, {sig: "loop.reflect(opts: table) -> result: table?, err: table?", doc: "a loop with self-reflection", results: 2, errResult: true},
		{sig: "loop.snapshot(history: table, pending: table) -> token: string?, err: string?", doc: "suspend a loop awaiting approval"}, {sig: "loop.resume(token: string, approval: table, tools?: any, opts?: any) -> result: table?, err: table?", doc: "resume a suspended loop", results: 2},
	}},
	{name: "eval", category: "evaluate", doc: "the evaluation harness (only inside evaluate blocks run by the harness)", scope: EvaluateOnly, funcs: []fn{
		{sig: "eval.case(id: string, fn: function) -> result: any, err: error?", doc: "run one evaluation case and record its outcome", results: 2}, {sig: "eval.metric(name: string, value: number|boolean)", doc: "record a metric of the running evaluate block"}, {sig: "eval.load_jsonl(path: string) -> table", doc: "the records of a JSON-lines dataset file, relative to the program's folder, as a list of tables"},
		{sig: "eval.skip_if(condition: any, reason?: string)", doc: "skip the rest of the block when condition holds"}, {sig: "eval.fail_if(condition: any, message?: string)", doc: "fail the block when condition holds"},
		{sig: "eval.usage() -> table", doc: "the model usage of the block so far (turns, tokens, cost)"}, {sig: "eval.budget(limits: table)", doc: "bound the block's model usage (turns, tokens, cost)"}, {sig: "eval.judge(opts: table) -> verdict: table?, err: error?", doc: "ask a model to grade an answer against a rubric", results: 2, errResult: true},
	}},
}
