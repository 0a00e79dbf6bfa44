package ai

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Planning graphs: llm.plan_node(id, opts), llm.planning_graph(nodes,
// edges, opts), llm.validate_planning_graph(graph, opts) and
// llm.planning_trace(graph, events, opts) (each also in camelCase) build
// and check provider-free planning metadata: nodes with node types,
// dependencies, branches, retry and merge policies and trace evidence
// refs; control edges (given, or derived from depends_on); validation
// findings; trace evidence summaries. They never schedule, sleep for a
// retry, run branches, call providers or persist: workflow_graph is the
// helper that executes.

func stringsOrList(v leia.Value) leia.Value {
	switch {
	case v.Table() != nil:
		return deepClone(v)
	case v.Kind() == leia.KindString:
		return List(v)
	}
	return leia.TableValue(newList())
}

func retryPolicy(v leia.Value) leia.Value {
	if v.Table() != nil {
		return deepClone(v)
	}
	return T("max_attempts", 1, "retryable", false, "backoff", "none")
}

func mergePolicy(v leia.Value) leia.Value {
	if v.Table() != nil {
		return deepClone(v)
	}
	return T("mode", "none", "required_inputs", leia.TableValue(newList()))
}

// PlanNode is llm.plan_node.
func PlanNode(id string, opts leia.Value) leia.Value {
	n := leia.NewTable(0, 16)
	n.SetStr("kind", leia.String("plan_node"))
	n.SetStr("schema_version", leia.Int(1))
	n.SetStr("version", leia.String("plan_node.v1"))
	n.SetStr("id", leia.String(id))
	n.SetStr("node_type", leia.String(optString(opts, "node_type", "transform")))
	for _, f := range []string{"depends_on", "branches", "trace_evidence"} {
		n.SetStr(f, stringsOrList(Field(opts, f)))
	}
	n.SetStr("retry_policy", retryPolicy(Field(opts, "retry_policy")))
	n.SetStr("merge_policy", mergePolicy(Field(opts, "merge_policy")))
	setEach(n, []string{"capability", "input_ref", "output_ref", "fixture_key", "description"}, opts)
	return leia.TableValue(n)
}

func planningRedaction(opts leia.Value) leia.Value {
	r := leia.NewTable(0, 8)
	r.SetStr("enabled", leia.True)
	r.SetStr("policy", leia.String(optString(opts, "redaction_policy", "planning_graph_metadata_only")))
	for _, f := range []string{"raw_inputs_stored", "raw_outputs_stored", "raw_prompt_stored", "raw_completion_stored", "secret_values_present"} {
		r.SetStr(f, leia.False)
	}
	return leia.TableValue(r)
}

func normalizePlanNodes(nodes leia.Value) *leia.Table {
	out := newList()
	for i, it := range Items(nodes) {
		if it.Table() == nil {
			continue
		}
		n := deepClone(it).Table()
		nv := leia.TableValue(n)
		id := text(n.GetStr("id"))
		if id == "" {
			id = text(n.GetStr("name"))
		}
		if id == "" {
			id = fmt.Sprintf("node_%d", i+1)
		}
		n.SetStr("kind", leia.String("plan_node"))
		n.SetStr("id", leia.String(id))
		n.SetStr("node_type", leia.String(optString(nv, "node_type", "transform")))
		for _, f := range []string{"depends_on", "branches", "trace_evidence"} {
			if n.GetStr(f).Table() == nil {
				n.SetStr(f, leia.TableValue(newList()))
			}
		}
		if n.GetStr("retry_policy").Table() == nil {
			n.SetStr("retry_policy", retryPolicy(leia.Nil))
		}
		if n.GetStr("merge_policy").Table() == nil {
			n.SetStr("merge_policy", mergePolicy(leia.Nil))
		}
		appendTo(out, nv)
	}
	return out
}

func normalizePlanEdges(edges leia.Value, nodes *leia.Table) *leia.Table {
	out := newList()
	for _, it := range Items(edges) {
		if it.Table() == nil {
			continue
		}
		from := optString(it, "from", text(it.Table().GetInt(1)))
		to := optString(it, "to", text(it.Table().GetInt(2)))
		if from == "" || to == "" {
			continue
		}
		e := leia.NewTable(0, 4)
		e.SetStr("from", leia.String(from))
		e.SetStr("to", leia.String(to))
		e.SetStr("edge_type", leia.String(optString(it, "edge_type", "control")))
		if b := Field(it, "branch_id"); !b.IsNil() {
			e.SetStr("branch_id", deepClone(b))
		}
		appendTo(out, leia.TableValue(e))
	}
	if out.Len() > 0 {
		return out
	}
	for _, n := range Items(leia.TableValue(nodes)) {
		id := text(Field(n, "id"))
		for _, dep := range Items(Field(n, "depends_on")) {
			if d := text(dep); d != "" && id != "" {
				appendTo(out, T("from", d, "to", id, "edge_type", "control"))
			}
		}
	}
	return out
}

func countNodes(nodes leia.Value, pred func(leia.Value) bool) int64 {
	var n int64
	for _, it := range Items(nodes) {
		if it.Table() != nil && pred(it) {
			n++
		}
	}
	return n
}

// PlanningGraph is llm.planning_graph.
func PlanningGraph(nodes, edges, opts leia.Value) leia.Value {
	g := leia.NewTable(0, 20)
	g.SetStr("__llm_planning_graph", leia.True)
	g.SetStr("kind", leia.String("planning_graph"))
	g.SetStr("schema_version", leia.Int(optInt(opts, "schema_version", 1)))
	g.SetStr("version", leia.String(optString(opts, "version", "planning_graph.v1")))
	g.SetStr("id", leia.String(optString(opts, "id", optString(opts, "graph_id", "planning-graph"))))
	g.SetStr("provider_free", leia.Bool(optBool(opts, "provider_free", true)))
	for _, f := range []string{"domain_specific", "live_network", "live_model", "real_dependency_imports"} {
		g.SetStr(f, leia.Bool(optBool(opts, f, false)))
	}
	g.SetStr("capability", leia.String(optString(opts, "capability", "generic.planning.graph.define")))
	g.SetStr("capability_refs", stringsOrList(Field(opts, "capability_refs")))
	ns := normalizePlanNodes(nodes)
	es := normalizePlanEdges(edges, ns)
	nv := leia.TableValue(ns)
	g.SetStr("plan_nodes", nv)
	g.SetStr("nodes", nv)
	g.SetStr("edges", leia.TableValue(es))
	g.SetStr("node_count", leia.Int(int64(ns.Len())))
	g.SetStr("edge_count", leia.Int(int64(es.Len())))
	g.SetStr("summary", T(
		"plan_node_count", ns.Len(), "edge_count", es.Len(),
		"branch_count", countNodes(nv, func(n leia.Value) bool { return text(Field(n, "node_type")) == "branch" }),
		"merge_count", countNodes(nv, func(n leia.Value) bool { return text(Field(n, "node_type")) == "merge" }),
		"retryable_count", countNodes(nv, func(n leia.Value) bool { return Field(Field(n, "retry_policy"), "retryable").Truthy() })))
	g.SetStr("redaction", planningRedaction(opts))
	return leia.TableValue(g)
}

// ValidatePlanningGraph is llm.validate_planning_graph.
func ValidatePlanningGraph(graph, opts leia.Value) leia.Value {
	out := leia.NewTable(0, 8)
	out.SetStr("kind", leia.String("planning_graph_validation"))
	out.SetStr("schema_version", leia.Int(1))
	out.SetStr("version", leia.String("planning_graph_validation.v1"))
	out.SetStr("provider_free", leia.True)
	findings := newList()
	add := func(kind, msg, field string) {
		f := leia.NewTable(0, 3)
		f.SetStr("kind", leia.String(kind))
		f.SetStr("message", leia.String(msg))
		if field != "" {
			f.SetStr("field", leia.String(field))
		}
		appendTo(findings, leia.TableValue(f))
	}
	if !optBool(graph, "provider_free", false) {
		add("provider_free", "planning graph must be provider-free", "provider_free")
	}
	for _, c := range [][2]string{{"live_network", "planning graph must not require live network"},
		{"live_model", "planning graph must not require a live model"},
		{"real_dependency_imports", "planning graph must not require real dependency imports"}} {
		if optBool(graph, c[0], false) {
			add(c[0], c[1], c[0])
		}
	}
	nodes := Field(graph, "plan_nodes")
	if nodes.Table() == nil {
		nodes = Field(graph, "nodes")
	}
	if nodes.Table() == nil || nodes.Table().Len() == 0 {
		add("plan_nodes", "planning graph must contain plan nodes", "plan_nodes")
	} else {
		seen := map[string]int{}
		for i, n := range Items(nodes) {
			if n.Table() == nil {
				add("plan_node", "plan node must be a table", "plan_nodes")
				continue
			}
			id := text(Field(n, "id"))
			if id == "" {
				add("id", "plan node must have an id", "id")
				continue
			}
			if _, dup := seen[id]; dup {
				add("duplicate_node", "plan node ids must be unique", "id")
			}
			seen[id] = i
			if text(Field(n, "node_type")) == "" {
				add("node_type", "plan node must have a node type", "node_type")
			}
			if Field(n, "retry_policy").Table() == nil {
				add("retry_policy", "plan node must have a retry policy", "retry_policy")
			}
			if Field(n, "trace_evidence").Table() == nil {
				add("trace_evidence", "plan node must have trace evidence refs", "trace_evidence")
			}
		}
		for _, e := range Items(Field(graph, "edges")) {
			if e.Table() == nil {
				add("edge", "planning graph edge must be a table", "edges")
				continue
			}
			from, to := text(Field(e, "from")), text(Field(e, "to"))
			if from == "" || to == "" {
				add("edge_endpoint", "planning graph edge must have from and to", "edges")
				continue
			}
			fi, fok := seen[from]
			ti, tok := seen[to]
			if !fok || !tok {
				add("unknown_node", "planning graph edge references an unknown node", "edges")
				continue
			}
			if fi >= ti {
				add("acyclic", "planning graph edges must be topologically ordered and acyclic", "edges")
			}
			if text(Field(e, "edge_type")) == "" {
				add("edge_type", "planning graph edge must have an edge type", "edge_type")
			}
		}
	}
	n := findings.Len()
	out.SetStr("findings", leia.TableValue(findings))
	out.SetStr("finding_count", leia.Int(int64(n)))
	out.SetStr("ok", leia.Bool(n == 0))
	if n == 0 {
		out.SetStr("status", leia.String("ok"))
	} else {
		out.SetStr("status", leia.String("failed"))
	}
	return leia.TableValue(out)
}

// PlanningTrace is llm.planning_trace: the given evidence events with
// defaults, or one completed event per node.
func PlanningTrace(graph, events, opts leia.Value) leia.Value {
	tr := leia.NewTable(0, 16)
	tr.SetStr("kind", leia.String("planning_trace"))
	tr.SetStr("schema_version", leia.Int(1))
	tr.SetStr("version", leia.String("planning_trace.v1"))
	tr.SetStr("fixture_key", leia.String(optString(opts, "fixture_key", "")))
	tr.SetStr("contract_id", leia.String(optString(opts, "contract_id", optString(graph, "id", ""))))
	tr.SetStr("provider_free", leia.True)
	for _, f := range []string{"domain_specific", "live_network", "live_model", "real_dependency_imports"} {
		tr.SetStr(f, leia.False)
	}
	tr.SetStr("run_id", leia.String(optString(opts, "run_id", "planning-run:1")))
	evs := newList()
	if items := Items(events); len(items) > 0 {
		for i, it := range items {
			if it.Table() == nil {
				continue
			}
			e := deepClone(it).Table()
			def := func(k string, v leia.Value) {
				if e.GetStr(k).IsNil() {
					e.SetStr(k, v)
				}
			}
			def("trace_id", leia.String("planning-trace"))
			def("event_id", leia.String(fmt.Sprintf("event-%d", i+1)))
			def("evidence_kind", leia.String("plan.node.completed"))
			def("sequence", leia.Int(int64(i+1)))
			def("status", leia.String("completed"))
			e.SetStr("provider_free", leia.True)
			e.SetStr("live_model", leia.False)
			def("attempt", leia.Int(1))
			appendTo(evs, leia.TableValue(e))
		}
	} else {
		nodes := Field(graph, "plan_nodes")
		if nodes.Table() == nil {
			nodes = Field(graph, "nodes")
		}
		for _, n := range Items(nodes) {
			if n.Table() == nil {
				continue
			}
			e := leia.NewTable(0, 10)
			e.SetStr("trace_id", leia.String("planning-trace"))
			e.SetStr("event_id", leia.String(text(Field(n, "id"))+":completed"))
			e.SetStr("evidence_kind", leia.String("plan.node.completed"))
			e.SetStr("plan_node_id", deepClone(Field(n, "id")))
			e.SetStr("sequence", leia.Int(int64(evs.Len()+1)))
			e.SetStr("status", leia.String("completed"))
			e.SetStr("provider_free", leia.True)
			e.SetStr("live_model", leia.False)
			e.SetStr("attempt", leia.Int(1))
			appendTo(evs, leia.TableValue(e))
		}
	}
	ev := leia.TableValue(evs)
	kind := func(k string) int64 {
		return countNodes(ev, func(e leia.Value) bool { return text(Field(e, "evidence_kind")) == k })
	}
	tr.SetStr("events", ev)
	sum := leia.NewTable(0, 6)
	sum.SetStr("plan_node_count", deepClone(Field(graph, "node_count")))
	sum.SetStr("edge_count", deepClone(Field(graph, "edge_count")))
	sum.SetStr("retry_attempt_count", leia.Int(kind("plan.retry.attempt")))
	sum.SetStr("branch_count", leia.Int(kind("plan.branch.selected")))
	sum.SetStr("merge_count", leia.Int(kind("plan.merge.completed")))
	sum.SetStr("final_status", leia.String(optString(opts, "final_status", "completed")))
	tr.SetStr("summary", leia.TableValue(sum))
	tr.SetStr("redaction", planningRedaction(opts))
	return leia.TableValue(tr)
}

// planningFamily is the llm module's natives from this file (see families).
func planningFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if leia.Arg(a, 0).Kind() != leia.KindString {
			return nil, leia.ArgError(0, "llm.plan_node", "node id string expected")
		}
		opts, err := optTable(a, 1, "llm.plan_node", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(PlanNode(a[0].AsString(), opts)), nil
	}, "plan_node")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		nodes, err := needTable(a, 0, "llm.planning_graph", "nodes table")
		if err != nil {
			return nil, err
		}
		edges, err := optTable(a, 1, "llm.planning_graph", "edges")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 2, "llm.planning_graph", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(PlanningGraph(nodes, edges, opts)), nil
	}, "planning_graph")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		g, err := needTable(a, 0, "llm.validate_planning_graph", "planning graph table")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 1, "llm.validate_planning_graph", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(ValidatePlanningGraph(g, opts)), nil
	}, "validate_planning_graph")
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		g, err := needTable(a, 0, "llm.planning_trace", "planning graph table")
		if err != nil {
			return nil, err
		}
		events, err := optTable(a, 1, "llm.planning_trace", "events")
		if err != nil {
			return nil, err
		}
		opts, err := optTable(a, 2, "llm.planning_trace", "options")
		if err != nil {
			return nil, err
		}
		return t.Ret1(PlanningTrace(g, events, opts)), nil
	}, "planning_trace")
	return m
}
