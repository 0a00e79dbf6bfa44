package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/harnlang/harn-check/diagnostics"
)

// DecodeReport reads a JSON report keeping its numbers as written
// (json.Number), so that a report read back renders to the same bytes.
func DecodeReport(data []byte) (*Report, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var r Report
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not an evaluate report: %v", err)
	}
	if r.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("report schema_version %d, want %d", r.SchemaVersion, SchemaVersion)
	}
	return &r, nil
}

// filePart is what one file of a shard contributed to its report.
type filePart struct {
	input               Input
	findings, caseFinds []Finding
	cases               []Case
}

// Merge combines the reports of the shards of one run (Options.Shard;
// names say where each came from, for errors) into the report of the
// whole run: the same Report, field for field, that Run returns without
// a shard, so that it renders to the same bytes. Shards compared with a
// baseline are refused: compare the merged report instead.
func Merge(reports []*Report, names []string) (*Report, error) {
	shards := make([]*diagnostics.Shard, len(reports))
	for i, r := range reports {
		if r.Shard != nil {
			shards[i] = &r.Shard.Shard
		}
	}
	order, err := diagnostics.Order(shards, names)
	if err != nil {
		return nil, err
	}
	// Each shard's findings and cases, split per file, and what follows
	// them (the replay's finding).
	parts := make([][]filePart, len(reports))
	var tails [][]Finding
	for i, r := range reports {
		s := r.Shard
		n := len(s.Positions)
		if len(s.FileFindings) != n || len(s.Cases) != n || len(s.CaseFindings) != n || len(r.Inputs) != n {
			return nil, fmt.Errorf("%s: its shard counts do not match its %d files", names[i], n)
		}
		if r.Comparison != nil {
			return nil, fmt.Errorf("%s: compared with a baseline; compare the merged report instead (merge --baseline)", names[i])
		}
		findings, cases := r.Findings, r.Cases
		take := func(k int) ([]Finding, error) {
			if k < 0 || k > len(findings) {
				return nil, fmt.Errorf("%s: its shard counts do not match its findings", names[i])
			}
			out := findings[:k]
			findings = findings[k:]
			return out, nil
		}
		parts[i] = make([]filePart, n)
		for f := range n {
			fs, err := take(s.FileFindings[f])
			if err != nil {
				return nil, err
			}
			k := s.Cases[f]
			if k < 0 || k > len(cases) {
				return nil, fmt.Errorf("%s: its shard counts do not match its cases", names[i])
			}
			parts[i][f] = filePart{input: r.Inputs[f], findings: fs, cases: cases[:k]}
			cases = cases[k:]
		}
		if len(cases) != 0 {
			return nil, fmt.Errorf("%s: its shard counts do not match its cases", names[i])
		}
		for f := range n {
			cf, err := take(s.CaseFindings[f])
			if err != nil {
				return nil, err
			}
			parts[i][f].caseFinds = cf
		}
		tails = append(tails, findings)
	}
	byIndex := make([]int, len(reports))
	for i := range byIndex {
		byIndex[i] = i
	}
	sort.Slice(byIndex, func(a, b int) bool { return shards[byIndex[a]].Index < shards[byIndex[b]].Index })
	first := reports[byIndex[0]]
	out := &Report{SchemaVersion: first.SchemaVersion, Phase: first.Phase, Status: "ok", StartedAt: first.StartedAt,
		Runtime: first.Runtime, LLM: first.LLM, Inputs: []Input{}, Cases: []Case{}, Metrics: MetricSummary{},
		Findings: []Finding{}, BrokenScripts: []string{}, Notes: first.Notes}
	broken := map[string]bool{}
	for _, i := range byIndex {
		r := reports[i]
		if r.Status != "ok" {
			out.Status = "failed"
		}
		if r.StartedAt < out.StartedAt {
			out.StartedAt = r.StartedAt
		}
		out.Summary.add(r.Summary)
		for _, b := range r.BrokenScripts {
			broken[b] = true
		}
	}
	for _, at := range order {
		p := parts[at[0]][at[1]]
		out.Inputs = append(out.Inputs, p.input)
		out.Findings = append(out.Findings, p.findings...)
		out.Cases = append(out.Cases, p.cases...)
	}
	for _, at := range order {
		out.Findings = append(out.Findings, parts[at[0]][at[1]].caseFinds...)
	}
	for _, i := range byIndex {
		out.Findings = append(out.Findings, tails[i]...)
	}
	for _, c := range out.Cases {
		foldMetrics(out.Metrics, c)
	}
	out.Metrics.finish()
	for b := range broken {
		out.BrokenScripts = append(out.BrokenScripts, b)
	}
	sort.Strings(out.BrokenScripts)
	out.Summary.PassRate = 0
	if n := out.Summary.CasesPassed + out.Summary.CasesFailed; n > 0 {
		out.Summary.PassRate = round4(float64(out.Summary.CasesPassed) / float64(n))
	}
	return out, nil
}

// add sums the counts of a shard's summary into s: every integer field,
// so that a count added to Summary is merged too (PassRate, a ratio, is
// computed afterwards).
func (s *Summary) add(o Summary) {
	sv, ov := reflect.ValueOf(s).Elem(), reflect.ValueOf(o)
	for i := range sv.NumField() {
		if f := sv.Field(i); f.CanInt() {
			f.SetInt(f.Int() + ov.Field(i).Int())
		}
	}
}
