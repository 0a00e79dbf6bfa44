package harn

// std/agents: helpers over worker handles (what sub_agent_run with
// background: true and wait_agent return): the request a worker was
// spawned with and its planning fields, its provenance and its result.
// worker_trigger re-runs a worker spawned with carry.retriggerable.

// workerField is key of a worker handle's sub-dict sub ("" for the
// handle itself).
func workerField(v Value, sub, key string) Value {
	if v.k != KindDict {
		return Nil
	}
	d := v.r.(*Dict)
	if sub != "" {
		s, ok := d.Get(sub)
		if !ok || s.k != KindDict {
			return Nil
		}
		d = s.r.(*Dict)
	}
	if key == "" {
		return DictValue(d)
	}
	out, _ := d.Get(key)
	return out
}

func stdAgents() map[string]func(c *Call, args []Value) (Value, error) {
	listOf := func(key string) func(c *Call, args []Value) (Value, error) {
		return func(c *Call, args []Value) (Value, error) {
			if v := workerField(Arg(args, 0), "request", key); v.k == KindList {
				return v, nil
			}
			return NewListValue(nil), nil
		}
	}
	return map[string]func(c *Call, args []Value) (Value, error){
		"worker_request": func(c *Call, args []Value) (Value, error) {
			return workerField(Arg(args, 0), "", "request"), nil
		},
		"worker_provenance": func(c *Call, args []Value) (Value, error) {
			return workerField(Arg(args, 0), "", "provenance"), nil
		},
		"worker_result": func(c *Call, args []Value) (Value, error) {
			return workerField(Arg(args, 0), "", "result"), nil
		},
		"worker_research_questions": listOf("research_questions"),
		"worker_action_items":       listOf("action_items"),
		"worker_workflow_stages":    listOf("workflow_stages"),
		"worker_verification_steps": listOf("verification_steps"),
		"worker_trigger": func(c *Call, args []Value) (Value, error) {
			w, err := workerArg(c, Arg(args, 0), "worker_trigger")
			if err != nil {
				return Nil, err
			}
			if w.carry.k != KindDict || !optBool(w.carry.r.(*Dict), "retriggerable") {
				return Nil, throwValue(Str("worker_trigger: worker '" + w.id + "' is not retriggerable"))
			}
			w.task = Arg(args, 1)
			if err := runWorker(c, w); err != nil {
				return Nil, err
			}
			return w.handle(), nil
		},
	}
}

func installStdAgents(lib *Library) {
	fns := stdAgents()
	for name, fn := range handoffAgentsFns() {
		fns[name] = fn
	}
	lib.StdModule("std/agents", fns)
}
