package evaluate

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/internal/sealed"
	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/llm"
)

func openCache(t *testing.T, dir string) *Cache {
	t.Helper()
	c, err := OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// cachedEvaluator is a fresh evaluator (a new run) on the fake provider
// with the cache folder dir.
func cachedEvaluator(t *testing.T, f *fakeProvider, dir string, cat *catalog.Catalog) *Evaluator {
	t.Helper()
	if cat == nil {
		cat = testCatalog(t, f.srv.URL)
	}
	return New(Options{Catalog: cat, LLM: llm.Options{Getenv: getenv}, Cache: openCache(t, dir)})
}

// entries lists the cache's entry files.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	return files
}

// TestEvaluationCacheReuse (issue 26 item 7): an answered evaluation is
// stored; the same request in a later run is answered from the cache with
// no provider request, the same outcome, zero attempts and cost, nothing
// charged to the ledger, and a receipt with source "cache" whose
// reused_from is the original live receipt. The entry holds neither the
// state, the question text nor the credential.
func TestEvaluationCacheReuse(t *testing.T) {
	f := newFakeProvider(t)
	// The provider echoes the credential into an answer's evidence.
	f.set(func(w http.ResponseWriter, path string, body map[string]any) {
		chatReply(w, strings.Replace(structuredAnswer(body, 0.95, nil), `"cited"`, `"key `+fakeKey+`"`, 1), "stop")
	})
	dir := filepath.Join(t.TempDir(), "cache")
	req := request(t, "local", "judge", "")

	live := mustEvaluate(t, cachedEvaluator(t, f, dir, nil), req)
	if live.Outcome.Kind != OutcomeAnswered || f.requests.Load() != 1 || live.Receipt.Source != SourceLive {
		t.Fatalf("live: %s, %d requests", live.Outcome.Kind, f.requests.Load())
	}
	files := entries(t, dir)
	if len(files) != 1 {
		t.Fatalf("%d entries, want 1", len(files))
	}
	data, _ := os.ReadFile(files[0])
	if !bytes.Contains(data, []byte("key [redacted]")) {
		t.Errorf("the echoed credential is not redacted in the entry:\n%s", data)
	}
	for _, secret := range []string{secretText, "Keep, reword, or drop", fakeKey} {
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("the cache entry holds %q", secret)
		}
	}

	ev := cachedEvaluator(t, f, dir, nil)
	hit := mustEvaluate(t, ev, req)
	if f.requests.Load() != 1 {
		t.Fatalf("the cached request was sent again")
	}
	if got, want := canonjson.MustEncode(hit.Outcome.Value()), canonjson.MustEncode(live.Outcome.Value()); !bytes.Equal(got, want) {
		t.Errorf("cached outcome\n%s\nlive\n%s", got, want)
	}
	rc := hit.Receipt
	if rc.Source != SourceCache || rc.PhysicalAttempts != 0 || *rc.CostUSD != 0 || *rc.BudgetChargeUSD != 0 ||
		rc.AccountingStatus != AccountingNotDispatched || rc.EvaluationID != live.Receipt.EvaluationID || rc.Usage != nil || rc.CostAdmission != nil {
		t.Errorf("cache receipt %+v", rc)
	}
	if rc.ReusedFrom == nil || !bytes.Equal(canonjson.MustEncode(rc.ReusedFrom), canonjson.MustEncode(live.Receipt.Value())) {
		t.Errorf("reused_from is not the original receipt:\n%s", canonjson.MustEncode(rc.ReusedFrom))
	}
	if ev.Ledger().Committed() != 0 {
		t.Errorf("a cache hit charged %v", ev.Ledger().Committed())
	}
	if got, _ := ev.Journal().Snapshot(); len(got) != 1 || got[0].Source != SourceCache {
		t.Errorf("journal %+v", got)
	}
	// The reused receipt still verifies against the request.
	v, err := Verify(ev.Catalog(), canonjson.MustEncode(req.Value()), canonjson.MustEncode(rc.Value()))
	if err != nil || !v.Verified {
		t.Errorf("cache receipt does not verify: %v %+v", err, v)
	}
	// evaluate_predicate is the same evaluator: its answer is cached too.
	pol := policy(t, "local", "judge", "")
	state := decode(t, `{"claim": "c"}`)
	if r, err := cachedEvaluator(t, f, dir, nil).EvaluatePredicate(context.Background(), "p.v1", "Holds?", state, pol); err != nil || r.Outcome.Kind != OutcomeVerdict || r.Receipt.Source != SourceLive {
		t.Fatalf("predicate: %v %v", r, err)
	}
	if r, err := cachedEvaluator(t, f, dir, nil).EvaluatePredicate(context.Background(), "p.v1", "Holds?", state, pol); err != nil || r.Outcome.Kind != OutcomeVerdict || r.Receipt.Source != SourceCache || f.requests.Load() != 2 {
		t.Fatalf("predicate from the cache: %v %v, %d requests", r, err, f.requests.Load())
	}
}

// TestEvaluationCacheInvalidation: any change to the stable request
// identity (state, question, criteria, threshold, site, policy) or to how
// the route is reached (endpoint, wire model) misses.
func TestEvaluationCacheInvalidation(t *testing.T) {
	f := newFakeProvider(t)
	dir := t.TempDir()
	base := func() Request {
		return Request{SiteID: "s.v1", State: decode(t, `{"a": 1}`),
			Questions: decode(t, `{"ok": {"kind": "boolean", "instructions": "Fine?", "criteria": {"true": "yes", "false": "no"}}}`),
			Policy:    policy(t, "local", "judge", "")}
	}
	mustEvaluate(t, cachedEvaluator(t, f, dir, nil), base())
	if r := mustEvaluate(t, cachedEvaluator(t, f, dir, nil), base()); r.Receipt.Source != SourceCache {
		t.Fatalf("the unchanged request missed")
	}
	moved, err := catalog.Default().Parse("harn.toml", []byte(fmt.Sprintf(`
[[routes]]
provider = "local"
model = "judge"
operations = ["text_generation"]
structured_transport = "native_schema"
base_url = "%s/v1"
api_key_env = "FAKE_KEY"
wire_model = "judge-2"
context_window = 8192
input_price_per_mtok = 1.0
output_price_per_mtok = 2.0
`, f.srv.URL)))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(*Request)
		cat    *catalog.Catalog
	}{
		{"state", func(r *Request) { r.State = decode(t, `{"a": 2}`) }, nil},
		{"instructions", func(r *Request) {
			r.Questions = decode(t, `{"ok": {"kind": "boolean", "instructions": "Fine at all?", "criteria": {"true": "yes", "false": "no"}}}`)
		}, nil},
		{"boolean criteria", func(r *Request) {
			r.Questions = decode(t, `{"ok": {"kind": "boolean", "instructions": "Fine?", "criteria": {"true": "yes", "false": "not at all"}}}`)
		}, nil},
		{"threshold", func(r *Request) {
			r.Policy = decode(t, `{"backend": "structured_llm", "provider": "local", "model": "judge", "threshold": 0.6}`)
		}, nil},
		{"site", func(r *Request) { r.SiteID = "s.v2" }, nil},
		{"wire model", func(*Request) {}, moved},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := base()
			tc.change(&req)
			before := f.requests.Load()
			r := mustEvaluate(t, cachedEvaluator(t, f, dir, tc.cat), req)
			if r.Receipt.Source != SourceLive || f.requests.Load() != before+1 {
				t.Errorf("changed %s: source %s, %d requests", tc.name, r.Receipt.Source, f.requests.Load()-before)
			}
		})
	}
}

// TestEvaluationCacheNeverStoresRefusals: low_confidence, a provider
// failure and a local refusal are not stored; the same request is
// dispatched again.
func TestEvaluationCacheNeverStoresRefusals(t *testing.T) {
	f := newFakeProvider(t)
	for _, tc := range []struct {
		name    string
		respond func(w http.ResponseWriter, path string, body map[string]any)
		extra   string
		want    string
		sends   int64
	}{
		{"low confidence", f.answerAll(0.3), "", OutcomeLowConfidence, 1},
		{"http 500", func(w http.ResponseWriter, _ string, _ map[string]any) { w.WriteHeader(500) }, "", OutcomeUnavailable, 1},
		{"budget cut", f.answerAll(0.95), `, "evaluation_cost_limit": 0.0`, OutcomeBudgetCut, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.set(tc.respond)
			dir := t.TempDir()
			for range 2 {
				before := f.requests.Load()
				r := mustEvaluate(t, cachedEvaluator(t, f, dir, nil), request(t, "local", "judge", tc.extra))
				if r.Outcome.Kind != tc.want || r.Receipt.Source != SourceLive || f.requests.Load()-before != tc.sends {
					t.Fatalf("%s, source %s, %d requests", r.Outcome.Kind, r.Receipt.Source, f.requests.Load()-before)
				}
			}
			if n := len(entries(t, dir)); n != 0 {
				t.Errorf("%d entries stored", n)
			}
		})
	}
}

// TestEvaluationCacheHostileEntries: a damaged, forged or foreign entry is
// a miss (the request is sent, never a panic or an error) and the answer
// then overwrites it.
func TestEvaluationCacheHostileEntries(t *testing.T) {
	f := newFakeProvider(t)
	seedDir := t.TempDir()
	req := request(t, "local", "judge", "")
	live := mustEvaluate(t, cachedEvaluator(t, f, seedDir, nil), req)
	file := entries(t, seedDir)[0]
	rel, _ := filepath.Rel(seedDir, file)
	good, _ := os.ReadFile(file)
	payload, err := sealed.Read(file, cacheFormat, 0)
	if err != nil {
		t.Fatal(err)
	}
	reseal := func(edit func(string) string) func(string) error {
		return func(p string) error {
			return sealed.Write(p, cacheFormat, []byte(edit(string(payload))))
		}
	}
	other := mustEvaluate(t, New(Options{Catalog: testCatalog(t, f.srv.URL), LLM: llm.Options{Getenv: getenv}}), request(t, "local", "prompt", ""))
	for _, tc := range []struct {
		name  string
		plant func(path string) error
	}{
		{"truncated", func(p string) error { return os.WriteFile(p, good[:len(good)/2], 0o600) }},
		{"checksum", func(p string) error {
			return os.WriteFile(p, bytes.Replace(good, []byte(`"keep"`), []byte(`"drop"`), 1), 0o600)
		}},
		{"not json", func(p string) error { return os.WriteFile(p, []byte("\x00\xff{{{"), 0o600) }},
		{"a folder", func(p string) error { return os.Mkdir(p, 0o700) }},
		{"oversized", func(p string) error { return os.WriteFile(p, bytes.Repeat([]byte(" "), maxCacheEntry+1), 0o600) }},
		{"undeclared label", reseal(func(s string) string { return strings.Replace(s, `"choice":"drop"`, `"choice":"burn"`, 1) })},
		{"low confidence", reseal(func(s string) string { return strings.ReplaceAll(s, `"confidence":0.95`, `"confidence":0.1`) })},
		{"missing answer", reseal(func(s string) string {
			i := strings.Index(s, `"answers":[`) + len(`"answers":[`)
			j := strings.Index(s[i:], `},{`) + i + 2
			return s[:i] + s[j:]
		})},
		{"reused receipt", reseal(func(s string) string { return strings.Replace(s, `"source":"live"`, `"source":"cache"`, 1) })},
		{"another request's receipt", reseal(func(s string) string {
			i := strings.Index(s, `"receipt":`)
			return s[:i] + `"receipt":` + string(canonjson.MustEncode(other.Receipt.Value())) + s[strings.LastIndex(s, `,"route":`):]
		})},
		{"another route", reseal(func(s string) string {
			return strings.Replace(s, `"route":"`+RouteBinding(mustRoute(t, f, "local", "judge")), `"route":"`+RouteBinding(mustRoute(t, f, "local", "prompt")), 1)
		})},
		{"unknown key", reseal(func(s string) string { return strings.Replace(s, `{"answers"`, `{"extra":1,"answers"`, 1) })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, rel)
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := tc.plant(path); err != nil {
				t.Fatal(err)
			}
			if tc.name != "truncated" && tc.name != "checksum" && tc.name != "not json" && tc.name != "a folder" && tc.name != "oversized" {
				if p, err := sealed.Read(path, cacheFormat, 0); err != nil || bytes.Equal(p, payload) {
					t.Fatalf("the forged entry was not planted: %v", err)
				}
			}
			before := f.requests.Load()
			r := mustEvaluate(t, cachedEvaluator(t, f, dir, nil), req)
			if r.Receipt.Source != SourceLive || f.requests.Load() != before+1 || r.Outcome.Kind != live.Outcome.Kind {
				t.Fatalf("hostile entry: source %s, %d requests", r.Receipt.Source, f.requests.Load()-before)
			}
			if tc.name == "a folder" {
				return
			}
			if r := mustEvaluate(t, cachedEvaluator(t, f, dir, nil), req); r.Receipt.Source != SourceCache {
				t.Errorf("the answer did not replace the bad entry")
			}
		})
	}
}

func mustRoute(t *testing.T, f *fakeProvider, provider, model string) *catalog.Route {
	t.Helper()
	r, ok := testCatalog(t, f.srv.URL).Lookup(provider, model)
	if !ok {
		t.Fatalf("no route %s/%s", provider, model)
	}
	return &r
}

// TestEvaluationCacheConcurrent: evaluators of concurrent runs sharing
// one folder store and read the same and different entries at once; every
// evaluation answers, and every entry left is whole. (The built-in mock
// route answers without a network, so no request can time out.)
func TestEvaluationCacheConcurrent(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev := New(Options{Cache: openCache(t, dir)})
			for i := range 6 {
				req := request(t, "mock", "fixture", "")
				req.SiteID = fmt.Sprintf("site.%d", (w+i)%3)
				res, err := ev.Evaluate(context.Background(), req)
				if err != nil || res.Outcome.Kind != OutcomeAnswered {
					errs <- fmt.Sprintf("worker %d: %v %v", w, err, res.Outcome.Value())
					return
				}
			}
			if n, err := ev.opts.Cache.StoreErrors(); n != 0 {
				errs <- fmt.Sprintf("worker %d: %d store errors: %v", w, n, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	files := entries(t, dir)
	if len(files) != 3 {
		t.Fatalf("%d entries, want 3", len(files))
	}
	for _, file := range files {
		p, err := sealed.Read(file, cacheFormat, maxCacheEntry)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if _, err := decodeCacheEntry(p); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestEvaluationCacheTrustAndTapes: a folder others can write to is
// refused; a replaying tape answers without reading or writing the cache,
// and a recording tape records a live evaluation rather than a cached one.
func TestEvaluationCacheTrustAndTapes(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	var ue *sealed.UnsafeError
	if _, err := OpenCache(shared); err == nil || !asUnsafe(err, &ue) {
		t.Errorf("a world-writable folder was opened: %v", err)
	}

	f := newFakeProvider(t)
	dir := t.TempDir()
	req := request(t, "local", "judge", "")
	mustEvaluate(t, cachedEvaluator(t, f, dir, nil), req) // cached now
	tape := llm.NewRecordingTape()
	rec := New(Options{Catalog: testCatalog(t, f.srv.URL), LLM: llm.Options{Getenv: getenv}, Cache: openCache(t, dir), Tape: tape})
	if r := mustEvaluate(t, rec, req); r.Receipt.Source != SourceLive || f.requests.Load() != 2 {
		t.Fatalf("recording tape: source %s, %d requests", r.Receipt.Source, f.requests.Load())
	}
	var file bytes.Buffer
	if _, err := tape.WriteTo(&file); err != nil {
		t.Fatal(err)
	}
	rt, err := llm.ReadTape(bytes.NewReader(file.Bytes()), "t.tape")
	if err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	rep := New(Options{Catalog: testCatalog(t, f.srv.URL), Cache: openCache(t, empty), Tape: rt})
	if r := mustEvaluate(t, rep, req); r.Receipt.Source != SourceTape || f.requests.Load() != 2 {
		t.Fatalf("replaying tape: source %s", r.Receipt.Source)
	}
	if n := len(entries(t, empty)); n != 0 {
		t.Errorf("a replayed answer was stored (%d entries)", n)
	}
}

func asUnsafe(err error, target **sealed.UnsafeError) bool {
	u, ok := err.(*sealed.UnsafeError)
	*target = u
	return ok
}
