package harn

import "strings"

// Handoffs: a typed payload one persona (or stage) passes to another
// instead of its transcript. handoff normalises one (from a payload or a
// handoff artifact), handoff_context renders what the receiver reads;
// std/agents adds handoff_artifact (the handoff as a workflow artifact)
// and workflow_result_run (an ad hoc result as a run record whose
// handoffs carry a receipt link to the run).

var handoffLists = []string{"evidence_refs", "files_or_entities_touched", "open_questions", "blocked_on",
	"requested_capabilities", "allowed_side_effects", "receipt_links"}

// handoffOf normalises a handoff payload or the handoff in an artifact.
func handoffOf(c *Call, v Value) (*Dict, error) {
	d := wfCeiling(v)
	if d == nil {
		return nil, throwValue(Str("handoff: payload must be a dict"))
	}
	if OptStr(d, "_type") == "artifact" {
		if data := wfSub(d, "data"); data != nil {
			if h := wfSub(data, "handoff"); h != nil {
				d = h
			}
		}
	}
	h := d.clone()
	h.Set("_type", Str("handoff_artifact"))
	if OptStr(h, "id") == "" {
		h.Set("id", Str("handoff_"+newUUID(c)))
	}
	switch t, _ := h.Get("target_persona_or_human"); t.k {
	case KindString:
		h.Set("target_persona_or_human", DictValue(wfDict("kind", Str("persona"), "id", t, "label", t)))
	case KindDict:
		td := t.r.(*Dict).clone()
		if OptStr(td, "label") == "" {
			td.Set("label", Str(OptStr(td, "id")))
		}
		h.Set("target_persona_or_human", DictValue(td))
	}
	for _, k := range handoffLists {
		if x, ok := h.Get(k); !ok || x.k != KindList {
			h.Set(k, NewListValue(nil))
		}
	}
	return h, nil
}

// handoffText renders a handoff for its receiver.
func handoffText(h *Dict) string {
	var b strings.Builder
	target := ""
	if t := wfSub(h, "target_persona_or_human"); t != nil {
		target = OptStr(t, "label")
	}
	b.WriteString("Handoff from " + OptStr(h, "source_persona") + " to " + target + "\n")
	for _, k := range []string{"task", "reason"} {
		if s := OptStr(h, k); s != "" {
			b.WriteString(k + ": " + s + "\n")
		}
	}
	for _, k := range handoffLists {
		items := dictList(h, k)
		if len(items) == 0 || k == "receipt_links" {
			continue
		}
		b.WriteString(k + ":\n")
		for _, x := range items {
			if xd := x.AsDict(); xd != nil && k == "evidence_refs" {
				b.WriteString("- " + OptStr(xd, "label") + " (" + OptStr(xd, "artifact_id") + ")\n")
			} else {
				b.WriteString("- " + Display(x) + "\n")
			}
		}
	}
	for _, k := range []string{"budget_remaining", "deadline_checkback", "confidence"} {
		if v, ok := h.Get(k); ok && v.k != KindNil {
			b.WriteString(k + ": " + jsonText(v) + "\n")
		}
	}
	return b.String()
}

// handoffAgentsFns are the std/agents functions over handoffs and ad hoc
// workflow results.
func handoffAgentsFns() map[string]func(c *Call, args []Value) (Value, error) {
	return map[string]func(c *Call, args []Value) (Value, error){
		"handoff_artifact": func(c *Call, args []Value) (Value, error) {
			h, err := handoffOf(c, Arg(args, 0))
			if err != nil {
				return Nil, err
			}
			return DictValue(artifactOf(c, DictValue(wfDict("kind", Str("handoff"), "title", Str("Handoff: "+OptStr(h, "task")),
				"text", Str(handoffText(h)), "source", Str("handoff"), "data", DictValue(wfDict("handoff", DictValue(h))))))), nil
		},
		"workflow_result_run": func(c *Call, args []Value) (Value, error) {
			task, name, result := Display(Arg(args, 0)), Display(Arg(args, 1)), Arg(args, 2)
			text := Display(result)
			if d := wfCeiling(result); d != nil {
				text = OptStr(d, "visible_text")
				if text == "" {
					text = OptStr(d, "text")
				}
			}
			runID := "run_" + newUUID(c)
			var arts, handoffs []Value
			for _, a := range listItems(Arg(args, 3)) {
				ad := artifactOf(c, a)
				if OptStr(ad, "kind") == "handoff" {
					h, err := handoffOf(c, DictValue(ad))
					if err != nil {
						return Nil, err
					}
					links := append(dictList(h, "receipt_links"), DictValue(wfDict("kind", Str("run_receipt"), "run_id", Str(runID),
						"workflow_name", Str(name))))
					h.Set("receipt_links", NewListValue(links))
					data := wfSub(ad, "data").clone()
					data.Set("handoff", DictValue(h))
					ad.Set("data", DictValue(data))
					handoffs = append(handoffs, DictValue(h))
				}
				arts = append(arts, DictValue(ad))
			}
			stage := wfDict("_type", Str("stage_record"), "id", Str("stage_"+newUUID(c)), "node_id", Str(name), "kind", Str("stage"),
				"status", Str("completed"), "outcome", Str("success"), "visible_text", Str(text), "artifacts", NewListValue(arts))
			run := runRecord(c, DictValue(wfDict("id", Str(runID), "workflow_id", Str(name), "workflow_name", Str(name),
				"task", Str(task), "status", Str("completed"), "stages", NewListValue([]Value{DictValue(stage)}),
				"artifacts", NewListValue(arts), "handoffs", NewListValue(handoffs))))
			if o := wfCeiling(Arg(args, 4)); o != nil {
				if m := wfSub(o, "metadata"); m != nil {
					run.Set("metadata", DictValue(m))
				}
			}
			return DictValue(run), nil
		},
	}
}

func installHandoffs(lib *Library) {
	lib.Builtin("handoff", func(c *Call, args []Value) (Value, error) {
		h, err := handoffOf(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		return DictValue(h), nil
	})
	lib.Builtin("handoff_context", func(c *Call, args []Value) (Value, error) {
		h, err := handoffOf(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		return Str(handoffText(h)), nil
	})
}
