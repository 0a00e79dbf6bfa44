package diagnostics

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Shard is one part of a run split over machines (`--shard i/n`): the
// files of the whole run, in their order, are dealt round-robin, the k-th
// (0-based) to shard k mod n + 1, so the parts are deterministic and
// balanced. A report of a shard carries it, with the positions of its
// files in the whole run, so that Merge can put the parts back together
// into the report of the whole run.
type Shard struct {
	// Index is the shard's number, 1 to Count.
	Index int `json:"index"`
	// Count is the number of shards of the run.
	Count int `json:"count"`
	// Total is the number of files (or cases) of the whole run.
	Total int `json:"total"`
	// Positions are the 0-based positions in the whole run of the files
	// this shard reports, in order.
	Positions []int `json:"positions"`
	// Results, in a SARIF log, counts the results of each file.
	Results []int `json:"results,omitempty"`
}

// ParseShard reads "i/n" (1 <= i <= n).
func ParseShard(s string) (*Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n || n > 10000 {
		return nil, fmt.Errorf("--shard %q: want i/n with 1 <= i <= n, such as 2/4", s)
	}
	return &Shard{Index: i, Count: n}, nil
}

// Has reports whether the file at 0-based position k of the whole run
// belongs to the shard.
func (s *Shard) Has(k int) bool { return k%s.Count == s.Index-1 }

// Order checks that shards (of the outputs names, for errors) are each
// of 1..n exactly once and of one run, and that their positions cover
// the run once; it returns the order of the whole run: for each
// position, the shard (index into shards) and the item's place in that
// shard. It is the one check every merge of shard outputs makes (check
// and lint reports here, test and evaluate outputs elsewhere); a nil
// shard is an output of a run without --shard.
func Order(shards []*Shard, names []string) ([][2]int, error) {
	js := make([]*jsonShard, len(shards))
	for i, s := range shards {
		js[i] = shardJSON(s)
	}
	return shardSet(js, names)
}

// Part returns the items of a whole run that belong to shard s (the
// k-th, 0-based, to part k mod n + 1) and the shard as that part's
// output reports it, with the run's Total and the Positions of the items
// taken. It is the one partition of --shard: check and lint split the
// files found, test its cases, evaluate its .leia files.
func Part[T any](s *Shard, items []T) ([]T, *Shard) {
	out := &Shard{Index: s.Index, Count: s.Count, Total: len(items), Positions: []int{}}
	var part []T
	for i, it := range items {
		if out.Has(i) {
			part = append(part, it)
			out.Positions = append(out.Positions, i)
		}
	}
	return part, out
}

// jsonShard is a shard in a JSON envelope or a SARIF run's properties.
type jsonShard struct {
	Index     int   `json:"index"`
	Count     int   `json:"count"`
	Total     int   `json:"total"`
	Positions []int `json:"positions"`
	Results   []int `json:"results,omitempty"`
}

func shardJSON(s *Shard) *jsonShard {
	if s == nil {
		return nil
	}
	return &jsonShard{Index: s.Index, Count: s.Count, Total: s.Total, Positions: s.Positions, Results: s.Results}
}

// MergeKind names the kind of documents Merge combines.
type MergeKind string

// The kinds of documents Merge knows.
const (
	MergeJSON  MergeKind = "json"
	MergeSARIF MergeKind = "sarif"
)

// Sniff returns the kind of a rendered report: a JSON envelope or a SARIF
// log; "" for anything else.
func Sniff(doc []byte) MergeKind {
	var probe struct {
		Schema        string          `json:"$schema"`
		SchemaVersion *int            `json:"schemaVersion"`
		Runs          json.RawMessage `json:"runs"`
	}
	if json.Unmarshal(doc, &probe) != nil {
		return ""
	}
	switch {
	case probe.Runs != nil:
		return MergeSARIF
	case probe.SchemaVersion != nil:
		return MergeJSON
	}
	return ""
}

// shardSet checks that the shards given are each of 1..n exactly once,
// of one run, and returns the order of the whole run: for each position,
// the shard (index into shards) and the item's place in that shard.
func shardSet(shards []*jsonShard, names []string) ([][2]int, error) {
	if len(shards) == 0 {
		return nil, fmt.Errorf("nothing to merge")
	}
	n, total := 0, 0
	seen := map[int]string{}
	for i, s := range shards {
		if s == nil {
			return nil, fmt.Errorf("%s: not the output of a --shard run", names[i])
		}
		if i == 0 {
			n, total = s.Count, s.Total
		}
		if s.Count != n || s.Total != total {
			return nil, fmt.Errorf("%s: shard %d/%d of %d items, but %s is of %d/%d items: not the same run",
				names[i], s.Index, s.Count, s.Total, names[0], n, total)
		}
		if prev, ok := seen[s.Index]; ok {
			return nil, fmt.Errorf("%s and %s are both shard %d/%d", prev, names[i], s.Index, n)
		}
		seen[s.Index] = names[i]
	}
	if len(seen) != n {
		var missing []string
		for i := 1; i <= n; i++ {
			if _, ok := seen[i]; !ok {
				missing = append(missing, fmt.Sprintf("%d/%d", i, n))
			}
		}
		return nil, fmt.Errorf("shard %s missing", strings.Join(missing, ", "))
	}
	order := make([][2]int, total)
	filled := make([]bool, total)
	for i, s := range shards {
		for j, p := range s.Positions {
			if p < 0 || p >= total || filled[p] || !(&Shard{Index: s.Index, Count: n}).Has(p) {
				return nil, fmt.Errorf("%s: position %d does not belong to shard %d/%d", names[i], p, s.Index, n)
			}
			filled[p] = true
			order[p] = [2]int{i, j}
		}
	}
	if k := slices.Index(filled, false); k >= 0 {
		return nil, fmt.Errorf("no shard holds item %d of %d", k+1, total)
	}
	return order, nil
}

// Merge combines the reports of the shards of one run, rendered as kind
// (names say where each came from, for errors), into the document the
// whole run renders, byte for byte.
func Merge(kind MergeKind, docs [][]byte, names []string) ([]byte, error) {
	switch kind {
	case MergeJSON:
		return mergeJSON(docs, names)
	case MergeSARIF:
		return mergeSARIF(docs, names)
	}
	return nil, fmt.Errorf("cannot merge %q documents", kind)
}

func mergeJSON(docs [][]byte, names []string) ([]byte, error) {
	envs := make([]jsonEnvelope, len(docs))
	shards := make([]*jsonShard, len(docs))
	for i, d := range docs {
		if err := json.Unmarshal(d, &envs[i]); err != nil {
			return nil, fmt.Errorf("%s: not a JSON report: %v", names[i], err)
		}
		shards[i] = envs[i].Shard
	}
	order, err := shardSet(shards, names)
	if err != nil {
		return nil, err
	}
	out := jsonEnvelope{SchemaVersion: envs[0].SchemaVersion, OK: true, Data: &jsonData{Files: []jsonFile{}}, Warnings: []jsonToolShort{}}
	byIndex := indexOrder(shards)
	for _, i := range byIndex {
		e := envs[i]
		if e.Error != nil && out.Error == nil {
			out.Error = e.Error
		}
		out.Warnings = append(out.Warnings, e.Warnings...)
		if e.Data != nil {
			out.Data.Summary.OK += e.Data.Summary.OK
			out.Data.Summary.Warnings += e.Data.Summary.Warnings
			out.Data.Summary.Errors += e.Data.Summary.Errors
			out.Data.Summary.Diagnostics += e.Data.Summary.Diagnostics
		}
	}
	for p, at := range order {
		e := envs[at[0]]
		if e.Data == nil || at[1] >= len(e.Data.Files) {
			return nil, fmt.Errorf("%s: holds no file for item %d", names[at[0]], p+1)
		}
		out.Data.Files = append(out.Data.Files, e.Data.Files[at[1]])
	}
	out.OK = out.Error == nil && out.Data.Summary.Errors == 0
	if out.Error != nil && len(out.Data.Files) == 0 {
		out.Data = nil
	}
	var b bytes.Buffer
	err = writeIndentedJSON(&b, out)
	return b.Bytes(), err
}

// indexOrder returns the indexes of shards sorted by shard number.
func indexOrder(shards []*jsonShard) []int {
	idx := make([]int, len(shards))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(shards[a].Index, shards[b].Index) })
	return idx
}

func mergeSARIF(docs [][]byte, names []string) ([]byte, error) {
	logs := make([]sarifLog, len(docs))
	shards := make([]*jsonShard, len(docs))
	for i, d := range docs {
		if err := json.Unmarshal(d, &logs[i]); err != nil || len(logs[i].Runs) != 1 {
			return nil, fmt.Errorf("%s: not a SARIF log of one run (%v)", names[i], err)
		}
		if p := logs[i].Runs[0].Properties; p != nil {
			shards[i] = p.Shard
		}
	}
	order, err := shardSet(shards, names)
	if err != nil {
		return nil, err
	}
	// Each shard's results, split per file.
	perFile := make([][][]sarifResult, len(logs))
	for i, l := range logs {
		res := l.Runs[0].Results
		if len(shards[i].Results) != len(shards[i].Positions) {
			return nil, fmt.Errorf("%s: result counts do not match its files", names[i])
		}
		for _, n := range shards[i].Results {
			if n < 0 || n > len(res) {
				return nil, fmt.Errorf("%s: result counts do not match its results", names[i])
			}
			perFile[i] = append(perFile[i], res[:n])
			res = res[n:]
		}
	}
	first := logs[0].Runs[0]
	run := sarifRun{Tool: first.Tool, ColumnKind: first.ColumnKind, Results: []sarifResult{}}
	rules := map[string]sarifRule{}
	var inv *sarifInvocation
	for _, i := range indexOrder(shards) {
		r := logs[i].Runs[0]
		for _, rule := range r.Tool.Driver.Rules {
			rules[rule.ID] = rule
		}
		for _, v := range r.Invocations {
			if inv == nil {
				inv = &sarifInvocation{ExecutionSuccessful: true}
			}
			inv.ExecutionSuccessful = inv.ExecutionSuccessful && v.ExecutionSuccessful
			inv.Notifications = append(inv.Notifications, v.Notifications...)
		}
	}
	run.Tool.Driver.Rules = []sarifRule{}
	ruleIndex := map[string]int{}
	for _, id := range slices.Sorted(func(yield func(string) bool) {
		for id := range rules {
			if !yield(id) {
				return
			}
		}
	}) {
		ruleIndex[id] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rules[id])
	}
	if inv != nil {
		run.Invocations = []sarifInvocation{*inv}
	}
	for _, at := range order {
		for _, res := range perFile[at[0]][at[1]] {
			if k, ok := ruleIndex[res.RuleID]; ok {
				res.RuleIndex = &k
			}
			run.Results = append(run.Results, res)
		}
	}
	log := sarifLog{Schema: logs[0].Schema, Version: logs[0].Version, Runs: []sarifRun{run}}
	var b bytes.Buffer
	err = writeIndentedJSON(&b, log)
	return b.Bytes(), err
}
