package harn

import (
	"sort"
	"strings"
)

// Workflow graphs: workflow_graph normalises a graph of named nodes and
// edges; workflow_validate and workflow_policy_report check its structure
// and its capability policies against a host ceiling; workflow_clone and
// workflow_commit copy it (a commit bumps the version and records why).
// The graph is a plain dict tagged _type "workflow_graph", so tool
// registries and their handlers inside nodes travel through unchanged.

// wfDict builds a dict from alternating keys and values.
func wfDict(kv ...any) *Dict {
	d := NewDict(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		d.Set(kv[i].(string), kv[i+1].(Value))
	}
	return d
}

// wfStrings is a list of strings as a value.
func wfStrings(xs []string) Value {
	out := make([]Value, len(xs))
	for i, x := range xs {
		out[i] = Str(x)
	}
	return NewListValue(out)
}

// wfStringList reads a list of strings; anything else is empty.
func wfStringList(v Value) []string {
	if v.k != KindList {
		return nil
	}
	var out []string
	for _, x := range v.r.(*List).SharedItems() {
		out = append(out, Display(x))
	}
	return out
}

// wfSub is d[key] as a dict, or nil.
func wfSub(d *Dict, key string) *Dict {
	if d == nil {
		return nil
	}
	v, ok := d.Get(key)
	if !ok || v.k != KindDict {
		return nil
	}
	return v.r.(*Dict)
}

// wfGraph normalises a graph config: every node has its id and a kind,
// every edge a from and a to, and the entry defaults to the first node.
func wfGraph(c *Call, v Value, fn string) (*Dict, error) {
	if v.k != KindDict {
		return nil, throwValue(Str(fn + ": graph must be a dict"))
	}
	src := v.r.(*Dict)
	g := src.clone()
	g.Set("_type", Str("workflow_graph"))
	if OptStr(g, "id") == "" {
		g.Set("id", Str("workflow_"+newUUID(c)))
	}
	if OptStr(g, "name") == "" {
		g.Set("name", Str(OptStr(g, "id")))
	}
	if n := OptInt(g, "version"); n == nil {
		g.Set("version", Int(1))
	}
	nodes := NewDict(0)
	var order []string
	addNode := func(id string, nv Value) {
		nd := NewDict(2)
		if nv.k == KindDict {
			nd = nv.r.(*Dict).clone()
		}
		nd.Set("id", Str(id))
		if OptStr(nd, "kind") == "" {
			nd.Set("kind", Str("stage"))
		}
		nodes.Set(id, DictValue(nd))
		order = append(order, id)
	}
	if nv, ok := src.Get("nodes"); ok {
		switch nv.k {
		case KindDict:
			for _, k := range nv.r.(*Dict).Keys() {
				x, _ := nv.r.(*Dict).Get(k)
				addNode(k, x)
			}
		case KindList:
			for i, x := range nv.r.(*List).SharedItems() {
				id := ""
				if x.k == KindDict {
					id = OptStr(x.r.(*Dict), "id")
				}
				if id == "" {
					id = "node_" + Display(Int(int64(i+1)))
				}
				addNode(id, x)
			}
		}
	}
	g.Set("nodes", DictValue(nodes))
	var edges []Value
	if ev, ok := src.Get("edges"); ok && ev.k == KindList {
		for _, e := range ev.r.(*List).SharedItems() {
			if e.k != KindDict {
				continue
			}
			edges = append(edges, DictValue(e.r.(*Dict).clone()))
		}
	}
	g.Set("edges", NewListValue(edges))
	if OptStr(g, "entry") == "" && len(order) > 0 {
		g.Set("entry", Str(order[0]))
	}
	if _, ok := g.Get("audit_log"); !ok {
		g.Set("audit_log", NewListValue(nil))
	}
	return g, nil
}

// wfNodes is the graph's nodes by id.
func wfNodes(g *Dict) map[string]*Dict {
	out := map[string]*Dict{}
	if nodes := wfSub(g, "nodes"); nodes != nil {
		for _, k := range nodes.Keys() {
			v, _ := nodes.Get(k)
			if v.k == KindDict {
				out[k] = v.r.(*Dict)
			}
		}
	}
	return out
}

// wfEdges is the graph's edges.
func wfEdges(g *Dict) []*Dict {
	var out []*Dict
	for _, e := range dictList(g, "edges") {
		if e.k == KindDict {
			out = append(out, e.r.(*Dict))
		}
	}
	return out
}

// sideEffectRank orders side-effect levels from none to network.
var sideEffectRank = map[string]int{
	"none": 0, "read_only": 1, "workspace_write": 2, "process_exec": 3, "network": 4,
}

// wfPolicyErrors compares one capability policy (and a node's tools)
// with the host ceiling.
func wfPolicyErrors(where string, policy *Dict, tools Value, ceiling *Dict) []string {
	if ceiling == nil {
		return nil
	}
	var errs []string
	if policy != nil {
		if caps := wfSub(policy, "capabilities"); caps != nil {
			allowed := wfSub(ceiling, "capabilities")
			for _, cap := range caps.Keys() {
				ops, _ := caps.Get(cap)
				var have []string
				if allowed != nil {
					hv, _ := allowed.Get(cap)
					have = wfStringList(hv)
				}
				for _, op := range wfStringList(ops) {
					if !containsString(have, op) {
						errs = append(errs, where+" requests capability "+cap+"."+op+" beyond the host ceiling")
					}
				}
			}
		}
		if lvl := OptStr(policy, "side_effect_level"); lvl != "" {
			if max := OptStr(ceiling, "side_effect_level"); max != "" && sideEffectRank[lvl] > sideEffectRank[max] {
				errs = append(errs, where+" side_effect_level "+lvl+" exceeds the host ceiling "+max)
			}
		}
	}
	if tv, ok := ceiling.Get("tools"); ok && tv.k == KindList && tools.k != KindNil {
		allowed := wfStringList(tv)
		for _, name := range wfToolNames(tools) {
			if !containsString(allowed, name) {
				errs = append(errs, where+" tool "+name+" is not allowed by the host ceiling")
			}
		}
	}
	return errs
}

// wfToolNames are the names of the tools of a registry or tool list.
func wfToolNames(tools Value) []string {
	var items []Value
	switch tools.k {
	case KindList:
		items = tools.r.(*List).SharedItems()
	case KindDict:
		items = dictList(tools.r.(*Dict), "tools")
	}
	var out []string
	for _, t := range items {
		switch t.k {
		case KindString:
			out = append(out, t.AsString())
		case KindDict:
			if n := OptStr(t.r.(*Dict), "name"); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// wfValidate checks the graph's structure and, given a ceiling, its
// policies.
func wfValidate(g *Dict, ceiling *Dict) *Dict {
	nodes := wfNodes(g)
	var errs, warns []string
	entry := OptStr(g, "entry")
	if len(nodes) == 0 {
		errs = append(errs, "workflow has no nodes")
	}
	if _, ok := nodes[entry]; !ok {
		errs = append(errs, "entry node "+entry+" does not exist")
	}
	succ := map[string][]string{}
	for _, e := range wfEdges(g) {
		from, to := OptStr(e, "from"), OptStr(e, "to")
		if _, ok := nodes[from]; !ok {
			errs = append(errs, "edge source "+from+" does not exist")
		}
		if _, ok := nodes[to]; !ok {
			errs = append(errs, "edge target "+to+" does not exist")
		}
		succ[from] = append(succ[from], to)
	}
	reach := map[string]bool{}
	var walkFrom func(string)
	walkFrom = func(id string) {
		if reach[id] {
			return
		}
		if _, ok := nodes[id]; !ok {
			return
		}
		reach[id] = true
		for _, n := range succ[id] {
			walkFrom(n)
		}
	}
	walkFrom(entry)
	ids := make([]string, 0, len(nodes))
	for id := range nodes {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var reachable []string
	for _, id := range ids {
		if reach[id] {
			reachable = append(reachable, id)
		} else {
			warns = append(warns, "node "+id+" is unreachable from the entry")
		}
	}
	errs = append(errs, wfPolicyErrors("workflow", wfSub(g, "capability_policy"), Nil, ceiling)...)
	for _, id := range ids {
		n := nodes[id]
		tools, _ := n.Get("tools")
		errs = append(errs, wfPolicyErrors("node "+id, wfSub(n, "capability_policy"), tools, ceiling)...)
		if wp, np := wfSub(g, "capability_policy"), wfSub(n, "capability_policy"); wp != nil && np != nil {
			for _, e := range wfPolicyErrors("node "+id, np, Nil, wp) {
				warns = append(warns, strings.Replace(e, "host ceiling", "workflow policy", 1))
			}
		}
	}
	return wfDict("valid", Bool(len(errs) == 0), "errors", wfStrings(errs), "warnings", wfStrings(warns),
		"reachable_nodes", wfStrings(reachable))
}

func wfCeiling(v Value) *Dict {
	if v.k == KindDict {
		return v.r.(*Dict)
	}
	return nil
}

func installWorkflow(lib *Library) {
	lib.Builtin("workflow_graph", func(c *Call, args []Value) (Value, error) {
		g, err := wfGraph(c, Arg(args, 0), "workflow_graph")
		if err != nil {
			return Nil, err
		}
		return DictValue(g), nil
	})
	lib.Builtin("workflow_validate", func(c *Call, args []Value) (Value, error) {
		g, err := wfGraph(c, Arg(args, 0), "workflow_validate")
		if err != nil {
			return Nil, err
		}
		return DictValue(wfValidate(g, wfCeiling(Arg(args, 1)))), nil
	})
	lib.Builtin("workflow_policy_report", func(c *Call, args []Value) (Value, error) {
		g, err := wfGraph(c, Arg(args, 0), "workflow_policy_report")
		if err != nil {
			return Nil, err
		}
		ceiling := wfCeiling(Arg(args, 1))
		nodes := NewDict(0)
		for id, n := range wfNodes(g) {
			p, _ := n.Get("capability_policy")
			nodes.Set(id, p)
		}
		wp, _ := g.Get("capability_policy")
		return DictValue(wfDict("workflow_policy", wp, "ceiling", Arg(args, 1), "nodes", DictValue(nodes),
			"validation", DictValue(wfValidate(g, ceiling)))), nil
	})
	lib.Builtin("workflow_inspect", func(c *Call, args []Value) (Value, error) {
		g, err := wfGraph(c, Arg(args, 0), "workflow_inspect")
		if err != nil {
			return Nil, err
		}
		return DictValue(wfDict("graph", DictValue(g), "node_count", Int(int64(len(wfNodes(g)))),
			"edge_count", Int(int64(len(wfEdges(g)))), "validation", DictValue(wfValidate(g, wfCeiling(Arg(args, 1)))))), nil
	})
	lib.Builtin("workflow_clone", func(c *Call, args []Value) (Value, error) {
		g, err := wfGraph(c, Arg(args, 0), "workflow_clone")
		if err != nil {
			return Nil, err
		}
		return DictValue(g), nil
	})
	lib.Builtin("workflow_commit", func(c *Call, args []Value) (Value, error) {
		g, err := wfGraph(c, Arg(args, 0), "workflow_commit")
		if err != nil {
			return Nil, err
		}
		version := int64(1)
		if n := OptInt(g, "version"); n != nil {
			version = *n
		}
		g.Set("version", Int(version+1))
		log := append(dictList(g, "audit_log"), DictValue(wfDict("op", Str("commit"), "reason", Arg(args, 1),
			"version", Int(version+1))))
		g.Set("audit_log", NewListValue(log))
		return DictValue(g), nil
	})
}
