package effects

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/lint/internal/syntax"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

//go:embed doc.go
var doc string

// LongRunningWithoutCleanup is the long-running-without-cleanup rule.
var LongRunningWithoutCleanup = &analysis.Rule{
	Name:  "long-running-without-cleanup",
	Doc:   analysis.ExtractDoc(doc, "long-running-without-cleanup"),
	Codes: []string{"HARN-LNT-006"},
	Run:   longRunning,
}

// PROpenWithoutSecretScan is the pr-open-without-secret-scan rule.
var PROpenWithoutSecretScan = &analysis.Rule{
	Name:  "pr-open-without-secret-scan",
	Doc:   analysis.ExtractDoc(doc, "pr-open-without-secret-scan"),
	Codes: []string{"HARN-LNT-008"},
	Run:   prOpen,
}

// UnhandledApprovalResult is the unhandled-approval-result rule.
var UnhandledApprovalResult = &analysis.Rule{
	Name:  "unhandled-approval-result",
	Doc:   analysis.ExtractDoc(doc, "unhandled-approval-result"),
	Codes: []string{"HARN-LNT-013"},
	Run:   approval,
}

// PromptInjectionRisk is the prompt-injection-risk rule.
var PromptInjectionRisk = &analysis.Rule{
	Name:  "prompt-injection-risk",
	Doc:   analysis.ExtractDoc(doc, "prompt-injection-risk"),
	Codes: []string{"HARN-LNT-026"},
	Run:   promptInjection,
}

// ConnectorEffectPolicy is the connector-effect-policy rule.
var ConnectorEffectPolicy = &analysis.Rule{
	Name:  "connector-effect-policy",
	Doc:   analysis.ExtractDoc(doc, "connector-effect-policy"),
	Codes: []string{"HARN-LNT-027"},
	Run:   connector,
}

// hostTool returns the tool a host_tool_call names, or "".
func hostTool(c *ast.Call) string {
	if syntax.Callee(c) != "host_tool_call" {
		return ""
	}
	s, _ := syntax.StringValue(syntax.Arg(c, 0))
	return s
}

// mcpTool returns the tool an mcp_call names, or "".
func mcpTool(c *ast.Call) string {
	if syntax.Callee(c) != "mcp_call" {
		return ""
	}
	s, _ := syntax.StringValue(syntax.Arg(c, 1))
	return s
}

func promptInjection(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok || syntax.Callee(c) != "llm_call" {
			return true
		}
		if s, ok := syntax.Arg(c, 1).(*ast.StringLit); ok && s.Interpolated() {
			d := p.Diag(diagnostics.SourceLint, "HARN-LNT-026", c.Span, "interpolated text in the system prompt of `llm_call` can carry instructions")
			d.Related = []diagnostics.Related{{Span: analysis.Span(s.Span), Message: "the system prompt"}}
			d.Help = "keep the system prompt a fixed string and pass the data in the user prompt"
			p.Report(d)
		}
		return true
	})
}

// Export effect classes of connector exports.
const (
	hotPath = iota
	outbound
	activation
)

// exportClass maps the connector export names to their effect class.
var exportClass = map[string]int{
	"normalize_inbound": hotPath,
	"poll_tick":         outbound,
	"call":              outbound,
	"activate":          activation,
}

// Builtin effect groups.
const (
	workspace = iota + 1
	process
	network
	llm
	mcp
	host
	connectorCall
)

var groups = map[int][]string{
	workspace: {"read_file", "read_file_result", "read_file_bytes", "write_file", "write_file_bytes",
		"append_file", "copy_file", "delete_file", "mkdir", "list_dir", "file_exists", "stat",
		"project_fingerprint", "project_scan_native", "project_scan_tree_native",
		"project_walk_tree_native", "project_catalog_native", "__agent_state_init",
		"__agent_state_resume", "__agent_state_write", "__agent_state_read", "__agent_state_list",
		"__agent_state_delete", "__agent_state_handoff"},
	process: {"exec", "exec_at", "shell", "shell_at", "vision_ocr"},
	network: {"http_get", "http_post", "http_put", "http_patch", "http_delete", "http_download",
		"http_request", "http_session_request", "http_stream_open", "http_stream_read",
		"http_stream_close", "http_stream_info", "sse_connect", "sse_receive", "websocket_accept",
		"websocket_connect", "websocket_route", "websocket_send", "websocket_receive", "websocket_server"},
	llm: {"llm_call", "llm_call_safe", "llm_completion", "llm_stream", "llm_healthcheck", "agent_loop"},
	mcp: {"mcp_connect", "mcp_ensure_active", "mcp_call", "mcp_list_tools", "mcp_list_resources",
		"mcp_list_resource_templates", "mcp_read_resource", "mcp_list_prompts", "mcp_get_prompt",
		"mcp_server_info", "mcp_disconnect"},
	host:          {"host_call", "host_tool_call", "host_tool_list"},
	connectorCall: {"connector_call"},
}

// groupOf is the effect group of each builtin of groups, made at the
// first lookup (not in every process's start).
var groupOf = sync.OnceValue(func() map[string]int {
	m := map[string]int{}
	for g, names := range groups {
		for _, n := range names {
			m[n] = g
		}
	}
	return m
})

// deniedReason says why export's default policy denies builtin, or "".
func deniedReason(class int, builtin string) string {
	switch groupOf()[builtin] {
	case workspace:
		return "ambient file system access is not allowed"
	case process:
		return "running processes is not allowed"
	case llm:
		return "LLM calls are not allowed"
	case mcp:
		return "MCP and process-backed clients are not allowed"
	case host:
		return "host calls need a surface the host declares"
	case network, connectorCall:
		if class == hotPath {
			return "outbound network and client calls are not allowed on the ingress hot path"
		}
	}
	return ""
}

func connector(p *analysis.Pass) {
	syntax.Walk(p.File, func(n ast.Node, stack []ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok {
			return true
		}
		name := syntax.Callee(c)
		if name == "" {
			return true
		}
		for i := len(stack) - 1; i >= 0; i-- {
			fn, ok := stack[i].(*ast.FuncDecl)
			if !ok || fn.Name == nil {
				continue
			}
			class, ok := exportClass[fn.Name.Name]
			if !ok {
				continue
			}
			if why := deniedReason(class, name); why != "" {
				d := p.Diag(diagnostics.SourceLint, "HARN-LNT-027", c.Span, "connector export `%s` calls `%s`: %s", fn.Name.Name, name, why)
				d.Related = []diagnostics.Related{{Span: analysis.Span(fn.Name.Span), Message: "the connector export"}}
				d.Help = "move `" + name + "` out of `" + fn.Name.Name + "`, or give the connector a trusted effect-policy override"
				p.Report(d)
			}
			break
		}
		return true
	})
}

// longRunningCapable reports whether a call can start long-running work.
func longRunningCapable(c *ast.Call) bool {
	switch syntax.Callee(c) {
	case "walk_dir", "glob", "http_get", "http_request", "http_download", "run_command", "run_test", "run_build_command":
		return true
	}
	switch strings.TrimPrefix(hostTool(c), "tools.") {
	case "run_command", "run_test", "run_build_command":
		return true
	}
	return false
}

// longRunningFlag reports whether an argument is a dict literal setting
// long_running or background to true.
func longRunningFlag(e ast.Expr) bool {
	d, ok := e.(*ast.DictLit)
	if !ok {
		return false
	}
	for _, en := range d.Entries {
		key := ""
		if en.Name != nil {
			key = en.Name.Name
		} else if en.StringKey != nil {
			key, _ = en.StringKey.Value()
		}
		if b, ok := en.Value.(*ast.BoolLit); ok && b.Value && (key == "long_running" || key == "background") {
			return true
		}
	}
	return false
}

// cancels reports whether n calls cancel_handle somewhere.
func cancels(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if c, ok := m.(*ast.Call); ok {
			if syntax.Callee(c) == "cancel_handle" {
				found = true
			}
			switch hostTool(c) {
			case "cancel_handle", "tools.cancel_handle":
				found = true
			}
			if mem, ok := c.Func.(*ast.Member); ok && mem.Name != nil && mem.Name.Name == "cancel_handle" {
				found = true
			}
		}
		return !found
	})
	return found
}

// hasCleanup reports whether a function body has a defer or finally
// block that cancels a handle (nested declared functions excluded).
func hasCleanup(fn ast.Node) bool {
	found := false
	first := true
	ast.Inspect(fn, func(n ast.Node) bool {
		if found {
			return false
		}
		if !first {
			switch n.(type) {
			case *ast.FuncDecl, *ast.ToolDecl, *ast.Pipeline, *ast.Override:
				return false
			}
		}
		first = false
		switch x := n.(type) {
		case *ast.Defer:
			found = cancels(x.Body)
		case *ast.Try:
			if x.Finally != nil && cancels(x.Finally) {
				found = true
			}
		}
		return !found
	})
	return found
}

func longRunning(p *analysis.Pass) {
	cleanup := map[ast.Node]bool{}
	syntax.Walk(p.File, func(n ast.Node, stack []ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok || !longRunningCapable(c) {
			return true
		}
		flagged := false
		for _, a := range c.Args {
			flagged = flagged || longRunningFlag(a)
		}
		if !flagged {
			return true
		}
		var body ast.Node = p.File
		for i := len(stack) - 1; i >= 0; i-- {
			switch stack[i].(type) {
			case *ast.FuncDecl, *ast.ToolDecl, *ast.Pipeline, *ast.Override, *ast.Closure, *ast.FuncLit:
				body = stack[i]
			default:
				continue
			}
			break
		}
		ok, seen := cleanup[body]
		if !seen {
			ok = hasCleanup(body)
			cleanup[body] = ok
		}
		if !ok {
			name := syntax.Callee(c)
			if t := hostTool(c); t != "" {
				name = "host_tool_call(\"" + t + "\")"
			}
			d := p.Diag(diagnostics.SourceLint, "HARN-LNT-006", c.Span, "`%s` starts long-running work with no defer or finally block that cancels it", name)
			d.Help = "keep the returned handle and cancel it in a `defer { ... }` block with `cancel_handle`"
			p.Report(d)
		}
		return true
	})
}

func approval(p *analysis.Pass) {
	syntax.Walk(p.File, func(n ast.Node, stack []ast.Node) bool {
		a, ok := n.(*ast.Approval)
		if ok && a.Primitive == "request_approval" && discarded(a, stack) {
			d := p.Diag(diagnostics.SourceLint, "HARN-LNT-013", a.Span, "the approval record `request_approval` returns is dropped")
			d.Help = "bind it and check its approver receipts (`const approval = request_approval(...)`), or write `_ = request_approval(...)` to drop it on purpose"
			p.Report(d)
		}
		return true
	})
}

// lastIs reports whether n is the last of stmts.
func lastIs(stmts []ast.Stmt, n ast.Node) bool {
	return len(stmts) > 0 && ast.Node(stmts[len(stmts)-1]) == n
}

// discarded reports whether the value of n, whose enclosing nodes are
// stack, is dropped: n is a statement whose value flows nowhere.
func discarded(n ast.Node, stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch x := stack[i].(type) {
		case *ast.File, *ast.ToolDecl, *ast.EvalPackDecl:
			return true
		case *ast.Block:
			if !lastIs(x.Stmts, n) {
				return true
			}
		case *ast.Closure:
			return !lastIs(x.Body, n)
		case *ast.If, *ast.Match, *ast.MatchArm, *ast.Try, *ast.Catch, *ast.Retry, *ast.Deadline, *ast.Spawn:
			if t, ok := x.(*ast.Try); ok && ast.Node(t.Finally) == n {
				return true
			}
			if !isBody(x, n) {
				return false // the condition, subject or count
			}
		default:
			// A function, pipeline, loop, defer, guard, select or plain
			// block statement drops the value of its body; anything else
			// uses its operand.
			switch x.(type) {
			case *ast.FuncDecl, *ast.FuncLit, *ast.Pipeline, *ast.Override, *ast.For, *ast.While,
				*ast.Guard, *ast.Defer, *ast.Mutex, *ast.Select, *ast.SelectCase, *ast.SelectTimeout, *ast.BlockStmt:
				_, isBlock := n.(*ast.Block)
				return isBlock
			}
			return false
		}
		n = stack[i]
	}
	return false
}

// secretScan reports whether a call scans for secrets.
func secretScan(c *ast.Call) bool {
	if syntax.Callee(c) == "secret_scan" {
		return true
	}
	switch mcpTool(c) + "|" + hostTool(c) {
	case "harn.secret_scan|", "harn::secret_scan|", "|harn.secret_scan", "|harn::secret_scan":
		return true
	}
	return false
}

// prOpenCall reports whether a call opens a pull request.
func prOpenCall(c *ast.Call) bool {
	for _, t := range []string{mcpTool(c), hostTool(c)} {
		switch t {
		case "git::push_pr", "git.push_pr", "create_pr":
			return true
		}
	}
	return false
}

func prOpen(p *analysis.Pass) {
	s := &scanner{p: p}
	var roots []ast.Stmt
	for _, it := range p.File.Items {
		switch it.(type) {
		case *ast.FuncDecl, *ast.ToolDecl, *ast.Pipeline, *ast.Override, *ast.ImplDecl, *ast.EvalPackDecl:
			s.node(it, false)
		default:
			roots = append(roots, it)
		}
	}
	s.stmts(roots, false)
}

// scanner follows whether a secret scan has run on every path to each
// point of a body.
type scanner struct {
	p     *analysis.Pass
	depth int
}

func (s *scanner) stmts(list []ast.Stmt, scanned bool) bool {
	for _, st := range list {
		scanned = s.node(st, scanned)
	}
	return scanned
}

func (s *scanner) block(b *ast.Block, scanned bool) bool {
	if b == nil {
		return scanned
	}
	return s.stmts(b.Stmts, scanned)
}

// node analyses n entered with scanned and returns whether a scan has
// run on every path out of it.
func (s *scanner) node(n ast.Node, scanned bool) bool {
	if ast.IsNil(n) || s.depth > ast.MaxDepth {
		return scanned
	}
	s.depth++
	defer func() { s.depth-- }()
	switch x := n.(type) {
	case *ast.FuncDecl:
		s.block(x.Body, false)
		return scanned
	case *ast.Pipeline:
		s.block(x.Body, false)
		return scanned
	case *ast.Override:
		s.block(x.Body, false)
		return scanned
	case *ast.ToolDecl:
		s.stmts(x.Body, false)
		return scanned
	case *ast.FuncLit:
		s.block(x.Body, false)
		return scanned
	case *ast.Closure:
		s.stmts(x.Body, false)
		return scanned
	case *ast.Call:
		scanned = s.node(x.Func, scanned)
		for _, a := range x.Args {
			scanned = s.node(a, scanned)
		}
		if secretScan(x) {
			return true
		}
		if prOpenCall(x) && !scanned {
			d := s.p.Diag(diagnostics.SourceLint, "HARN-LNT-008", x.Span, "a pull request is opened with no secret_scan(...) before it on every path")
			d.Help = "run `secret_scan(diff)` first and open the pull request only when it finds nothing"
			s.p.Report(d)
		}
		return scanned
	case *ast.Conditional:
		scanned = s.node(x.Cond, scanned)
		a := s.node(x.Then, scanned)
		b := s.node(x.Else, scanned)
		return a && b
	case *ast.If:
		scanned = s.node(x.Cond, scanned)
		a := s.block(x.Then, scanned)
		if ast.IsNil(x.Else) {
			return scanned
		}
		return s.node(x.Else, scanned) && a
	case *ast.For:
		scanned = s.node(x.Iterable, scanned)
		s.block(x.Body, scanned)
		return scanned
	case *ast.While:
		scanned = s.node(x.Cond, scanned)
		s.block(x.Body, scanned)
		return scanned
	case *ast.Retry:
		scanned = s.node(x.Count, scanned)
		s.block(x.Body, scanned)
		return scanned
	case *ast.Guard:
		scanned = s.node(x.Cond, scanned)
		s.block(x.Else, scanned)
		return scanned
	case *ast.Defer:
		s.block(x.Body, scanned)
		return scanned
	case *ast.Try:
		t := s.block(x.Body, scanned)
		c := t
		if x.Catch != nil {
			c = s.block(x.Catch.Body, scanned)
		}
		if x.Finally != nil && s.block(x.Finally, scanned) {
			return true
		}
		return t && c
	case *ast.Match:
		scanned = s.node(x.Value, scanned)
		if len(x.Arms) == 0 {
			return scanned
		}
		all := true
		for _, arm := range x.Arms {
			st := s.node(arm.Guard, scanned)
			all = s.block(arm.Body, st) && all
		}
		return all
	case *ast.Select:
		all := len(x.Cases) > 0
		for _, c := range x.Cases {
			st := s.node(c.Channel, scanned)
			all = s.block(c.Body, st) && all
		}
		if x.Timeout != nil {
			st := s.node(x.Timeout.Duration, scanned)
			all = s.block(x.Timeout.Body, st) && all
		}
		if x.Default != nil {
			all = s.block(x.Default, scanned) && all
		}
		return all
	case *ast.Parallel:
		scanned = s.node(x.Value, scanned)
		scanned = s.node(x.Options, scanned)
		s.node(x.Body, false)
		return scanned
	}
	ast.EachChild(n, func(c ast.Node) { scanned = s.node(c, scanned) })
	return scanned
}

// isBody reports whether n is a body of the block expression x (a
// branch, an arm, a catch clause) rather than an operand.
func isBody(x, n ast.Node) bool {
	switch n.(type) {
	case *ast.MatchArm, *ast.Catch:
		return true
	case *ast.Block:
		if i, ok := x.(*ast.If); ok {
			return ast.Node(i.Then) == n || i.Else == n
		}
		return true
	case *ast.If:
		i, ok := x.(*ast.If)
		return ok && i.Else == n
	}
	return false
}
