package harn

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
)

// std/memory: append-only durable memory. Each namespace is a folder
// under the memory root (options.root, HARN_MEMORY_ROOT, else
// .harn/memory in the program's folder) holding events.jsonl, a log of
// store and forget events. memory_recall ranks the live records by BM25
// over their key, text, tags and value, plus a boost for query words in
// the key or tags, and returns only those that match; memory_summarize
// lists the latest (or best-matching) records in time order;
// memory_forget appends a tombstone for the records a predicate (a
// substring, or {id, key, tag(s), query}) selects.

const (
	memoryRecallDefault  = 5
	memoryRecallMax      = 100
	memorySummaryDefault = 20
	memorySummaryMax     = 200
	memorySummaryChars   = 4000
)

type memoryRecord struct {
	ID         string   `json:"id"`
	Namespace  string   `json:"namespace"`
	Key        string   `json:"key"`
	Value      any      `json:"value"`
	Text       string   `json:"text"`
	Tags       []string `json:"tags"`
	StoredAt   string   `json:"stored_at"`
	Provenance any      `json:"provenance,omitempty"`
}

type memoryEvent struct {
	Type string `json:"type"`
	memoryRecord
	Predicate    any      `json:"predicate,omitempty"`
	ForgottenIDs []string `json:"forgotten_ids,omitempty"`
	ForgottenAt  string   `json:"forgotten_at,omitempty"`
}

type memoryLog struct {
	c    *Call
	path string
}

func memoryErr(format string, a ...any) error { return plainError(fmt.Sprintf(format, a...)) }

func memoryString(args []Value, i int, fn, name string) (string, error) {
	v := Arg(args, i)
	if v.k == KindNil || strings.TrimSpace(Display(v)) == "" {
		return "", memoryErr("%s: `%s` must be a non-empty string", fn, name)
	}
	return Display(v), nil
}

func memoryOpt(opts Value, key string) string {
	if v := field(opts, key); v.k != KindNil && strings.TrimSpace(Display(v)) != "" {
		return Display(v)
	}
	return ""
}

// openMemory finds a namespace's log, refusing namespaces that leave the
// root.
func openMemory(c *Call, namespace string, opts Value) (*memoryLog, error) {
	h := c.th.in.host
	root := memoryOpt(opts, "root")
	if root == "" {
		if env, ok := h.LookupEnv("HARN_MEMORY_ROOT"); ok && env != "" {
			root = env
		}
	}
	if root == "" {
		root = filepath.Join(h.Root(), ".harn", "memory")
	}
	ns := strings.TrimSpace(namespace)
	if filepath.IsAbs(ns) {
		return nil, memoryErr("memory namespace must be relative")
	}
	var parts []string
	for _, p := range strings.Split(filepath.ToSlash(ns), "/") {
		switch p {
		case "", ".":
		case "..":
			return nil, memoryErr("memory namespace must not escape the memory root")
		default:
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return nil, memoryErr("memory namespace must contain a path component")
	}
	return &memoryLog{c: c, path: filepath.Join(append([]string{h.Abs(root)}, append(parts, "events.jsonl")...)...)}, nil
}

func (l *memoryLog) append(e memoryEvent) error {
	b, err := json.Marshal(e)
	if err != nil {
		return memoryErr("memory: encode error: %v", err)
	}
	h := l.c.th.in.host
	if err := h.Mkdir(filepath.Dir(l.path), true); err != nil {
		return ioError("memory: failed to create "+filepath.Dir(l.path), err)
	}
	if err := h.AppendFile(l.path, append(b, '\n')); err != nil {
		return ioError("memory: failed to append "+l.path, err)
	}
	return nil
}

// live is the stored records not forgotten, with their log positions.
func (l *memoryLog) live() ([]memoryRecord, []int, error) {
	b, err := l.c.th.in.host.ReadFile(l.path)
	if err != nil {
		if isNotExist(err) {
			return nil, nil, nil
		}
		return nil, nil, ioError("memory: failed to read "+l.path, err)
	}
	var events []memoryEvent
	forgotten := map[string]bool{}
	for i, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var e memoryEvent
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			return nil, nil, memoryErr("memory: failed to parse line %d from %s: %v", i+1, l.path, err)
		}
		events = append(events, e)
		for _, id := range e.ForgottenIDs {
			forgotten[id] = true
		}
	}
	var recs []memoryRecord
	var seqs []int
	for i, e := range events {
		if e.Type == "store" && !forgotten[e.ID] {
			recs = append(recs, e.memoryRecord)
			seqs = append(seqs, i)
		}
	}
	return recs, seqs, nil
}

func memoryTokens(s string) []string {
	var out []string
	for _, t := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		if t = strings.ToLower(t); len(t) > 1 {
			out = append(out, t)
		}
	}
	return out
}

func compactJSON(x any) string {
	b, _ := json.Marshal(x)
	return string(b)
}

func (r memoryRecord) searchable() string {
	return r.Key + "\n" + r.Text + "\n" + strings.Join(r.Tags, " ") + "\n" + compactJSON(r.Value)
}

type scoredMemory struct {
	rec   memoryRecord
	score float64
	seq   int
}

func newestFirst(a, b scoredMemory) int {
	if c := strings.Compare(b.rec.StoredAt, a.rec.StoredAt); c != 0 {
		return c
	}
	if a.seq != b.seq {
		return b.seq - a.seq
	}
	return strings.Compare(a.rec.ID, b.rec.ID)
}

// scoreMemory ranks records for query: BM25 (k1 1.2, b 0.75) plus 0.4
// for each query word in the key and 0.25 in the tags; records scoring 0
// are dropped. An empty query keeps every record, newest first.
func scoreMemory(recs []memoryRecord, seqs []int, query string) []scoredMemory {
	terms := memoryTokens(query)
	if len(terms) == 0 {
		out := make([]scoredMemory, len(recs))
		for i, r := range recs {
			out[i] = scoredMemory{rec: r, seq: seqs[i]}
		}
		slices.SortStableFunc(out, newestFirst)
		return out
	}
	docs := make([][]string, len(recs))
	total := 0
	df := map[string]int{}
	for i, r := range recs {
		docs[i] = memoryTokens(r.searchable())
		total += len(docs[i])
		seen := map[string]bool{}
		for _, t := range docs[i] {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	n := float64(max(len(recs), 1))
	avg := float64(max(total, 1)) / n
	var out []scoredMemory
	for i, r := range recs {
		doc := docs[i]
		score := 0.0
		if len(doc) > 0 {
			tf := map[string]int{}
			for _, t := range doc {
				tf[t]++
			}
			dl := float64(max(len(doc), 1))
			for _, q := range terms {
				f := float64(tf[q])
				if f == 0 {
					continue
				}
				d := float64(df[q])
				idf := math.Log((n-d+0.5)/(d+0.5) + 1)
				score += idf * (f * 2.2) / (f + 1.2*(0.25+0.75*dl/avg))
			}
		}
		key := memoryTokens(r.Key)
		var tags []string
		for _, t := range r.Tags {
			tags = append(tags, memoryTokens(t)...)
		}
		for _, q := range terms {
			if slices.Contains(key, q) {
				score += 0.4
			}
			if slices.Contains(tags, q) {
				score += 0.25
			}
		}
		if score > 0 {
			out = append(out, scoredMemory{rec: r, score: score, seq: seqs[i]})
		}
	}
	slices.SortStableFunc(out, func(a, b scoredMemory) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return newestFirst(a, b)
	})
	return out
}

func (r memoryRecord) value(score *float64) Value {
	tags := make([]any, len(r.Tags))
	for i, t := range r.Tags {
		tags[i] = t
	}
	m := map[string]any{"_type": "memory_record", "id": r.ID, "namespace": r.Namespace, "key": r.Key,
		"value": fromGo(r.Value), "text": r.Text, "tags": tags, "stored_at": r.StoredAt, "provenance": fromGo(r.Provenance)}
	if score != nil {
		m["score"] = *score
	}
	return goValue(m)
}

func memoryTags(v Value, fn string) ([]string, error) {
	switch v.k {
	case KindNil:
		return []string{}, nil
	case KindString:
		return []string{v.r.(string)}, nil
	case KindList:
		var out []string
		for _, it := range v.r.(*List).items {
			if s := Display(it); strings.TrimSpace(s) != "" {
				out = append(out, s)
			}
		}
		sort.Strings(out)
		return slices.Compact(out), nil
	}
	return nil, memoryErr("%s: `tags` must be a string, list, or nil, got %s", fn, v.TypeName())
}

func memoryStrings(v Value) []string {
	switch v.k {
	case KindNil:
		return nil
	case KindList:
		var out []string
		for _, it := range v.r.(*List).items {
			if s := Display(it); strings.TrimSpace(s) != "" {
				out = append(out, s)
			}
		}
		return out
	}
	if s := Display(v); strings.TrimSpace(s) != "" {
		return []string{s}
	}
	return nil
}

func memoryMatches(pred Value, r memoryRecord) bool {
	switch pred.k {
	case KindString:
		s := pred.r.(string)
		return strings.TrimSpace(s) != "" && strings.Contains(strings.ToLower(r.searchable()), strings.ToLower(s))
	case KindDict:
		d := pred.r.(*Dict)
		matched := false
		if v, ok := d.Get("id"); ok {
			matched = true
			if !slices.Contains(memoryStrings(v), r.ID) {
				return false
			}
		}
		if v, ok := d.Get("key"); ok {
			matched = true
			if !slices.Contains(memoryStrings(v), r.Key) {
				return false
			}
		}
		tv, ok := d.Get("tag")
		if !ok {
			tv, ok = d.Get("tags")
		}
		if ok {
			matched = true
			hit := false
			for _, t := range memoryStrings(tv) {
				hit = hit || slices.Contains(r.Tags, t)
			}
			if !hit {
				return false
			}
		}
		if v, ok := d.Get("query"); ok {
			matched = true
			text := memoryTokens(r.searchable())
			hit := false
			for _, q := range memoryTokens(Display(v)) {
				hit = hit || slices.Contains(text, q)
			}
			if !hit {
				return false
			}
		}
		return matched
	}
	return false
}

func memoryNow(c *Call, opts Value, key string) string {
	if s := memoryOpt(opts, key); s != "" {
		return s
	}
	return c.th.in.host.Now().UTC().Format(time.RFC3339Nano)
}

func memoryID(c *Call, opts Value) string {
	if s := memoryOpt(opts, "id"); s != "" {
		return s
	}
	v, err := callBuiltin(c, "uuid_v7")
	if err != nil {
		v, _ = callBuiltin(c, "uuid")
	}
	return Display(v)
}

func positiveInt(v Value) int {
	switch v.k {
	case KindInt:
		if v.AsInt() > 0 {
			return int(v.AsInt())
		}
	case KindFloat:
		if f := v.AsFloat(); f > 0 {
			return int(f)
		}
	}
	return 0
}

func installMemory(lib *Library) {
	lib.StdModule("std/memory", map[string]func(c *Call, args []Value) (Value, error){
		"memory_store": func(c *Call, args []Value) (Value, error) {
			const fn = "__memory_store"
			ns, err := memoryString(args, 0, fn, "namespace")
			if err != nil {
				return Nil, err
			}
			key, err := memoryString(args, 1, fn, "key")
			if err != nil {
				return Nil, err
			}
			if len(args) < 3 {
				return Nil, memoryErr("%s: `value` argument is required", fn)
			}
			tags, err := memoryTags(Arg(args, 3), fn)
			if err != nil {
				return Nil, err
			}
			opts := Arg(args, 4)
			log, err := openMemory(c, ns, opts)
			if err != nil {
				return Nil, err
			}
			text := ""
			if args[2].k == KindString {
				text = args[2].r.(string)
			} else {
				text = jsonText(JSONData(args[2]))
			}
			r := memoryRecord{ID: memoryID(c, opts), Namespace: ns, Key: key, Value: toGo(JSONData(args[2])),
				Text: text, Tags: tags, StoredAt: memoryNow(c, opts, "now")}
			if p := field(opts, "provenance"); p.k != KindNil {
				r.Provenance = toGo(JSONData(p))
			}
			if err := log.append(memoryEvent{Type: "store", memoryRecord: r}); err != nil {
				return Nil, err
			}
			return r.value(nil), nil
		},
		"memory_recall": func(c *Call, args []Value) (Value, error) {
			const fn = "__memory_recall"
			ns, err := memoryString(args, 0, fn, "namespace")
			if err != nil {
				return Nil, err
			}
			query, err := memoryString(args, 1, fn, "query")
			if err != nil {
				return Nil, err
			}
			limit := positiveInt(Arg(args, 2))
			if limit == 0 {
				limit = memoryRecallDefault
			}
			limit = min(limit, memoryRecallMax)
			log, err := openMemory(c, ns, Arg(args, 3))
			if err != nil {
				return Nil, err
			}
			recs, seqs, err := log.live()
			if err != nil {
				return Nil, err
			}
			scored := scoreMemory(recs, seqs, query)
			var out []Value
			for _, s := range scored[:min(limit, len(scored))] {
				out = append(out, s.rec.value(&s.score))
			}
			return NewListValue(out), nil
		},
		"memory_summarize": func(c *Call, args []Value) (Value, error) {
			const fn = "__memory_summarize"
			ns, err := memoryString(args, 0, fn, "namespace")
			if err != nil {
				return Nil, err
			}
			limit, query := memorySummaryDefault, ""
			var tags []string
			switch w := Arg(args, 1); w.k {
			case KindNil:
			case KindInt:
				if w.AsInt() <= 0 {
					return Nil, memoryErr("%s: `window` must be nil, int, or dict, got int", fn)
				}
				limit = min(int(w.AsInt()), memorySummaryMax)
			case KindDict:
				if n := positiveInt(field(w, "limit")); n > 0 {
					limit = min(n, memorySummaryMax)
				}
				if q := field(w, "query"); q.k != KindNil && strings.TrimSpace(Display(q)) != "" {
					query = Display(q)
				}
				tv := field(w, "tags")
				if tv.k == KindNil {
					tv = field(w, "tag")
				}
				if tags, err = memoryTags(tv, "memory_summarize"); err != nil {
					return Nil, err
				}
			default:
				return Nil, memoryErr("%s: `window` must be nil, int, or dict, got %s", fn, w.TypeName())
			}
			log, err := openMemory(c, ns, Arg(args, 2))
			if err != nil {
				return Nil, err
			}
			recs, seqs, err := log.live()
			if err != nil {
				return Nil, err
			}
			var selected []memoryRecord
			if query != "" {
				for _, s := range scoreMemory(recs, seqs, query) {
					selected = append(selected, s.rec)
				}
			} else {
				// Latest first: time order, ties by log position, reversed.
				idx := make([]int, len(recs))
				for i := range idx {
					idx[i] = i
				}
				sort.SliceStable(idx, func(a, b int) bool {
					if recs[idx[a]].StoredAt != recs[idx[b]].StoredAt {
						return recs[idx[a]].StoredAt < recs[idx[b]].StoredAt
					}
					return seqs[idx[a]] < seqs[idx[b]]
				})
				for i := len(idx) - 1; i >= 0; i-- {
					selected = append(selected, recs[idx[i]])
				}
			}
			if len(tags) > 0 {
				kept := selected[:0]
				for _, r := range selected {
					for _, t := range tags {
						if slices.Contains(r.Tags, t) {
							kept = append(kept, r)
							break
						}
					}
				}
				selected = kept
			}
			selected = selected[:min(limit, len(selected))]
			sort.SliceStable(selected, func(a, b int) bool {
				if selected[a].StoredAt != selected[b].StoredAt {
					return selected[a].StoredAt < selected[b].StoredAt
				}
				return selected[a].ID < selected[b].ID
			})
			var text strings.Builder
			full := false
			vals := make([]Value, len(selected))
			for i, r := range selected {
				first, _, _ := strings.Cut(r.Text, "\n")
				line := "- [" + strings.Join(r.Tags, ",") + "] " + r.Key + ": " + strings.TrimSpace(first) + "\n"
				// The text stops at the first line that would pass the cap.
				if full = full || text.Len()+len(line) > memorySummaryChars; !full {
					text.WriteString(line)
				}
				vals[i] = r.value(nil)
			}
			return goValue(map[string]any{"_type": "memory_summary", "namespace": ns, "count": len(selected),
				"text": text.String(), "records": NewListValue(vals)}), nil
		},
		"memory_forget": func(c *Call, args []Value) (Value, error) {
			const fn = "__memory_forget"
			ns, err := memoryString(args, 0, fn, "namespace")
			if err != nil {
				return Nil, err
			}
			if len(args) < 2 {
				return Nil, memoryErr("%s: `predicate` argument is required", fn)
			}
			opts := Arg(args, 2)
			log, err := openMemory(c, ns, opts)
			if err != nil {
				return Nil, err
			}
			recs, _, err := log.live()
			if err != nil {
				return Nil, err
			}
			ids := []string{}
			for _, r := range recs {
				if memoryMatches(args[1], r) {
					ids = append(ids, r.ID)
				}
			}
			e := memoryEvent{Type: "forget", Predicate: toGo(JSONData(args[1])), ForgottenIDs: ids,
				ForgottenAt: memoryNow(c, opts, "now")}
			e.ID, e.Namespace = memoryID(c, opts), ns
			if err := log.append(e); err != nil {
				return Nil, err
			}
			idv := make([]any, len(ids))
			for i, id := range ids {
				idv[i] = id
			}
			return goValue(map[string]any{"_type": "memory_forget", "id": e.ID, "namespace": ns,
				"forgotten": len(ids), "forgotten_ids": idv, "forgotten_at": e.ForgottenAt}), nil
		},
	})
}
