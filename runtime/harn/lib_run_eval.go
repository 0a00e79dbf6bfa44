package harn

// Run record evaluation: run_record_eval checks a run against a replay
// fixture (the run's own embedded one by default), run_record_eval_suite
// does so for a list of cases, and run_record_diff compares two runs
// stage by stage.

// stageByNode is the run's first stage record for each node id.
func stageByNode(run *Dict) ([]string, map[string]*Dict) {
	var order []string
	out := map[string]*Dict{}
	for _, s := range dictList(run, "stages") {
		sd := s.AsDict()
		if sd == nil {
			continue
		}
		id := OptStr(sd, "node_id")
		if _, ok := out[id]; !ok {
			order = append(order, id)
			out[id] = sd
		}
	}
	return order, out
}

// evalRun compares a run with a fixture; the failures say what differs.
func evalRun(c *Call, run *Dict, fixture *Dict) *Dict {
	if fixture == nil {
		fixture = wfSub(run, "replay_fixture")
	}
	if fixture == nil {
		fixture = runFixture(c, run)
	}
	var failures []string
	if want := OptStr(fixture, "expected_status"); want != "" && want != OptStr(run, "status") {
		failures = append(failures, "run status "+OptStr(run, "status")+" != expected "+want)
	}
	_, stages := stageByNode(run)
	for _, a := range dictList(fixture, "stage_assertions") {
		ad := a.AsDict()
		if ad == nil {
			continue
		}
		node := OptStr(ad, "node_id")
		s, ok := stages[node]
		if !ok {
			failures = append(failures, "stage "+node+" is missing")
			continue
		}
		for _, f := range [][2]string{{"expected_status", "status"}, {"expected_outcome", "outcome"}, {"expected_branch", "branch"}} {
			if want := OptStr(ad, f[0]); want != "" && want != OptStr(s, f[1]) {
				failures = append(failures, "stage "+node+" "+f[1]+" "+OptStr(s, f[1])+" != expected "+want)
			}
		}
		kv, _ := ad.Get("required_artifact_kinds")
		var have []string
		for _, x := range dictList(s, "artifacts") {
			if xd := x.AsDict(); xd != nil {
				have = append(have, OptStr(xd, "kind"))
			}
		}
		for _, k := range wfStringList(kv) {
			if !containsString(have, k) {
				failures = append(failures, "stage "+node+" produced no "+k+" artifact")
			}
		}
	}
	return wfDict("pass", Bool(len(failures) == 0), "failures", wfStrings(failures), "run_id", Str(OptStr(run, "id")),
		"stage_count", Int(int64(len(dictList(run, "stages")))))
}

func installRunEval(lib *Library) {
	lib.Builtin("run_record_eval", func(c *Call, args []Value) (Value, error) {
		return DictValue(evalRun(c, runRecord(c, Arg(args, 0)), wfCeiling(Arg(args, 1)))), nil
	})
	lib.Builtin("run_record_eval_suite", func(c *Call, args []Value) (Value, error) {
		var cases []Value
		passed := 0
		for _, cv := range listItems(Arg(args, 0)) {
			cd := cv.AsDict()
			if cd == nil {
				continue
			}
			rv, _ := cd.Get("run")
			fv, _ := cd.Get("fixture")
			res := evalRun(c, runRecord(c, rv), wfCeiling(fv))
			if p, ok := cd.Get("path"); ok {
				res.Set("path", p)
			}
			if optBool(res, "pass") {
				passed++
			}
			cases = append(cases, DictValue(res))
		}
		return DictValue(wfDict("pass", Bool(passed == len(cases)), "total", Int(int64(len(cases))),
			"passed", Int(int64(passed)), "failed", Int(int64(len(cases)-passed)), "cases", NewListValue(cases))), nil
	})
	lib.Builtin("run_record_diff", func(c *Call, args []Value) (Value, error) {
		left, right := runRecord(c, Arg(args, 0)), runRecord(c, Arg(args, 1))
		lorder, ls := stageByNode(left)
		rorder, rs := stageByNode(right)
		var diffs []Value
		for _, id := range lorder {
			l, r := ls[id], rs[id]
			if r == nil {
				diffs = append(diffs, DictValue(wfDict("node_id", Str(id), "change", Str("removed"), "left_status", Str(OptStr(l, "status")))))
				continue
			}
			if OptStr(l, "status") != OptStr(r, "status") || OptStr(l, "outcome") != OptStr(r, "outcome") || OptStr(l, "branch") != OptStr(r, "branch") {
				diffs = append(diffs, DictValue(wfDict("node_id", Str(id), "change", Str("changed"),
					"left_status", Str(OptStr(l, "status")), "right_status", Str(OptStr(r, "status")),
					"left_outcome", Str(OptStr(l, "outcome")), "right_outcome", Str(OptStr(r, "outcome")))))
			}
		}
		for _, id := range rorder {
			if ls[id] == nil {
				diffs = append(diffs, DictValue(wfDict("node_id", Str(id), "change", Str("added"), "right_status", Str(OptStr(rs[id], "status")))))
			}
		}
		statusChanged := OptStr(left, "status") != OptStr(right, "status")
		return DictValue(wfDict("left_run_id", Str(OptStr(left, "id")), "right_run_id", Str(OptStr(right, "id")),
			"identical", Bool(!statusChanged && len(diffs) == 0), "status_changed", Bool(statusChanged),
			"left_status", Str(OptStr(left, "status")), "right_status", Str(OptStr(right, "status")),
			"stage_diffs", NewListValue(diffs),
			"transition_count_delta", Int(int64(len(dictList(right, "transitions"))-len(dictList(left, "transitions")))),
			"artifact_count_delta", Int(int64(len(dictList(right, "artifacts"))-len(dictList(left, "artifacts")))))), nil
	})
}
