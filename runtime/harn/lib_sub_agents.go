package harn

import (
	"path/filepath"
	"strings"
	"sync"
)

// sub_agent_run(task, options) runs an agent loop in a clean context: the
// child gets only the task (not the parent's conversation) and its
// transcript stays out of the parent's, which sees one envelope {ok,
// summary, data?, error?, transcript, tokens_used, budget_exceeded,
// session_id, artifacts, evidence_added}. The child's tools are the
// intersection of allowed_tools and policy.tools (the capability
// ceiling); dynamic permissions apply inside that ceiling and cannot
// widen it. A denied tool call fails the run with error {category:
// "permission_denied", tool, message}. response_format: "json" or a
// returns.schema parses the summary into data. token_budget stops the
// child once its tokens reach the budget (budget_exceeded).
//
// background: true returns a worker handle {_type: "worker", id, mode:
// "sub_agent", ...} at once; wait_agent(handle) gives {status, result,
// snapshot_path}; send_input(worker, task) runs the worker again,
// carrying its transcript unless carry.transcript_mode is "reset". The
// child runs when the handle is made (its model turns are queued in the
// same order a synchronous run would take them); its snapshot is
// written to the run's temp dir.

type worker struct {
	id       string
	task     Value
	opts     *Dict
	messages []Value
	result   Value
	status   string
	snapshot string
	carry    Value
	request  Value // what the worker was asked, fixed at spawn
	created  string
}

type workerStore struct {
	mu   sync.Mutex
	byID map[string]*worker
	next int
}

func workersOf(c *Call) *workerStore {
	return c.th.in.State("agent_workers", func() any { return &workerStore{byID: map[string]*worker{}} }).(*workerStore)
}

// extractJSONText is the JSON a model answer carries: a fenced block or
// the outermost object or array.
func extractJSONText(s string) string {
	t := strings.TrimSpace(s)
	if i := strings.Index(t, "```"); i >= 0 {
		rest := t[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:]
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			return strings.TrimSpace(rest[:j])
		}
	}
	for _, pair := range [][2]string{{"{", "}"}, {"[", "]"}} {
		i, j := strings.Index(t, pair[0]), strings.LastIndex(t, pair[1])
		if i >= 0 && j > i {
			return t[i : j+1]
		}
	}
	return t
}

func subAgentError(category, message, tool string) Value {
	d := strDict("category", category, "message", message)
	if tool != "" {
		d.Set("tool", Str(tool))
	}
	return DictValue(d)
}

// runSubAgent runs one child loop and builds its envelope.
func runSubAgent(c *Call, task Value, opts *Dict, prior []Value) (Value, []Value, error) {
	o := opts.clone()
	for _, k := range []string{"background", "carry", "response_format", "returns", "name"} {
		o.Delete(k)
	}
	sessionID := dictString(o, "session_id")
	if sessionID == "" {
		sessionID = "sub_agent_" + newUUID(c)
	}
	o.Delete("session_id")
	if len(prior) > 0 {
		o.Set("session_id", Str(sessionID))
		sessionSetMessages(c, sessionID, prior)
	}
	system, _ := o.Get("system")
	r, res, err := agentLoop(c, "sub_agent_run", task, system, o)
	if err != nil {
		e := asError(err)
		if e == nil || isControl(err) {
			return Nil, nil, err
		}
		env := NewDict(8)
		env.Set("ok", Bool(false))
		env.Set("summary", Str(""))
		env.Set("error", subAgentError(orDefault(e.Category, "runtime"), e.Message(), ""))
		env.Set("session_id", Str(sessionID))
		env.Set("tokens_used", Int(0))
		env.Set("budget_exceeded", Bool(false))
		env.Set("artifacts", NewListValue(nil))
		env.Set("evidence_added", Int(0))
		return DictValue(env), nil, nil
	}
	rd := res.AsDict()
	summary := strings.TrimSpace(strings.ReplaceAll(r.lastVisible(), doneSentinel, ""))
	env := NewDict(12)
	env.Set("summary", Str(summary))
	t, _ := rd.Get("transcript")
	env.Set("transcript", t)
	env.Set("session_id", Str(sessionID))
	env.Set("tokens_used", Int(r.input+r.output))
	env.Set("budget_exceeded", Bool(r.budgetHit))
	env.Set("artifacts", NewListValue(nil))
	env.Set("evidence_added", Int(0))
	env.Set("status", Str(dictString(rd, "status")))
	tools, _ := rd.Get("tools")
	env.Set("tools", tools)
	ok := true
	if r.denial != nil {
		ok = false
		env.Set("error", subAgentError("permission_denied", dictString(r.denial, "reason"), dictString(r.denial, "tool")))
	} else if wantsJSON(opts) {
		v, err := ParseJSON(extractJSONText(summary))
		if err != nil {
			ok = false
			env.Set("error", subAgentError("schema_validation", "sub_agent_run: the child's answer is not JSON: "+err.Error(), ""))
		} else {
			if rs, has := opts.Get("returns"); has && rs.k == KindDict {
				if s, has := rs.r.(*Dict).Get("schema"); has && s.k == KindDict {
					if _, errs := validateSchema(v, s.r.(*Dict), "", schemaOpts{}, 0); len(errs) > 0 {
						ok = false
						env.Set("error", subAgentError("schema_validation", "sub_agent_run: "+strings.Join(errs, "; "), ""))
					}
				}
			}
			env.Set("data", v)
		}
	}
	env.Set("ok", Bool(ok))
	return DictValue(env), r.messages, nil
}

func wantsJSON(opts *Dict) bool {
	if dictString(opts, "response_format") == "json" {
		return true
	}
	if rs, ok := opts.Get("returns"); ok && rs.k == KindDict && rs.r.(*Dict).Has("schema") {
		return true
	}
	return false
}

// runWorker runs a worker's task and writes its snapshot.
func runWorker(c *Call, w *worker) error {
	var prior []Value
	if w.carry.k == KindDict && dictString(w.carry.r.(*Dict), "transcript_mode") == "reset" {
		prior = nil
	} else {
		prior = w.messages
	}
	env, msgs, err := runSubAgent(c, w.task, w.opts, prior)
	if err != nil {
		return err
	}
	w.result, w.messages, w.status = env, msgs, "completed"
	snap := NewDict(6)
	snap.Set("id", Str(w.id))
	snap.Set("mode", Str("sub_agent"))
	snap.Set("status", Str(w.status))
	cp := NewDict(1)
	if w.carry.k == KindDict {
		cp = w.carry.r.(*Dict).clone()
	}
	snap.Set("carry_policy", DictValue(cp))
	tr := NewDict(1)
	tr.Set("messages", NewListValue(append([]Value{}, msgs...)))
	snap.Set("transcript", DictValue(tr))
	snap.Set("result", env)
	w.snapshot = filepath.Join(c.th.in.host.TempDir(), "harn-workers", w.id+".json")
	if b, ok := c.th.in.builtin("mkdir"); ok {
		if _, err := b.Fn(c, []Value{Str(filepath.Dir(w.snapshot))}); err != nil {
			return err
		}
	}
	if b, ok := c.th.in.builtin("write_file"); ok {
		if _, err := b.Fn(c, []Value{Str(w.snapshot), Str(jsonText(DictValue(snap)))}); err != nil {
			return err
		}
	}
	return nil
}

func (w *worker) handle() Value {
	d := strDict("_type", "worker", "id", w.id, "mode", "sub_agent", "status", w.status)
	d.Set("task", w.task)
	if w.snapshot != "" {
		d.Set("snapshot_path", Str(w.snapshot))
	}
	d.Set("request", w.request)
	d.Set("provenance", w.provenance())
	d.Set("result", w.result)
	return DictValue(d)
}

// provenance says where a worker came from.
func (w *worker) provenance() Value {
	return DictValue(strDict("worker_id", w.id, "mode", "sub_agent", "created_at", w.created))
}

// workerRequest is the request record of a new worker: the task and the
// planning fields its options carried.
func workerRequest(task Value, opts *Dict) Value {
	d := NewDict(6)
	d.Set("task", task)
	p, _ := opts.Get("request")
	d.Set("payload", p)
	for _, k := range []string{"research_questions", "action_items", "workflow_stages", "verification_steps"} {
		v, ok := opts.Get(k)
		if !ok || v.k != KindList {
			v = NewListValue(nil)
		}
		d.Set(k, v)
	}
	return DictValue(d)
}

// workerArg finds the worker a handle (or a wait_agent result) names.
func workerArg(c *Call, v Value, fn string) (*worker, error) {
	id := ""
	switch v.k {
	case KindString:
		id = v.AsString()
	case KindDict:
		id = dictString(v.r.(*Dict), "id")
		if id == "" {
			id = dictString(v.r.(*Dict), "worker_id")
		}
	}
	s := workersOf(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	if w, ok := s.byID[id]; ok {
		return w, nil
	}
	return nil, throwValue(Str(fn + ": unknown worker '" + id + "'"))
}

func installSubAgents(lib *Library) {
	lib.Builtin("sub_agent_run", func(c *Call, args []Value) (Value, error) {
		task := Arg(args, 0)
		opts := NewDict(0)
		if o := Arg(args, 1); o.k == KindDict {
			opts = o.r.(*Dict)
		} else if o.k != KindNil {
			return Nil, throwValue(Str("sub_agent_run: options must be a dict"))
		}
		if !optBool(opts, "background") {
			env, _, err := runSubAgent(c, task, opts, nil)
			return env, err
		}
		s := workersOf(c)
		s.mu.Lock()
		s.next++
		w := &worker{id: "worker_" + itoa(int64(s.next)), task: task, opts: opts, status: "running",
			request: workerRequest(task, opts), created: c.th.in.host.Now().UTC().Format("2006-01-02T15:04:05Z")}
		w.carry, _ = opts.Get("carry")
		s.byID[w.id] = w
		s.mu.Unlock()
		if err := runWorker(c, w); err != nil {
			return Nil, err
		}
		return w.handle(), nil
	})
	lib.Builtin("wait_agent", func(c *Call, args []Value) (Value, error) {
		w, err := workerArg(c, Arg(args, 0), "wait_agent")
		if err != nil {
			return Nil, err
		}
		d := w.handle().r.(*Dict)
		d.Set("_type", Str("worker_result"))
		return DictValue(d), nil
	})
	lib.Builtin("send_input", func(c *Call, args []Value) (Value, error) {
		w, err := workerArg(c, Arg(args, 0), "send_input")
		if err != nil {
			return Nil, err
		}
		w.task = Arg(args, 1)
		w.status = "running"
		if err := runWorker(c, w); err != nil {
			return Nil, err
		}
		return w.handle(), nil
	})
	lib.Builtin("close_agent", func(c *Call, args []Value) (Value, error) {
		w, err := workerArg(c, Arg(args, 0), "close_agent")
		if err != nil {
			return Nil, err
		}
		w.status = "closed"
		return w.handle(), nil
	})
	lib.Builtin("list_agents", func(c *Call, args []Value) (Value, error) {
		s := workersOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		var out []Value
		for i := 1; i <= s.next; i++ {
			if w, ok := s.byID["worker_"+itoa(int64(i))]; ok {
				out = append(out, w.handle())
			}
		}
		return NewListValue(out), nil
	})
}
