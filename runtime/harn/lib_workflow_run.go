package harn

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// workflow_execute runs a workflow graph on a task. Nodes run from the
// entry along the edges (a branch-labelled edge is taken only when the
// node's branch matches; a join waits for its pending predecessors),
// each producing a stage record with its artifacts and, for model
// stages, a transcript. Model calls go through llmTurn. The outcome is a
// run record (_type "run_record") with stages, transitions, checkpoints,
// the artifact pool and an embedded replay fixture; replay_run with
// replay_mode "deterministic" reuses a prior run's stage records instead
// of calling the model. run_record, run_record_save/load, _fixture,
// _eval, _eval_suite and _diff work on those records.

// wfRun is one workflow execution.
type wfRun struct {
	c           *Call
	opts        *Dict
	task        string
	graph       *Dict
	nodes       map[string]*Dict
	edges       []*Dict
	pool        []Value
	stages      []Value
	transitions []Value
	checkpoints []Value
	replay      map[string][]*Dict // replayed stage records by node id, in order
}

func (r *wfRun) node(id string) *Dict { return r.nodes[id] }

// contextFor is the pool as a node's context policy selects it.
func (r *wfRun) contextFor(n *Dict) []*Dict {
	return artifactSelect(r.c, r.pool, wfSub(n, "context_policy"))
}

// outputKind is the kind of the artifact a node produces.
func outputKind(n *Dict, fallback string) string {
	if oc := wfSub(n, "output_contract"); oc != nil {
		v, _ := oc.Get("output_kinds")
		if ks := wfStringList(v); len(ks) > 0 {
			return ks[0]
		}
	}
	if mp := wfSub(n, "map_policy"); mp != nil {
		if k := OptStr(mp, "output_kind"); k != "" {
			return k
		}
	}
	return fallback
}

// usesModel reports whether a node calls the model.
func usesModel(n *Dict) bool {
	switch OptStr(n, "mode") {
	case "llm", "agent":
		return true
	}
	return wfSub(n, "model_policy") != nil
}

// modelCall runs one model turn for a node and returns the text and the
// stage transcript.
func (r *wfRun) modelCall(n *Dict, prompt string) (string, Value, error) {
	opts := NewDict(2)
	if mp := wfSub(n, "model_policy"); mp != nil {
		for _, k := range []string{"provider", "model", "temperature", "max_tokens"} {
			if v, ok := mp.Get(k); ok {
				opts.Set(k, v)
			}
		}
	}
	system, _ := n.Get("system")
	if OptStr(n, "mode") == "agent" {
		return r.agentCall(n, prompt, system)
	}
	out, err := llmTurn(r.c, buildLLMRequest([]Value{Str(prompt), system, DictValue(opts)}))
	takeAppliedExperiment(r.c) // no transcript records it
	if err != nil {
		return "", Nil, err
	}
	text := ""
	if out.k == KindDict {
		text = OptStr(out.r.(*Dict), "text")
	}
	msgs := []Value{messageValue("user", Str(prompt)), messageValue("assistant", Str(text))}
	return text, transcriptParts{messages: msgs}.build(r.c), nil
}

// agentCall runs an agent-mode node as an agent loop: the node's model
// policy and tools, plus the run's skills and skill_match options.
func (r *wfRun) agentCall(n *Dict, prompt string, system Value) (string, Value, error) {
	opts := NewDict(4)
	if mp := wfSub(n, "model_policy"); mp != nil {
		opts = mp.clone()
	}
	if t, ok := n.Get("tools"); ok && t.k != KindNil {
		opts.Set("tools", t)
	}
	for _, k := range []string{"skills", "skill_match"} {
		if v, ok := r.opts.Get(k); ok {
			opts.Set(k, v)
		}
	}
	leave := enterWorkflowSkills(r.c, r.opts)
	_, res, err := agentLoop(r.c, "workflow_execute", Str(prompt), system, opts)
	leave()
	if err != nil {
		return "", Nil, err
	}
	d := res.AsDict()
	if d == nil {
		return "", Nil, nil
	}
	text := OptStr(d, "visible_text")
	if text == "" {
		text = OptStr(d, "text")
	}
	t, _ := d.Get("transcript")
	return text, t, nil
}

// prompt is the task followed by the node's selected context.
func (r *wfRun) prompt(n *Dict, ctx []*Dict) string {
	p := r.task
	if t := OptStr(n, "prompt"); t != "" {
		p = t + "\n\n" + p
	}
	if len(ctx) > 0 {
		p += "\n\n" + artifactContext(ctx)
	}
	return p
}

// produce makes an artifact produced by a stage.
func (r *wfRun) produce(n *Dict, kind, text string, extra ...any) *Dict {
	d := wfDict(append([]any{"kind", Str(kind), "text", Str(text), "source", Str("workflow"),
		"stage", Str(OptStr(n, "id"))}, extra...)...)
	return artifactOf(r.c, DictValue(d))
}

// exec runs one node: its stage record, the artifacts it produced and
// the branch it took.
func (r *wfRun) exec(id string) (*Dict, error) {
	n := r.node(id)
	kind := OptStr(n, "kind")
	started := nowRFC3339(r.c)
	ctx := r.contextFor(n)
	var produced []*Dict
	branch := Nil
	outcome := "success"
	visible := ""
	transcript := Nil
	meta := NewDict(0)
	if m := wfSub(n, "metadata"); m != nil {
		meta = m.clone()
	}
	if prev := r.replay[id]; len(prev) > 0 {
		rec := prev[0].clone()
		r.replay[id] = prev[1:]
		rec.Set("id", Str("stage_"+newUUID(r.c)))
		for _, a := range dictList(rec, "artifacts") {
			r.pool = append(r.pool, a)
		}
		return rec, nil
	}
	switch kind {
	case "condition":
		want := OptStr(meta, "contains_text")
		if cond := wfSub(n, "condition"); cond != nil && want == "" {
			want = OptStr(cond, "contains_text")
		}
		ok := len(ctx) > 0
		if want != "" {
			ok = false
			for _, a := range ctx {
				if strings.Contains(artifactText(a), want) {
					ok = true
				}
			}
		}
		if ok {
			branch = Str("true")
		} else {
			branch = Str("false")
		}
	case "fork", "join":
	case "map":
		mp := wfSub(n, "map_policy")
		var items []string
		if mp != nil {
			if iv, ok := mp.Get("items"); ok && iv.k == KindList {
				for _, x := range iv.r.(*List).SharedItems() {
					items = append(items, Display(x))
				}
			} else if k := OptStr(mp, "item_artifact_kind"); k != "" {
				for _, a := range artifactSelect(r.c, r.pool, wfDict("include_kinds", wfStrings([]string{k}))) {
					items = append(items, artifactText(a))
				}
			}
		}
		want := len(items)
		strategy := "all"
		if jp := wfSub(n, "join_policy"); jp != nil {
			if s := OptStr(jp, "strategy"); s != "" {
				strategy = s
			}
			switch strategy {
			case "first":
				want = 1
			case "quorum":
				if m := OptInt(jp, "min_completed"); m != nil && int(*m) < want {
					want = int(*m)
				}
			}
		}
		for i, item := range items {
			if i >= want {
				break
			}
			text := item
			if usesModel(n) {
				t, tr, err := r.modelCall(n, r.task+"\n\n"+item)
				if err != nil {
					return nil, err
				}
				text, transcript = t, tr
			}
			produced = append(produced, r.produce(n, outputKind(n, "summary"), text, "metadata",
				DictValue(wfDict("map_item", Str(item), "map_index", Int(int64(i))))))
		}
		meta.Set("map", DictValue(wfDict("item_count", Int(int64(len(items))), "completed", Int(int64(len(produced))),
			"strategy", Str(strategy))))
	case "reduce":
		parts := make([]string, len(ctx))
		for i, a := range ctx {
			parts[i] = artifactText(a)
		}
		text := strings.Join(parts, "\n")
		if usesModel(n) {
			t, tr, err := r.modelCall(n, r.prompt(n, ctx))
			if err != nil {
				return nil, err
			}
			text, transcript = t, tr
		}
		produced = append(produced, r.produce(n, outputKind(n, "summary"), text))
	default: // stage, verify, subagent, escalation
		text := r.task
		if usesModel(n) {
			t, tr, err := r.modelCall(n, r.prompt(n, ctx))
			if err != nil {
				return nil, err
			}
			text, transcript = t, tr
		}
		visible = text
		fallback := "summary"
		if kind == "verify" {
			fallback = "verification_result"
			passed := true
			if v := wfSub(n, "verify"); v != nil {
				if want := OptStr(v, "assert_text"); want != "" {
					passed = strings.Contains(text, want)
				}
			}
			if passed {
				branch = Str("passed")
			} else {
				branch, outcome = Str("failed"), "verification_failed"
			}
		}
		if kind == "subagent" {
			workerID := "worker_" + newUUID(r.c)
			name := OptStr(meta, "worker_name")
			if name == "" {
				name = id
			}
			payload, _ := meta.Get("request")
			stagesV, _ := meta.Get("workflow_stages")
			request := wfDict("task", Str(r.task), "payload", payload, "workflow_stages", stagesV)
			meta.Set("worker", DictValue(wfDict("id", Str(workerID), "name", Str(name), "status", Str("completed"),
				"request", DictValue(request))))
			meta.Set("worker_id", Str(workerID))
			prov := wfDict("worker_id", Str(workerID), "worker_name", Str(name), "delegated", Bool(true))
			produced = append(produced,
				r.produce(n, outputKind(n, fallback), text, "metadata", DictValue(wfDict("delegated", Bool(true), "worker_id", Str(workerID)))),
				artifactOf(r.c, DictValue(wfDict("kind", Str("worker_result"), "source", Str("worker"), "stage", Str(id),
					"data", DictValue(wfDict("text", Str(text), "request", DictValue(request), "provenance", DictValue(prov))),
					"metadata", DictValue(wfDict("delegated", Bool(true), "worker_id", Str(workerID)))))))
		} else {
			produced = append(produced, r.produce(n, outputKind(n, fallback), text))
		}
	}
	consumed := make([]string, len(ctx))
	for i, a := range ctx {
		consumed[i] = OptStr(a, "id")
	}
	for _, a := range produced {
		r.pool = append(r.pool, DictValue(a))
	}
	rec := wfDict("_type", Str("stage_record"), "id", Str("stage_"+newUUID(r.c)), "node_id", Str(id), "kind", Str(kind),
		"status", Str("completed"), "outcome", Str(outcome), "branch", branch, "started_at", Str(started),
		"finished_at", Str(nowRFC3339(r.c)), "visible_text", Str(visible), "transcript", transcript,
		"artifacts", artifactValues(produced), "consumed_artifact_ids", wfStrings(consumed), "attempts", Int(1),
		"metadata", DictValue(meta))
	return rec, nil
}

// next are the nodes the edges from id lead to, given its branch.
func (r *wfRun) next(id string, branch Value) []string {
	var out []string
	for _, e := range r.edges {
		if OptStr(e, "from") != id {
			continue
		}
		eb := OptStr(e, "branch")
		if eb != "" && (branch.k == KindNil || Display(branch) != eb) {
			continue
		}
		out = append(out, OptStr(e, "to"))
	}
	return out
}

// ready picks the first queued node that is not a join some other queued
// node still leads to (a join waits for every branch that can reach it);
// failing that, the first.
func (r *wfRun) ready(queue []string) int {
	for i, id := range queue {
		if OptStr(r.node(id), "kind") != "join" {
			return i
		}
		waiting := false
		for _, q := range queue {
			if q != id && r.reaches(q, id) {
				waiting = true
			}
		}
		if !waiting {
			return i
		}
	}
	return 0
}

// reaches reports whether an edge path leads from one node to another.
func (r *wfRun) reaches(from, to string) bool {
	seen := map[string]bool{from: true}
	stack := []string{from}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range r.edges {
			if OptStr(e, "from") != n {
				continue
			}
			next := OptStr(e, "to")
			if next == to {
				return true
			}
			if !seen[next] {
				seen[next] = true
				stack = append(stack, next)
			}
		}
	}
	return false
}

// run executes the graph from its entry.
func (r *wfRun) run(maxSteps int64) (string, error) {
	queue := []string{OptStr(r.graph, "entry")}
	var done []string
	steps := int64(0)
	for len(queue) > 0 {
		if steps >= maxSteps {
			return "max_steps_exceeded", nil
		}
		steps++
		i := r.ready(queue)
		id := queue[i]
		queue = append(queue[:i:i], queue[i+1:]...)
		if r.node(id) == nil {
			return "failed", throwValue(Str("workflow_execute: node " + id + " does not exist"))
		}
		rec, err := r.exec(id)
		if err != nil {
			return "failed", err
		}
		r.stages = append(r.stages, DictValue(rec))
		done = append(done, id)
		branch, _ := rec.Get("branch")
		for _, to := range r.next(id, branch) {
			r.transitions = append(r.transitions, DictValue(wfDict("from", Str(id), "to", Str(to), "branch", branch)))
			if !containsString(queue, to) {
				queue = append(queue, to)
			}
		}
		r.checkpoints = append(r.checkpoints, DictValue(wfDict("step", Int(steps), "node_id", Str(id),
			"ready_nodes", wfStrings(queue), "completed_nodes", wfStrings(done))))
	}
	return "completed", nil
}

// observability is the run's action graph: a node per trigger event and
// stage (a condition is a predicate node), an edge per dispatch and
// transition (a condition's edges are predicate gates), all under the
// trigger's trace id (else the run id).
func (r *wfRun) observability(run *Dict, trigger *Dict) *Dict {
	trace := OptStr(run, "id")
	if trigger != nil && OptStr(trigger, "trace_id") != "" {
		trace = OptStr(trigger, "trace_id")
	}
	var nodes, edges []Value
	if trigger != nil {
		nodes = append(nodes, DictValue(wfDict("id", Str("trigger:"+OptStr(trigger, "id")), "kind", Str("trigger"),
			"label", Str(OptStr(trigger, "provider")+":"+OptStr(trigger, "kind")), "trace_id", Str(trace))))
		edges = append(edges, DictValue(wfDict("from", Str("trigger:"+OptStr(trigger, "id")),
			"to", Str("stage:"+OptStr(r.graph, "entry")), "kind", Str("trigger_dispatch"), "trace_id", Str(trace))))
	}
	seen := map[string]bool{}
	for _, s := range r.stages {
		sd := s.AsDict()
		id := OptStr(sd, "node_id")
		if seen[id] {
			continue
		}
		seen[id] = true
		kind := "stage"
		if OptStr(sd, "kind") == "condition" {
			kind = "predicate"
		}
		nodes = append(nodes, DictValue(wfDict("id", Str("stage:"+id), "kind", Str(kind), "label", Str(id),
			"node_kind", Str(OptStr(sd, "kind")), "status", Str(OptStr(sd, "status")), "trace_id", Str(trace))))
	}
	for _, t := range r.transitions {
		td := t.AsDict()
		kind := "transition"
		if OptStr(r.node(OptStr(td, "from")), "kind") == "condition" {
			kind = "predicate_gate"
		}
		branch, _ := td.Get("branch")
		edges = append(edges, DictValue(wfDict("from", Str("stage:"+OptStr(td, "from")), "to", Str("stage:"+OptStr(td, "to")),
			"kind", Str(kind), "branch", branch, "trace_id", Str(trace))))
	}
	return wfDict("trace_id", Str(trace), "action_graph_nodes", NewListValue(nodes), "action_graph_edges", NewListValue(edges))
}

// runFixture derives a replay fixture from a run record.
func runFixture(c *Call, run *Dict) *Dict {
	var asserts []Value
	for _, s := range dictList(run, "stages") {
		sd := s.AsDict()
		if sd == nil {
			continue
		}
		var kinds []string
		for _, a := range dictList(sd, "artifacts") {
			if ad := a.AsDict(); ad != nil {
				kinds = append(kinds, OptStr(ad, "kind"))
			}
		}
		branch, _ := sd.Get("branch")
		asserts = append(asserts, DictValue(wfDict("node_id", Str(OptStr(sd, "node_id")),
			"expected_status", Str(OptStr(sd, "status")), "expected_outcome", Str(OptStr(sd, "outcome")),
			"expected_branch", branch, "required_artifact_kinds", wfStrings(kinds))))
	}
	return wfDict("_type", Str("replay_fixture"), "id", Str("fixture_"+newUUID(c)), "source_run_id", Str(OptStr(run, "id")),
		"workflow_id", Str(OptStr(run, "workflow_id")), "workflow_name", Str(OptStr(run, "workflow_name")),
		"expected_status", Str(OptStr(run, "status")), "stage_assertions", NewListValue(asserts))
}

// runRecord normalises a run record payload.
func runRecord(c *Call, v Value) *Dict {
	var r *Dict
	if v.k == KindDict {
		r = v.r.(*Dict).clone()
	} else {
		r = NewDict(4)
	}
	r.Set("_type", Str("run_record"))
	if OptStr(r, "id") == "" {
		r.Set("id", Str("run_"+newUUID(c)))
	}
	if OptStr(r, "status") == "" {
		r.Set("status", Str("completed"))
	}
	for _, k := range []string{"stages", "transitions", "checkpoints", "artifacts", "child_runs"} {
		if x, ok := r.Get(k); !ok || x.k != KindList {
			r.Set(k, NewListValue(nil))
		}
	}
	if x, ok := r.Get("metadata"); !ok || x.k != KindDict {
		r.Set("metadata", DictValue(NewDict(0)))
	}
	if OptStr(r, "root_run_id") == "" {
		r.Set("root_run_id", Str(OptStr(r, "id")))
	}
	return r
}

// runPath resolves a run record path. A path in the machine's shared temp
// dir (upstream programs persist runs to /tmp/...) stands for the same
// name in the run's private temp dir: run records are scratch files, and
// the program gets no authority over the shared directory.
func runPath(c *Call, p string) string {
	h := c.th.in.host
	abs := h.Abs(p)
	shared := filepath.Clean(os.TempDir())
	if rel, err := filepath.Rel(shared, abs); err == nil && filepath.IsAbs(p) && rel != "." && !strings.HasPrefix(rel, "..") {
		if priv := h.TempDir(); priv != "" {
			if r2, err := filepath.Rel(priv, abs); err != nil || strings.HasPrefix(r2, "..") {
				return filepath.Join(priv, rel)
			}
		}
	}
	return abs
}

// saveRun writes a run record as JSON at path.
func saveRun(c *Call, run *Dict, path string) (string, error) {
	var b strings.Builder
	writeJSON(&b, jsonSafe(DictValue(run), 0), 0)
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, []byte(b.String()), "", "  "); err != nil {
		return "", runtimeError("run_record_save: %v", err)
	}
	h := c.th.in.host
	abs := runPath(c, path)
	var err error
	c.Block(func() {
		if _, serr := h.Stat(filepath.Dir(abs)); serr != nil {
			err = h.Mkdir(filepath.Dir(abs), true)
		}
		if err == nil {
			err = h.WriteFile(abs, pretty.Bytes())
		}
	})
	if err != nil {
		return "", ioError("run_record_save: failed to write "+abs, err)
	}
	return abs, nil
}

func installWorkflowRun(lib *Library) {
	lib.Builtin("workflow_execute", func(c *Call, args []Value) (Value, error) {
		g, err := wfGraph(c, Arg(args, 1), "workflow_execute")
		if err != nil {
			return Nil, err
		}
		opts := wfCeiling(Arg(args, 3))
		if opts == nil {
			opts = NewDict(0)
		}
		r := &wfRun{c: c, opts: opts, task: Display(Arg(args, 0)), graph: g, nodes: wfNodes(g), edges: wfEdges(g), replay: map[string][]*Dict{}}
		for _, a := range listItems(Arg(args, 2)) {
			r.pool = append(r.pool, DictValue(artifactOf(c, a)))
		}
		meta := NewDict(2)
		if rp := wfSub(opts, "replay_run"); rp != nil {
			mode := OptStr(opts, "replay_mode")
			if mode == "" {
				mode = "deterministic"
			}
			meta.Set("replay_mode", Str(mode))
			meta.Set("replayed_from", Str(OptStr(rp, "id")))
			for _, s := range dictList(rp, "stages") {
				if sd := s.AsDict(); sd != nil {
					r.replay[OptStr(sd, "node_id")] = append(r.replay[OptStr(sd, "node_id")], sd)
				}
			}
		}
		maxSteps := int64(64)
		if n := OptInt(opts, "max_steps"); n != nil {
			maxSteps = *n
		}
		started := nowRFC3339(c)
		status, err := r.run(maxSteps)
		if err != nil {
			return Nil, err
		}
		run := runRecord(c, DictValue(wfDict("workflow_id", Str(OptStr(g, "id")), "workflow_name", Str(OptStr(g, "name")),
			"task", Str(r.task), "status", Str(status), "started_at", Str(started), "finished_at", Str(nowRFC3339(c)),
			"stages", NewListValue(r.stages), "transitions", NewListValue(r.transitions),
			"checkpoints", NewListValue(r.checkpoints), "artifacts", NewListValue(r.pool), "metadata", DictValue(meta))))
		run.Set("replay_fixture", DictValue(runFixture(c, run)))
		run.Set("observability", DictValue(r.observability(run, wfSub(opts, "trigger_event"))))
		path := Nil
		if p := OptStr(opts, "persist_path"); p != "" {
			abs, err := saveRun(c, run, p)
			if err != nil {
				return Nil, err
			}
			run.Set("persisted_path", Str(abs))
			path = Str(abs)
		}
		transcript := Nil
		for _, s := range r.stages {
			if t, ok := s.AsDict().Get("transcript"); ok && t.k != KindNil {
				transcript = t
			}
		}
		return DictValue(wfDict("status", Str(status), "run", DictValue(run), "artifacts", NewListValue(r.pool),
			"transcript", transcript, "path", path)), nil
	})
	lib.Builtin("run_record", func(c *Call, args []Value) (Value, error) {
		return DictValue(runRecord(c, Arg(args, 0))), nil
	})
	lib.Builtin("run_record_fixture", func(c *Call, args []Value) (Value, error) {
		return DictValue(runFixture(c, runRecord(c, Arg(args, 0)))), nil
	})
	lib.Builtin("run_record_save", func(c *Call, args []Value) (Value, error) {
		run := runRecord(c, Arg(args, 0))
		path := ""
		if p := Arg(args, 1); p.k == KindString {
			path = p.AsString()
		} else {
			path = filepath.Join(".harn-runs", OptStr(run, "id")+".json")
		}
		abs, err := saveRun(c, run, path)
		if err != nil {
			return Nil, err
		}
		return DictValue(wfDict("path", Str(abs), "run_id", Str(OptStr(run, "id")))), nil
	})
	lib.Builtin("run_record_load", func(c *Call, args []Value) (Value, error) {
		path, err := argString(c, args, 0)
		if err != nil {
			return Nil, err
		}
		h := c.th.in.host
		path = runPath(c, path)
		var b []byte
		c.Block(func() { b, err = h.ReadFile(path) })
		if err != nil {
			return Nil, ioError("run_record_load: failed to read "+path, err)
		}
		v, err := ParseJSON(string(b))
		if err != nil {
			return Nil, throwValue(Str("run_record_load: " + err.Error()))
		}
		return DictValue(runRecord(c, v)), nil
	})
}
