package ai

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Workflows: llm.step(name, fn, opts) and llm.stage(name, fn, opts) make
// step tables; llm.workflow(steps, fixtures?) makes a sequential runner
// {__llm_workflow, steps, run(input, opts), mock(fixtures)};
// llm.workflow_graph(config, fixtures?) checks a static stage graph
// (depends_on and edges point to earlier stages) and runs the same
// runner in the given order.
//
// run calls each step's fn with a context table {name, index, stage,
// input, initial_input, previous, results, context, opts?}: input is
// the previous step's text (or value, or raw result), previous the
// previous step's record, results the records so far, context the
// records by name. A step returns (value, err); a non-nil err stops the
// run and is returned as the workflow's error. Each record is {name,
// index, stage, status ok|error, input, result, value, text, err,
// mocked, trace}; the result is {status ok|error, err?, input, value,
// text, result, steps, context, trace} (plus workflow_id, entrypoint and
// graph for graphs), returned with the error.
//
// Fixtures (mock(fixtures), run(input, {mock: fixtures}), or a graph's
// fixtures field) replace steps: looked up by the step's fixture_key,
// then its name, then its 1-based index. A fixture table's result field
// is the step's raw result, its value/text fields make {value, text},
// its err field the step's error; any other value is the result itself.
//
// Trace nodes follow the agent_tool.v1 contract: each record's trace is
// {type: "workflow_step", name, status, parent: {type: "workflow",
// name: "workflow", status}, children, error, budget, cancel, metadata:
// {index, mocked, stage, capability?, fixture_key?, input_ref?,
// output_ref?, input_schema?, output_schema?, depends_on?}}, the
// workflow's trace a "workflow" node with the step traces as children.
//
// Nothing here schedules, retries, runs in parallel or persists: steps
// run in order inside the caller's run, and replay sees only the turns
// step bodies make.

// stageMetaFields are the stage options kept in graph metadata and in
// each step's trace.metadata.
var stageMetaFields = []string{"capability", "fixture_key", "input_ref", "output_ref", "input_schema", "output_schema"}

type workflowStep struct {
	name  string
	fn    leia.Value
	opts  leia.Value
	stage bool
}

func stepTable(name string, fn, opts leia.Value, stage bool) leia.Value {
	t := leia.NewTable(0, 5)
	t.SetStr("__llm_workflow_step", leia.True)
	if stage {
		t.SetStr("__llm_workflow_stage", leia.True)
	}
	t.SetStr("name", leia.String(name))
	t.SetStr("fn", fn)
	if opts.Table() != nil {
		t.SetStr("opts", opts)
	}
	return leia.TableValue(t)
}

// parseSteps reads a steps list (or a table with a steps field, or one
// step); fname names the helper in errors.
func parseSteps(v leia.Value, fname string) ([]workflowStep, error) {
	src := v
	if s := Field(v, "steps"); s.Table() != nil {
		src = s
	}
	if Field(src, "fn").IsFunction() || Field(src, "__llm_workflow_step").Truthy() {
		st, err := parseStep(src, 1)
		if err != nil {
			return nil, err
		}
		return []workflowStep{st}, nil
	}
	var steps []workflowStep
	t := src.Table()
	if t == nil {
		return nil, fmt.Errorf("bad argument #1 to '%s' (steps table expected)", fname)
	}
	for i := 1; i <= t.Len(); i++ {
		it := t.GetInt(int64(i))
		if it.IsNil() {
			continue
		}
		st, err := parseStep(it, i)
		if err != nil {
			return nil, err
		}
		steps = append(steps, st)
	}
	if len(steps) == 0 {
		return nil, fmt.Errorf("%s requires at least one step", fname)
	}
	return steps, nil
}

func parseStep(v leia.Value, index int) (workflowStep, error) {
	if v.IsFunction() {
		return workflowStep{name: fmt.Sprintf("step_%d", index), fn: v}, nil
	}
	if v.Table() == nil {
		return workflowStep{}, fmt.Errorf("bad workflow step #%d (step table or function expected)", index)
	}
	fn := Field(v, "fn")
	if !fn.IsFunction() {
		return workflowStep{}, fmt.Errorf("bad workflow step #%d (fn function expected)", index)
	}
	name := text(Field(v, "name"))
	if name == "" {
		name = fmt.Sprintf("step_%d", index)
	}
	return workflowStep{name: name, fn: fn, opts: Field(v, "opts"), stage: Field(v, "__llm_workflow_stage").Truthy()}, nil
}

// workflowGraph is a validated graph contract.
type workflowGraph struct {
	id, entrypoint string
	steps          []workflowStep
	meta           leia.Value
	fixtures       leia.Value
}

func dependsOn(st workflowStep) []string { return stringItems(Field(st.opts, "depends_on")) }

func parseGraph(config leia.Value) (*workflowGraph, error) {
	stages := Field(config, "stages")
	if stages.Table() == nil {
		stages = Field(config, "steps")
	}
	if stages.Table() == nil {
		return nil, fmt.Errorf("llm.workflow_graph requires a stages table")
	}
	steps, err := parseSteps(stages, "llm.workflow_graph")
	if err != nil {
		return nil, err
	}
	var edges [][2]string
	if e := Field(config, "edges"); !e.IsNil() {
		if e.Table() == nil {
			return nil, fmt.Errorf("llm.workflow_graph edges must be a table")
		}
		for i, it := range Items(e) {
			if it.Table() == nil {
				return nil, fmt.Errorf("llm.workflow_graph edge #%d must be a table", i+1)
			}
			from, to := optString(it, "from", ""), optString(it, "to", "")
			if from == "" {
				from = text(it.Table().GetInt(1))
			}
			if to == "" {
				to = text(it.Table().GetInt(2))
			}
			if from == "" || to == "" {
				return nil, fmt.Errorf("llm.workflow_graph edge #%d requires from and to stages", i+1)
			}
			edges = append(edges, [2]string{from, to})
		}
	}
	seen := map[string]int{}
	for i, st := range steps {
		if _, dup := seen[st.name]; dup {
			return nil, fmt.Errorf("llm.workflow_graph duplicate stage %q", st.name)
		}
		for _, dep := range dependsOn(st) {
			if _, ok := seen[dep]; !ok {
				return nil, fmt.Errorf("llm.workflow_graph stage %q depends on unknown or later stage %q", st.name, dep)
			}
		}
		seen[st.name] = i
	}
	for _, e := range edges {
		fi, fok := seen[e[0]]
		ti, tok := seen[e[1]]
		if !fok || !tok {
			return nil, fmt.Errorf("llm.workflow_graph edge references unknown stage %q -> %q", e[0], e[1])
		}
		if fi >= ti {
			return nil, fmt.Errorf("llm.workflow_graph edge %q -> %q is not topologically ordered", e[0], e[1])
		}
	}
	g := &workflowGraph{
		id:         optString(config, "workflow_id", "workflow"),
		entrypoint: optString(config, "entrypoint", "workflow.run"),
		steps:      steps,
		fixtures:   Field(config, "fixtures"),
	}
	meta := leia.NewTable(0, 8)
	meta.SetStr("workflow_id", leia.String(g.id))
	meta.SetStr("entrypoint", leia.String(g.entrypoint))
	meta.SetStr("provider_free", leia.Bool(optBool(config, "provider_free", true)))
	meta.SetStr("live_network", leia.Bool(optBool(config, "live_network", false)))
	meta.SetStr("real_dependency_imports", leia.Bool(optBool(config, "real_dependency_imports", false)))
	list := newList()
	for _, st := range steps {
		item := leia.NewTable(0, 10)
		item.SetStr("id", leia.String(st.name))
		item.SetStr("name", leia.String(st.name))
		item.SetStr("stage", leia.Bool(st.stage))
		item.SetStr("depends_on", StringList(dependsOn(st)))
		for _, f := range stageMetaFields {
			if v := Field(st.opts, f); !v.IsNil() {
				item.SetStr(f, v)
			}
		}
		appendTo(list, leia.TableValue(item))
	}
	meta.SetStr("stages", leia.TableValue(list))
	el := newList()
	for _, e := range edges {
		appendTo(el, T("from", e[0], "to", e[1]))
	}
	meta.SetStr("edges", leia.TableValue(el))
	g.meta = leia.TableValue(meta)
	return g, nil
}

// newWorkflow builds the workflow value; graph is nil for llm.workflow.
func (rt *Runtime) newWorkflow(steps []workflowStep, fixtures leia.Value, graph *workflowGraph) leia.Value {
	w := leia.NewTable(0, 8)
	self := leia.TableValue(w)
	w.SetStr("__llm_workflow", leia.True)
	list := newList()
	for _, st := range steps {
		item := leia.NewTable(0, 3)
		item.SetStr("name", leia.String(st.name))
		if st.stage {
			item.SetStr("stage", leia.True)
		}
		if !st.opts.IsNil() {
			item.SetStr("opts", st.opts)
		}
		appendTo(list, leia.TableValue(item))
	}
	w.SetStr("steps", leia.TableValue(list))
	kind := "llm.workflow"
	if graph != nil {
		kind = "llm.workflow_graph"
		w.SetStr("__llm_workflow_graph", leia.True)
		w.SetStr("workflow_id", leia.String(graph.id))
		w.SetStr("entrypoint", leia.String(graph.entrypoint))
		w.SetStr("graph", graph.meta)
	}
	// Methods are called with a dot (flow.run(x)); a colon call passes the
	// workflow itself first, which is skipped.
	args := func(a []leia.Value) []leia.Value {
		if len(a) > 0 && a[0].Table() == w {
			return a[1:]
		}
		return a
	}
	w.SetStr("run", leia.NewNative(kind+".run", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		a = args(a)
		fx := fixtures
		if m := Field(leia.Arg(a, 1), "mock"); m.Table() != nil {
			fx = m
		}
		res, errValue := rt.runWorkflow(t, steps, leia.Arg(a, 0), fx)
		if graph != nil {
			res.SetStr("workflow_id", leia.String(graph.id))
			res.SetStr("entrypoint", leia.String(graph.entrypoint))
			res.SetStr("graph", graph.meta)
		}
		return t.Ret2(leia.TableValue(res), errValue), nil
	}))
	w.SetStr("mock", leia.NewNative(kind+".mock", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		a = args(a)
		if leia.Arg(a, 0).Table() == nil {
			return nil, fmt.Errorf("bad argument #1 to '%s.mock' (fixtures table expected)", kind)
		}
		return t.Ret1(rt.newWorkflow(steps, a[0], graph)), nil
	}))
	return self
}

// runWorkflow runs the steps in order.
func (rt *Runtime) runWorkflow(t *leia.Thread, steps []workflowStep, initial, fixtures leia.Value) (*leia.Table, leia.Value) {
	records := newList()
	named := leia.NewTable(0, len(steps))
	children := newList()
	input, previous, last, failure := initial, leia.Nil, leia.Nil, leia.Nil
	for i, st := range steps {
		rec := rt.runStep(t, st, i+1, initial, input, previous, leia.TableValue(records), leia.TableValue(named), fixtures)
		rv := leia.TableValue(rec)
		records.Append(rv)
		named.SetStr(st.name, rv)
		if tr := rec.GetStr("trace"); !tr.IsNil() {
			children.Append(tr)
		}
		last, previous = rv, rv
		if e := rec.GetStr("err"); !e.IsNil() {
			failure = e
			break
		}
		input = nextInput(rec)
	}
	status := "ok"
	res := leia.NewTable(0, 12)
	if !failure.IsNil() {
		status = "error"
		res.SetStr("err", failure)
	}
	for _, tr := range Items(leia.TableValue(children)) {
		if p := Field(tr, "parent"); p.Table() != nil {
			p.Table().SetStr("status", leia.String(status))
		}
	}
	res.SetStr("status", leia.String(status))
	res.SetStr("input", initial)
	res.SetStr("text", leia.String(""))
	if lt := last.Table(); lt != nil {
		res.SetStr("value", lt.GetStr("value"))
		res.SetStr("text", lt.GetStr("text"))
		res.SetStr("result", lt.GetStr("result"))
	}
	res.SetStr("steps", leia.TableValue(records))
	res.SetStr("context", leia.TableValue(named))
	res.SetStr("trace", traceNode("workflow", "workflow", status, leia.Nil, leia.TableValue(children), failure))
	return res, failure
}

func (rt *Runtime) runStep(t *leia.Thread, st workflowStep, index int, initial, input, previous, results, named, fixtures leia.Value) *leia.Table {
	if fx := workflowFixture(fixtures, st, index); !fx.IsNil() {
		value, errValue := normalizeFixture(fx)
		rt.Emit(llm.TraceEvent{Type: "workflow_step", Step: int64(index), Status: stepStatus(errValue), Message: "fixture"})
		return stepRecord(st, index, input, value, errValue, true)
	}
	ctx := leia.NewTable(0, 10)
	ctx.SetStr("name", leia.String(st.name))
	ctx.SetStr("index", leia.Int(int64(index)))
	ctx.SetStr("stage", leia.Bool(st.stage))
	ctx.SetStr("input", input)
	ctx.SetStr("initial_input", initial)
	ctx.SetStr("previous", previous)
	ctx.SetStr("results", results)
	ctx.SetStr("context", named)
	if !st.opts.IsNil() {
		ctx.SetStr("opts", st.opts)
	}
	rets := t.Call(st.fn, leia.TableValue(ctx))
	value, errValue := leia.Arg(rets, 0), leia.Arg(rets, 1)
	rt.Emit(llm.TraceEvent{Type: "workflow_step", Step: int64(index), Status: stepStatus(errValue)})
	return stepRecord(st, index, input, value, errValue, false)
}

func stepStatus(errValue leia.Value) string {
	if errValue.IsNil() {
		return "ok"
	}
	return "error"
}

func workflowFixture(fixtures leia.Value, st workflowStep, index int) leia.Value {
	f := fixtures.Table()
	if f == nil {
		return leia.Nil
	}
	if key := optString(st.opts, "fixture_key", ""); key != "" {
		if v := f.GetStr(key); !v.IsNil() {
			return v
		}
	}
	if v := f.GetStr(st.name); !v.IsNil() {
		return v
	}
	return f.GetInt(int64(index))
}

func normalizeFixture(v leia.Value) (leia.Value, leia.Value) {
	if v.Table() == nil {
		return v, leia.Nil
	}
	errValue := Field(v, "err")
	if r := Field(v, "result"); !r.IsNil() {
		return r, errValue
	}
	if !Field(v, "value").IsNil() || !Field(v, "text").IsNil() {
		out := leia.NewTable(0, 2)
		if x := Field(v, "value"); !x.IsNil() {
			out.SetStr("value", x)
		}
		if x := Field(v, "text"); !x.IsNil() {
			out.SetStr("text", x)
		}
		return leia.TableValue(out), errValue
	}
	return v, errValue
}

func stepRecord(st workflowStep, index int, input, value, errValue leia.Value, mocked bool) *leia.Table {
	status := stepStatus(errValue)
	rec := leia.NewTable(0, 12)
	rec.SetStr("name", leia.String(st.name))
	rec.SetStr("index", leia.Int(int64(index)))
	rec.SetStr("stage", leia.Bool(st.stage))
	rec.SetStr("status", leia.String(status))
	rec.SetStr("input", input)
	rec.SetStr("result", value)
	rec.SetStr("value", outputValue(value))
	rec.SetStr("text", leia.String(outputText(value)))
	rec.SetStr("err", errValue)
	rec.SetStr("mocked", leia.Bool(mocked))
	parent := T("type", "workflow", "name", "workflow", "status", "")
	tr := traceNode("workflow_step", st.name, status, parent, leia.Nil, errValue)
	meta := leia.NewTable(0, 10)
	meta.SetStr("index", leia.Int(int64(index)))
	meta.SetStr("mocked", leia.Bool(mocked))
	meta.SetStr("stage", leia.Bool(st.stage))
	for _, f := range stageMetaFields {
		if v := Field(st.opts, f); !v.IsNil() {
			meta.SetStr(f, deepClone(v))
		}
	}
	if v := Field(st.opts, "depends_on"); !v.IsNil() {
		meta.SetStr("depends_on", deepClone(v))
	}
	tr.Table().SetStr("metadata", leia.TableValue(meta))
	rec.SetStr("trace", tr)
	return rec
}

// outputValue is a step result's value field, or the result itself.
func outputValue(v leia.Value) leia.Value {
	if x := Field(v, "value"); !x.IsNil() {
		return x
	}
	return v
}

// outputText is a step result's text field, its value's text, or the
// result as text.
func outputText(v leia.Value) string {
	if v.Table() != nil {
		if x := Field(v, "text"); x.Kind() == leia.KindString {
			return x.AsString()
		}
		if x := Field(v, "value"); !x.IsNil() {
			return text(x)
		}
	}
	return text(v)
}

func nextInput(rec *leia.Table) leia.Value {
	if x := rec.GetStr("text"); x.Kind() == leia.KindString && x.AsString() != "" {
		return x
	}
	if x := rec.GetStr("value"); !x.IsNil() {
		return x
	}
	return rec.GetStr("result")
}

// workflowFamily is the llm module's natives from this file (see families).
func workflowFamily(rt *Runtime) map[string]leia.NativeFunc {
	step := func(name string, stage bool) leia.NativeFunc {
		return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Kind() != leia.KindString || !leia.Arg(a, 1).IsFunction() {
				return nil, fmt.Errorf("bad argument to 'llm.%s' (name, function expected)", name)
			}
			opts := leia.Arg(a, 2)
			if opts.Table() == nil {
				opts = leia.Nil
			}
			return t.Ret1(stepTable(a[0].AsString(), a[1], opts, stage)), nil
		}
	}
	return map[string]leia.NativeFunc{
		"step":  step("step", false),
		"stage": step("stage", true),
		"workflow": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil {
				return nil, fmt.Errorf("bad argument #1 to 'llm.workflow' (steps table expected)")
			}
			steps, err := parseSteps(a[0], "llm.workflow")
			if err != nil {
				return nil, err
			}
			fx := leia.Arg(a, 1)
			if fx.Table() == nil {
				fx = leia.Nil
			}
			return t.Ret1(rt.newWorkflow(steps, fx, nil)), nil
		},
		"workflow_graph": func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if leia.Arg(a, 0).Table() == nil {
				return nil, fmt.Errorf("bad argument #1 to 'llm.workflow_graph' (config table expected)")
			}
			g, err := parseGraph(a[0])
			if err != nil {
				return nil, err
			}
			fx := g.fixtures
			if f := leia.Arg(a, 1); f.Table() != nil {
				fx = f
			}
			return t.Ret1(rt.newWorkflow(g.steps, fx, g)), nil
		},
	}
}
