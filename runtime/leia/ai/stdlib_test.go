package ai_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lang/leia/stdlib"
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/leia/ai"
)

// elsewhere are the AI names of lang/leia/stdlib this package leaves
// to another file family, with who provides them.
var elsewhere = map[string]string{
	// issue #20 (leia-helpers), one file per family in this package
	"llm.workflow": "#20", "llm.step": "#20", "llm.stage": "#20", "llm.workflow_graph": "#20",
	"llm.validate_output": "#20", "llm.schema": "#20", "llm.schema_info": "#20", "llm.output_schema": "#20",
	"llm.doc": "#20", "llm.document": "#20", "llm.collection": "#20", "llm.docs": "#20", "llm.retrieve": "#20",
	"llm.search": "#20", "llm.context": "#20", "llm.evidence": "#20", "llm.sections": "#20", "llm.generate_sections": "#20",
	"llm.report_artifact_contract": "#20", "llm.model_io_envelope": "#20", "llm.policy": "#20", "llm.check_policy": "#20",
	"llm.policy_outcome": "#20", "llm.approval_trace": "#20", "llm.budget_outcome": "#20",
	"llm.tool_info": "#20", "llm.tool_schema": "#20", "llm.validate_tools": "#20", "llm.tool_registry": "#20",
	"llm.validate_tool_registry": "#20", "llm.tool_invocation_trace": "#20", "llm.tool_outcome": "#20",
	"llm.tool_outcome_event": "#20", "llm.agent_state_checkpoint": "#20", "llm.fixture_index": "#20",
}

// TestStdlibTableHasImplementations: every AI function the checker's
// name table lists is implemented here (or listed above with its owner),
// and every module function implemented here is in the table.
func TestStdlibTableHasImplementations(t *testing.T) {
	in := leia.New(leia.Options{})
	ai.Install(in, ai.Config{})
	var missing, extra []string
	for _, mod := range []string{"llm", "msg", "history", "chat", "loop"} {
		entry := stdlib.Lookup(mod)
		if entry == nil {
			t.Fatalf("lang/leia/stdlib has no %s module", mod)
		}
		tbl := in.GetGlobal(mod).Table()
		if tbl == nil {
			t.Fatalf("%s not installed", mod)
		}
		for name, m := range entry.Members {
			if m.Kind != stdlib.Function || elsewhere[mod+"."+name] != "" {
				continue
			}
			if !tbl.GetStr(name).IsFunction() {
				missing = append(missing, mod+"."+name)
			}
		}
		tbl.Iter(func(k, v leia.Value) bool {
			name := k.AsString()
			if _, ok := entry.Members[name]; !ok && !camel(name) {
				extra = append(extra, mod+"."+name)
			}
			return true
		})
	}
	if !in.GetGlobal("toolof").IsFunction() {
		missing = append(missing, "toolof")
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("listed in lang/leia/stdlib but not implemented: %v", missing)
	}
	if len(extra) > 0 {
		t.Logf("implemented but not in lang/leia/stdlib (modules are open, so the checker accepts them): %v", extra)
	}
}

// camel reports upstream's camelCase aliases (assistantCall, toolResult).
func camel(name string) bool { return strings.ToLower(name) != name }

// TestStdlibTableTypesMatchRuntime holds the table's parameter types of
// the AI modules to this package, as the runtime's own test does for the
// others: a parameter typed string, number, integer, table or function
// (the types the Leia checker holds arguments to) refuses a boolean.
func TestStdlibTableTypesMatchRuntime(t *testing.T) {
	in := leia.New(leia.Options{})
	ai.Install(in, ai.Config{})
	noop := leia.NewNative("noop", func(*leia.Thread, []leia.Value) ([]leia.Value, error) { return nil, nil })
	sample := func(typ string) leia.Value {
		switch strings.TrimSuffix(strings.Split(typ, "|")[0], "?") {
		case "string":
			return leia.String("a")
		case "number", "integer":
			return leia.Int(2)
		case "table":
			return leia.TableValue(leia.NewTable(0, 0))
		case "function":
			return noop
		case "boolean":
			return leia.True
		}
		return leia.Int(1)
	}
	checked := map[string]bool{"string": true, "number": true, "integer": true, "table": true, "function": true}
	var loose []string
	for _, mod := range []string{"llm", "msg", "history", "chat", "loop"} {
		tbl := in.GetGlobal(mod).Table()
		for name, e := range stdlib.Lookup(mod).Members {
			fn := tbl.GetStr(name)
			if e.Kind != stdlib.Function || !fn.IsFunction() {
				continue
			}
			for i, p := range e.Params {
				if !checkedType(p.Type, checked) {
					continue
				}
				for _, bad := range refused(p.Type, noop) {
					var args []leia.Value
					for j, q := range e.Params {
						switch {
						case j == i:
							args = append(args, bad)
						case q.Variadic || (j > i && q.Optional):
						default:
							args = append(args, sample(q.Type))
						}
					}
					if _, err := in.Call(context.Background(), fn, args...); err == nil {
						loose = append(loose, e.Name+": "+p.String()+" takes "+bad.TypeName())
						break
					}
				}
			}
		}
	}
	sort.Strings(loose)
	for _, l := range loose {
		t.Errorf("lang/leia/stdlib types a parameter this package does not check (type it any): %s", l)
	}
}

func checkedType(typ string, checked map[string]bool) bool {
	for _, alt := range strings.Split(typ, "|") {
		if !checked[alt] {
			return false
		}
	}
	return true
}

// refused are values of the kinds a parameter of type typ refuses, as
// the checker assumes (see the runtime's test of the same name).
func refused(typ string, fn leia.Value) []leia.Value {
	has := map[string]bool{}
	for _, alt := range strings.Split(typ, "|") {
		has[alt] = true
	}
	out := []leia.Value{leia.True}
	if !has["table"] {
		out = append(out, leia.TableValue(leia.NewTable(0, 0)))
	}
	if !has["function"] {
		out = append(out, fn)
	}
	if !has["string"] {
		out = append(out, leia.String("not a number"))
	}
	if !has["string"] && !has["number"] && !has["integer"] {
		out = append(out, leia.Int(3))
	}
	return out
}
