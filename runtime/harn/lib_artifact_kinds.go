package harn

import (
	"path/filepath"
	"strings"
)

// Typed artifact constructors (workspace files, command and test
// results, diffs and their reviews) and evaluation suites over saved run
// records. An artifact made from a target (a review of a diff, a decision
// on a review) is derived from it: its lineage is the target's lineage
// plus the target.

// typedArtifact normalises an artifact of a kind with extra fields merged
// last.
func typedArtifact(c *Call, kind string, extra Value, kv ...any) Value {
	d := wfDict(kv...)
	d.Set("kind", Str(kind))
	if e := wfCeiling(extra); e != nil {
		for _, k := range e.Keys() {
			v, _ := e.Get(k)
			d.Set(k, v)
		}
	}
	return DictValue(artifactOf(c, DictValue(d)))
}

// derivedFields are the lineage fields of an artifact made from target.
func derivedFields(c *Call, target Value) []any {
	if target.k != KindDict {
		return nil
	}
	t := artifactOf(c, target)
	lineage := append(dictList(t, "lineage"), Str(OptStr(t, "id")))
	return []any{"lineage", NewListValue(lineage), "parent_id", Str(OptStr(t, "id"))}
}

// lineDiff is a line-by-line diff of two texts.
func lineDiff(path, before, after string) string {
	var b strings.Builder
	b.WriteString("--- a/" + path + "\n+++ b/" + path + "\n")
	ol, nl := strings.Split(before, "\n"), strings.Split(after, "\n")
	for i := 0; i < len(ol) || i < len(nl); i++ {
		switch {
		case i >= len(ol):
			b.WriteString("+" + nl[i] + "\n")
		case i >= len(nl):
			b.WriteString("-" + ol[i] + "\n")
		case ol[i] == nl[i]:
			b.WriteString(" " + ol[i] + "\n")
		default:
			b.WriteString("-" + ol[i] + "\n+" + nl[i] + "\n")
		}
	}
	return b.String()
}

func textOf(v Value) Value {
	if v.k == KindString {
		return v
	}
	return Str(jsonText(v))
}

func installArtifactKinds(lib *Library) {
	lib.Builtin("artifact_workspace_file", func(c *Call, args []Value) (Value, error) {
		p := Display(Arg(args, 0))
		return typedArtifact(c, "workspace_file", Arg(args, 2), "title", Str(p), "path", Str(p),
			"text", textOf(Arg(args, 1)), "source", Str("workspace")), nil
	})
	lib.Builtin("artifact_workspace_snapshot", func(c *Call, args []Value) (Value, error) {
		paths := Arg(args, 0)
		if paths.k == KindString {
			paths = NewListValue([]Value{paths})
		}
		return typedArtifact(c, "workspace_snapshot", Arg(args, 2), "title", Str("Workspace snapshot"),
			"text", Str(Display(Arg(args, 1))), "data", DictValue(wfDict("paths", paths)), "source", Str("workspace")), nil
	})
	lib.Builtin("artifact_editor_selection", func(c *Call, args []Value) (Value, error) {
		p := Display(Arg(args, 0))
		return typedArtifact(c, "editor_selection", Arg(args, 2), "title", Str(p), "path", Str(p),
			"text", textOf(Arg(args, 1)), "source", Str("editor")), nil
	})
	for _, k := range []struct{ fn, kind string }{
		{"artifact_verification_result", "verification_result"}, {"artifact_test_result", "test_result"}} {
		kind := k.kind
		lib.Builtin(k.fn, func(c *Call, args []Value) (Value, error) {
			return typedArtifact(c, kind, Arg(args, 2), "title", Str(Display(Arg(args, 0))), "text", textOf(Arg(args, 1)),
				"source", Str("verification")), nil
		})
	}
	lib.Builtin("artifact_command_result", func(c *Call, args []Value) (Value, error) {
		out := Arg(args, 1)
		kv := []any{"title", Str(Display(Arg(args, 0))), "text", textOf(out), "source", Str("command"),
			"data", DictValue(wfDict("command", Str(Display(Arg(args, 0))), "output", out))}
		return typedArtifact(c, "command_result", Arg(args, 2), kv...), nil
	})
	lib.Builtin("artifact_diff", func(c *Call, args []Value) (Value, error) {
		p := Display(Arg(args, 0))
		before, after := Display(Arg(args, 1)), Display(Arg(args, 2))
		return typedArtifact(c, "diff", Arg(args, 3), "title", Str(p), "path", Str(p), "text", Str(lineDiff(p, before, after)),
			"data", DictValue(wfDict("path", Str(p), "before", Str(before), "after", Str(after))), "source", Str("workspace")), nil
	})
	lib.Builtin("artifact_git_diff", func(c *Call, args []Value) (Value, error) {
		return typedArtifact(c, "git_diff", Arg(args, 1), "title", Str("git diff"), "text", Str(Display(Arg(args, 0))),
			"source", Str("git")), nil
	})
	targeted := func(fn, kind, field string) {
		lib.Builtin(fn, func(c *Call, args []Value) (Value, error) {
			kv := append(derivedFields(c, Arg(args, 0)), "text", Str(Display(Arg(args, 1))))
			if field != "" {
				kv = append(kv, field, Arg(args, 1))
			}
			return typedArtifact(c, kind, Arg(args, 2), kv...), nil
		})
	}
	targeted("artifact_diff_review", "diff_review", "summary")
	targeted("artifact_review_decision", "review_decision", "decision")
	targeted("artifact_patch_proposal", "patch_proposal", "patch")
	targeted("artifact_apply_intent", "apply_intent", "intent")
	lib.Builtin("artifact_verification_bundle", func(c *Call, args []Value) (Value, error) {
		return typedArtifact(c, "verification_bundle", Arg(args, 2), "title", Str(Display(Arg(args, 0))),
			"data", DictValue(wfDict("checks", Arg(args, 1))), "source", Str("verification")), nil
	})
	lib.Builtin("eval_suite_manifest", func(c *Call, args []Value) (Value, error) {
		m := NewDict(4)
		if p := wfCeiling(Arg(args, 0)); p != nil {
			m = p.clone()
		}
		m.Set("_type", Str("eval_suite_manifest"))
		if OptStr(m, "id") == "" {
			m.Set("id", Str("eval_suite_"+newUUID(c)))
		}
		if v, ok := m.Get("cases"); !ok || v.k != KindList {
			m.Set("cases", NewListValue(nil))
		}
		return DictValue(m), nil
	})
	lib.Builtin("eval_suite_run", func(c *Call, args []Value) (Value, error) {
		m := wfCeiling(Arg(args, 0))
		if m == nil {
			return Nil, throwValue(Str("eval_suite_run: manifest must be a dict"))
		}
		base := OptStr(m, "base_dir")
		resolve := func(p string) string {
			if base != "" && !filepath.IsAbs(p) {
				return filepath.Join(base, p)
			}
			return p
		}
		load := func(p string) (*Dict, error) {
			b, err := c.th.in.host.ReadFile(runPath(c, resolve(p)))
			if err != nil {
				return nil, ioError("eval_suite_run: failed to read "+resolve(p), err)
			}
			v, err := ParseJSON(string(b))
			if err != nil {
				return nil, throwValue(Str("eval_suite_run: " + resolve(p) + ": " + err.Error()))
			}
			return runRecord(c, v), nil
		}
		var cases []Value
		passed := 0
		for _, cv := range dictList(m, "cases") {
			cd := cv.AsDict()
			if cd == nil {
				continue
			}
			var run *Dict
			if rv := wfSub(cd, "run"); rv != nil {
				run = runRecord(c, DictValue(rv))
			} else {
				r, err := load(OptStr(cd, "run_path"))
				if err != nil {
					return Nil, err
				}
				run = r
			}
			fixture := wfSub(cd, "fixture")
			comparison := Nil
			if cmp := OptStr(cd, "compare_to"); cmp != "" {
				baseline, err := load(cmp)
				if err != nil {
					return Nil, err
				}
				if fixture == nil {
					fixture = runFixture(c, baseline)
				}
				b, _ := c.th.in.builtin("run_record_diff")
				if comparison, err = b.Fn(c, []Value{DictValue(baseline), DictValue(run)}); err != nil {
					return Nil, err
				}
			}
			res := evalRun(c, run, fixture)
			res.Set("label", Str(OptStr(cd, "label")))
			res.Set("path", Str(resolve(OptStr(cd, "run_path"))))
			res.Set("comparison", comparison)
			if optBool(res, "pass") {
				passed++
			}
			cases = append(cases, DictValue(res))
		}
		return DictValue(wfDict("_type", Str("eval_suite_report"), "pass", Bool(passed == len(cases)),
			"total", Int(int64(len(cases))), "passed", Int(int64(passed)), "failed", Int(int64(len(cases)-passed)),
			"cases", NewListValue(cases))), nil
	})
}
