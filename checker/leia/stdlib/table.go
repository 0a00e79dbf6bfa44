package stdlib

// fn describes one function by its signature (see parseFunc).
type fn struct {
	sig       string
	doc       string
	results   int
	errResult bool
}

type module struct {
	name   string
	doc    string
	scope  Scope
	funcs  []fn
	values []string
}

type value struct{ name, doc string }

// builtinFuncs are the base library's global functions (spec "Values",
// "Errors", "Modules", "Concurrency"; the Lua-style base library).
var builtinFuncs = []fn{
	{sig: "print(values...)", doc: "write the values to standard output, separated by tabs, ending with a newline"},
	{sig: "assert(value, message?, values...)", doc: "raise message (or \"assertion failed!\") unless value is truthy; return its arguments"},
	{sig: "error(value?, level?)", doc: "raise value as an error, unchanged"},
	{sig: "pcall(f, args...)", doc: "call f in protected mode: true and its results, or false and the error", results: 2},
	{sig: "xpcall(f, handler, args...)", doc: "pcall with a message handler applied to the error", results: 2},
	{sig: "type(value)", doc: "the type name of value: nil, boolean, number, string, table, function, channel, ..."},
	{sig: "tostring(value)", doc: "convert value to a string (honours __tostring)"},
	{sig: "tonumber(value, base?)", doc: "convert value to a number, or nil"},
	{sig: "pairs(t)", doc: "iterate over every entry of a table"},
	{sig: "ipairs(t)", doc: "iterate over t[1], t[2], ... up to the first nil"},
	{sig: "next(t, key?)", doc: "the entry of t after key"},
	{sig: "select(n, values...)", doc: "the values from the n-th on, or their count with \"#\""},
	{sig: "rawget(t, key)", doc: "t[key] without metamethods"},
	{sig: "rawset(t, key, value)", doc: "t[key] = value without metamethods"},
	{sig: "rawequal(a, b)", doc: "a == b without metamethods"},
	{sig: "rawlen(v)", doc: "the length of v without metamethods"},
	{sig: "setmetatable(t, mt)", doc: "set the metatable of t; returns t"},
	{sig: "getmetatable(v)", doc: "the metatable of v, or its __metatable field"},
	{sig: "require(name)", doc: "load a module once and return its value (package.loaded[name])"},
	{sig: "unpack(t, i?, j?)", doc: "t[i], ..., t[j] as multiple values"},
	{sig: "spread(values...)", doc: "expand a call's results in a non-final position"},
	{sig: "append(list, values...)", doc: "append values to a list; returns the list"},
	{sig: "make(kind, size?)", doc: "make(chan) or make(chan, n): a new channel"},
	{sig: "close(ch)", doc: "close a channel"},
	{sig: "cap(ch)", doc: "the buffer capacity of a channel"},
	{sig: "len(v)", doc: "the length of a string, table or channel"},
	{sig: "load(chunk, name?, mode?, env?)", doc: "compile a chunk of source into a function", results: 2},
	{sig: "dofile(path?)", doc: "run a source file and return its results"},
	{sig: "loadfile(path?, mode?, env?)", doc: "compile a source file into a function without running it", results: 2},
	{sig: "collectgarbage(opt?, arg?)", doc: "control the garbage collector"},
	{sig: "toolof(agent, opts?)", doc: "wrap an agent as a tool (alias of llm.toolof)"},
	{sig: "sleep(seconds)", doc: "pause the current task"},
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
	{name: "string", doc: "string functions (byte strings; #s is the byte length)", funcs: []fn{
		{sig: "string.len(s)"}, {sig: "string.sub(s, i, j?)"}, {sig: "string.upper(s)"}, {sig: "string.lower(s)"},
		{sig: "string.find(s, pattern, init?, plain?)"}, {sig: "string.match(s, pattern, init?)"},
		{sig: "string.gmatch(s, pattern)"}, {sig: "string.gsub(s, pattern, repl, n?)"},
		{sig: "string.format(format, values...)"}, {sig: "string.rep(s, n, sep?)"}, {sig: "string.reverse(s)"},
		{sig: "string.byte(s, i?, j?)"}, {sig: "string.char(codes...)"},
		{sig: "string.split(*)"}, {sig: "string.trim(*)"}, {sig: "string.join(*)"}, {sig: "string.contains(*)"},
		{sig: "string.has_prefix(*)"}, {sig: "string.has_suffix(*)"}, {sig: "string.starts_with(*)"},
		{sig: "string.ends_with(*)"}, {sig: "string.replace(*)"},
	}},
	{name: "table", doc: "table and list functions", funcs: []fn{
		{sig: "table.insert(t, pos_or_value, value?)"}, {sig: "table.remove(t, pos?)"},
		{sig: "table.concat(t, sep?, i?, j?)"}, {sig: "table.sort(t, less?)"}, {sig: "table.unpack(t, i?, j?)"},
		{sig: "table.pack(values...)"}, {sig: "table.keys(*)"}, {sig: "table.values(*)"}, {sig: "table.copy(*)"},
	}},
	{name: "math", doc: "mathematical functions", values: []string{"pi", "huge", "maxinteger", "mininteger"}, funcs: []fn{
		{sig: "math.floor(x)"}, {sig: "math.ceil(x)"}, {sig: "math.abs(x)"}, {sig: "math.sqrt(x)"},
		{sig: "math.max(x, values...)"}, {sig: "math.min(x, values...)"}, {sig: "math.fmod(x, y)"},
		{sig: "math.modf(x)"}, {sig: "math.exp(x)"}, {sig: "math.log(x, base?)"}, {sig: "math.sin(x)"},
		{sig: "math.cos(x)"}, {sig: "math.tan(x)"}, {sig: "math.asin(x)"}, {sig: "math.acos(x)"},
		{sig: "math.atan(y, x?)"}, {sig: "math.random(m?, n?)"}, {sig: "math.randomseed(x?, y?)"},
		{sig: "math.type(x)"}, {sig: "math.tointeger(x)"}, {sig: "math.ult(m, n)"}, {sig: "math.pow(*)"},
		{sig: "math.round(*)"}, {sig: "math.deg(x)"}, {sig: "math.rad(x)"}, {sig: "math.frexp(x)"},
		{sig: "math.ldexp(m, e)"},
	}},
	{name: "os", doc: "operating-system access (subject to the host's capability policy)", funcs: []fn{
		{sig: "os.getenv(name)"}, {sig: "os.time(t?)"}, {sig: "os.clock()"}, {sig: "os.date(format?, time?)"},
		{sig: "os.exit(code?)"}, {sig: "os.remove(*)"}, {sig: "os.rename(*)"}, {sig: "os.tmpname(*)"},
		{sig: "os.difftime(*)"}, {sig: "os.setenv(*)"},
	}},
	{name: "io", doc: "input and output"},
	{name: "utf8", doc: "UTF-8 helpers over byte strings"},
	{name: "coroutine", doc: "coroutines"},
	{name: "package", doc: "module loading state (package.loaded)", values: []string{"loaded", "path", "preload"}},
	{name: "json", doc: "JSON encoding and decoding", funcs: []fn{
		{sig: "json.encode(value, opts?)", results: 2}, {sig: "json.decode(text)", results: 2},
	}},
	{name: "time", doc: "clocks, durations and formatting"},
	{name: "fs", doc: "file system (subject to the host's capability policy)"},
	{name: "path", doc: "file path manipulation"},
	{name: "url", doc: "URL parsing and escaping"},
	{name: "regexp", doc: "regular expressions"},
	{name: "base64", doc: "base64 encoding", funcs: []fn{
		{sig: "base64.encode(s)"}, {sig: "base64.decode(s)", results: 2},
		{sig: "base64.urlEncode(s)"}, {sig: "base64.urlDecode(s)", results: 2},
	}},
	{name: "hash", doc: "hash functions", funcs: []fn{
		{sig: "hash.crc32(s)"}, {sig: "hash.md5(s)"}, {sig: "hash.sha1(s)"}, {sig: "hash.sha256(s)"},
		{sig: "hash.sha512(s)"}, {sig: "hash.hmacSHA256(key, message)"},
	}},
	{name: "bit32", doc: "32-bit bitwise operations"},
	{name: "bits", doc: "bit manipulation"},
	{name: "rand", doc: "random numbers"},
	{name: "encoding", doc: "text and binary encodings"},
	{name: "compress", doc: "compression"},
	{name: "container", doc: "containers (heaps, lists, sets)"},
	{name: "log", doc: "structured logging"},
	{name: "csv", doc: "CSV reading and writing"},
	{name: "uuid", doc: "UUIDs"},
	{name: "sort", doc: "sorting"},
	{name: "testkit", doc: "test helpers"},
	{name: "http", doc: "HTTP client and server (subject to the host's capability policy)"},
	{name: "crypto", doc: "cryptography"},
	{name: "debug", doc: "debugging helpers"},
	{name: "db", doc: "database access"},
	{name: "data", doc: "data frames"},
	{name: "linalg", doc: "linear algebra"},
	{name: "glob", doc: "file-name patterns"},
	{name: "context", doc: "cancellation contexts"},
	{name: "q", doc: "the q dialect's helpers (q.sql, q.query)"},
	{name: "array", doc: "dense typed arrays (array.i64, array.f64, ...)"},
	{name: "soa", doc: "structure-of-arrays frames (soa.zip, ...)"},
	{name: "script", doc: "compiling and running Leia source at run time (script.compile)"},
	{name: "binary", doc: "binary encoding and decoding"},
	{name: "bytes", doc: "byte buffers"},
	{name: "color", doc: "terminal colours"},
	{name: "yaml", doc: "YAML encoding and decoding"},
	{name: "xlsx", doc: "spreadsheets"},
	{name: "net", doc: "network access (subject to the host's capability policy)"},
	{name: "matrix", doc: "dense matrices (matrix.dense, getf, setf, ...)"},
	{name: "process", doc: "processes (subject to the host's capability policy)"},
	{name: "sync", doc: "in-process synchronization primitives"},
	{name: "vec", doc: "numeric vectors"},
	{name: "dialect", doc: "the tagged-dialect runtime: dialect.eval, eval_block, eval_raw, interpolate, register", funcs: []fn{
		{sig: "dialect.eval(tag, body, opts?)", results: 2}, {sig: "dialect.eval_block(tag, fields, opts?)", results: 2},
		{sig: "dialect.eval_raw(tag, fn, opts?)", results: 2}, {sig: "dialect.interpolate(tag, parts, values)"},
	}},
	{name: "llm", doc: "the AI runtime: models, tools, turns, agents, budgets, trace and replay", funcs: []fn{
		{sig: "llm.register_models(models)"},
		{sig: "llm.tool(name, fn, opts?)"},
		{sig: "llm.turn(request)", results: 2, errResult: true},
		{sig: "llm.agent(name, config, flow?, opts?)"},
		{sig: "llm.agent_defaults(defaults)"},
		{sig: "llm.system(text)"}, {sig: "llm.user(text)"}, {sig: "llm.assistant(text)"},
		{sig: "llm.assistant_call(call)"}, {sig: "llm.tool_result(id, value)"}, {sig: "llm.tool_error(id, message)"},
		{sig: "llm.dispatch(call, tools)", results: 2, errResult: true},
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
	}, values: []string{"config"}},
	{name: "msg", doc: "message constructors: msg.system, user, assistant, assistant_call, tool_result, tool_error", funcs: []fn{
		{sig: "msg.system(text)"}, {sig: "msg.user(text)"}, {sig: "msg.assistant(text)"},
		{sig: "msg.assistant_call(call)"}, {sig: "msg.tool_result(id, value)"}, {sig: "msg.tool_error(id, message)"},
		{sig: "msg.assistantCall(call)"}, {sig: "msg.toolResult(id, value)"}, {sig: "msg.toolError(id, message)"},
	}},
	{name: "history", doc: "message-history queries: find, last, find_all, append", funcs: []fn{
		{sig: "history.find(history, filter)", results: 2}, {sig: "history.last(history, filter)", results: 2},
		{sig: "history.find_all(history, filter)"}, {sig: "history.append(history, message)"},
	}},
	{name: "chat", doc: "chat helpers (chat.merge)", funcs: []fn{{sig: "chat.merge(*)"}}},
	{name: "loop", doc: "agent loops: react, simple, plan_execute, reflect, snapshot, resume", funcs: []fn{
		{sig: "loop.react(*)", results: 2, errResult: true}, {sig: "loop.simple(*)", results: 2, errResult: true},
		{sig: "loop.plan_execute(*)", results: 2, errResult: true}, {sig: "loop.reflect(*)", results: 2, errResult: true},
		{sig: "loop.snapshot(*)"}, {sig: "loop.resume(*)", results: 2},
	}},
	{name: "eval", doc: "the evaluation harness (only inside evaluate blocks run by the harness)", scope: EvaluateOnly, funcs: []fn{
		{sig: "eval.case(id, fn)", results: 2}, {sig: "eval.metric(name, value)"}, {sig: "eval.load_jsonl(path)"},
		{sig: "eval.skip_if(condition, reason?)"}, {sig: "eval.fail_if(condition, message?)"},
		{sig: "eval.usage()"}, {sig: "eval.budget(limits)"}, {sig: "eval.judge(opts)", results: 2, errResult: true},
	}},
}
