package evaluate

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/internal/sealed"
	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/redact"
)

// CacheSchema names an evaluation cache entry's payload.
const CacheSchema = "harn-check.evaluation_cache.v1"

// cacheFormat is the sealed record format of a cache entry.
const cacheFormat = 1

// maxCacheEntry bounds the bytes of one entry read back.
const maxCacheEntry = 8 << 20

// Cache is an opt-in, content-addressed cache of answered evaluations
// (`--evaluation-cache DIR`, harn.toml's [evaluation] cache). Nothing is
// written without it.
//
// Key: the entry of a request is the file <dir>/<2 hex>/<64 hex>.json
// named by its evaluation_id (the stable request identity: site id,
// canonical input, normalised questions and criteria, policy, route
// protocol and structured strategy, evaluator and output versions), so
// the same request finds the same entry and any change to one of these
// is a different entry.
//
// An entry is {schema, evaluation_id, route, answers, receipt}: the
// original live receipt, the answers, and route, a digest of how the
// route is reached (provider, model, protocol, structured transport, chat
// wire, endpoint, wire model and mock answers; see RouteBinding). It
// holds neither the state nor the question text, and is redacted like
// every persisted artifact. An entry is used only when all of this holds,
// and is otherwise a miss that the next answer overwrites:
//
//   - it is a sealed record of this format, intact, a regular file the
//     current user owns, at most 8 MiB (see internal/sealed; a folder
//     others can write to or another user owns is refused by OpenCache);
//   - its evaluation_id is the request's and its route binding is the
//     route's current one (a changed endpoint or wire model invalidates
//     it);
//   - its receipt is an original live answered receipt that binds the
//     request (the --verify-receipt check);
//   - its answers cover exactly the request's questions, each of the
//     question's kind, with a declared label or level, finite numbers in
//     [0, 1], and at or above the policy's threshold.
//
// Only answered outcomes are stored: refusals, low_confidence, budget
// cuts, tape replays and answers themselves reused from the cache never
// are. A hit is decided before admission and dispatch: it reserves and
// charges nothing, reports zero physical attempts and zero cost
// (accounting not_dispatched), and its receipt has source "cache" and the
// original receipt in reused_from. Cache and tape are separate steps: a
// replaying tape answers without the cache, and while a tape records, the
// cache is not read (the tape keeps live evaluations) but answers are
// stored.
//
// Entries are written to a temporary file and renamed into place, so
// concurrent runs sharing a folder never see a torn entry; the last
// writer of an identity wins. A Cache is safe for concurrent use.
type Cache struct {
	dir string

	mu       sync.Mutex
	failures int
	firstErr error
}

// OpenCache opens (creating, owner-only) the cache folder dir. A folder
// others can write to or another user owns is refused with a
// *sealed.UnsafeError.
func OpenCache(dir string) (*Cache, error) {
	if err := sealed.OpenDir(dir); err != nil {
		return nil, err
	}
	return &Cache{dir: dir}, nil
}

// Dir is the cache's folder.
func (c *Cache) Dir() string { return c.dir }

// StoreErrors reports how many answers could not be stored and the first
// error (the evaluations themselves are unaffected).
func (c *Cache) StoreErrors() (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failures, c.firstErr
}

// file is the entry of an evaluation id ("blake3:" + 64 hex digits).
func (c *Cache) file(evaluationID string) (string, bool) {
	h, ok := strings.CutPrefix(evaluationID, "blake3:")
	if !ok || len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" {
		return "", false
	}
	return filepath.Join(c.dir, h[:2], h+".json"), true
}

// RouteBinding is the digest of how a route is reached, which a cache
// entry records: the answer of a route dialling another endpoint or wire
// model is not reused.
func RouteBinding(r *catalog.Route) string {
	if r == nil {
		return digestParts("harn-check.evaluation_route.v1", "unresolved")
	}
	mock, _ := json.Marshal(r.Runtime.Mock)
	return digestParts("harn-check.evaluation_route.v1", r.Provider, r.Model, r.Protocol, r.Transport,
		r.Runtime.API, r.Runtime.BaseURL, r.Runtime.WireModel, string(mock))
}

// cacheEntry is a decoded entry.
type cacheEntry struct {
	evaluationID string
	route        string
	answers      []*Answer
	receipt      *Receipt
	receiptValue *canonjson.Object
}

// encodeCacheEntry is the payload of an answered result.
func encodeCacheEntry(route string, res *Result) []byte {
	answers := []any{}
	for _, a := range res.Answers {
		answers = append(answers, a.record())
	}
	o := canonjson.NewObject()
	o.Set("schema", CacheSchema)
	o.Set("evaluation_id", res.Receipt.EvaluationID)
	o.Set("route", route)
	o.Set("answers", answers)
	o.Set("receipt", res.Receipt.Value())
	return redact.Bytes(canonjson.MustEncode(o))
}

// cacheKeys are the keys of an entry, exactly.
var cacheKeys = []string{"answers", "evaluation_id", "receipt", "route", "schema"}

// decodeCacheEntry reads an entry's payload. Any input gives an entry or
// an error, never a panic.
func decodeCacheEntry(data []byte) (*cacheEntry, error) {
	v, err := canonjson.Decode(data)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*canonjson.Object)
	if !ok {
		return nil, errors.New("the entry is not an object")
	}
	keys := slices.Clone(o.Keys)
	slices.Sort(keys)
	if !slices.Equal(keys, cacheKeys) {
		return nil, fmt.Errorf("the entry has keys %v, want %v", keys, cacheKeys)
	}
	if s, _ := o.Values["schema"].(string); s != CacheSchema {
		return nil, fmt.Errorf("the entry's schema is %q", s)
	}
	e := &cacheEntry{}
	e.evaluationID, _ = o.Values["evaluation_id"].(string)
	e.route, _ = o.Values["route"].(string)
	if e.evaluationID == "" || e.route == "" {
		return nil, errors.New("the entry has no evaluation_id or route")
	}
	list, ok := o.Values["answers"].([]any)
	if !ok {
		return nil, errors.New("the entry's answers are not a list")
	}
	for _, a := range list {
		ans, err := answerFromRecord(a)
		if err != nil {
			return nil, err
		}
		e.answers = append(e.answers, ans)
	}
	if e.receiptValue, ok = o.Values["receipt"].(*canonjson.Object); !ok {
		return nil, errors.New("the entry's receipt is not an object")
	}
	if e.receipt, err = ParseReceipt(e.receiptValue); err != nil {
		return nil, err
	}
	return e, nil
}

// lookup returns the entry of a request when it may be reused, or why
// not.
func (c *Cache) lookup(cat *catalog.Catalog, req Request, p *Policy, qs *QuestionSet, route *catalog.Route, evaluationID string) (*cacheEntry, error) {
	file, ok := c.file(evaluationID)
	if !ok {
		return nil, errors.New("the evaluation id is not a digest")
	}
	payload, err := sealed.Read(file, cacheFormat, maxCacheEntry)
	if err != nil {
		return nil, err
	}
	e, err := decodeCacheEntry(payload)
	if err != nil {
		return nil, err
	}
	switch orig := e.receipt; {
	case e.evaluationID != evaluationID || orig.EvaluationID != evaluationID:
		return nil, errors.New("the entry is another request's")
	case e.route != RouteBinding(route):
		return nil, errors.New("the route is reached differently now")
	case orig.Source != SourceLive || orig.ReusedFrom != nil || orig.OutcomeKind != OutcomeAnswered:
		return nil, errors.New("the entry does not hold an original live answer")
	}
	if v := verifyParsed(cat, req, p, qs, e.receipt); !v.Verified {
		return nil, fmt.Errorf("the entry's receipt does not bind the request (%s %s)", v.Refusals[0].Code, v.Refusals[0].Field)
	}
	if err := checkAnswers(qs, e.answers, p.Threshold); err != nil {
		return nil, err
	}
	return e, nil
}

// checkAnswers: exactly one answer per question, in question order, each
// of its question's kind with a declared label or level, finite
// probabilities and confidence in [0, 1], meeting the threshold.
func checkAnswers(qs *QuestionSet, answers []*Answer, threshold float64) error {
	if len(answers) != len(qs.Questions) {
		return fmt.Errorf("%d answers for %d questions", len(answers), len(qs.Questions))
	}
	unit := func(f float64) bool { return !math.IsNaN(f) && f >= 0 && f <= 1 }
	for i := range qs.Questions {
		q, a := &qs.Questions[i], answers[i]
		if a.QuestionID != q.ID || a.Kind != q.Kind {
			return fmt.Errorf("answer %d is not question %q's", i+1, q.ID)
		}
		if !unit(a.Confidence) || !a.Meets(threshold) {
			return fmt.Errorf("question %q: confidence %v is not an answer at threshold %v", q.ID, a.Confidence, threshold)
		}
		labels := q.Labels()
		switch a.Kind {
		case KindBoolean:
			if !unit(a.Probability) {
				return fmt.Errorf("question %q: probability %v", q.ID, a.Probability)
			}
		case KindChoice:
			if !slices.Contains(labels, a.Choice) {
				return fmt.Errorf("question %q: %q is not a declared label", q.ID, a.Choice)
			}
		case KindScore:
			if !slices.Contains(labels, a.Level) || math.IsNaN(a.Score) || math.IsInf(a.Score, 0) {
				return fmt.Errorf("question %q: %q is not a declared level", q.ID, a.Level)
			}
		}
		for _, d := range []map[string]float64{a.Probabilities, a.Raw} {
			for l, pr := range d {
				if !unit(pr) || (a.Kind != KindBoolean && !slices.Contains(labels, l)) {
					return fmt.Errorf("question %q: probability of %q", q.ID, l)
				}
			}
		}
	}
	return nil
}

// store keeps an answered live result; a failure is counted, not
// returned: the evaluation already answered.
func (c *Cache) store(route *catalog.Route, res *Result) {
	rc := res.Receipt
	if res.Outcome.Kind != OutcomeAnswered || rc.Source != SourceLive || rc.ReusedFrom != nil || rc.PhysicalAttempts != 1 {
		return
	}
	file, ok := c.file(rc.EvaluationID)
	err := errors.New("the evaluation id is not a digest")
	if ok {
		err = sealed.Write(file, cacheFormat, encodeCacheEntry(RouteBinding(route), res))
	}
	if err != nil {
		c.mu.Lock()
		c.failures++
		if c.firstErr == nil {
			c.firstErr = err
		}
		c.mu.Unlock()
	}
}

// reuse makes rc the receipt of an answer reused from source (tape or
// cache): the original's facts, this invocation's id, zero attempts,
// tokens and cost, and the original receipt in reused_from.
func reuse(rc, orig *Receipt, original *canonjson.Object, source string) {
	zero, zeroCost := int64(0), 0.0
	reused := *orig
	reused.InvocationID = rc.InvocationID
	reused.Source = source
	reused.PhysicalAttempts = 0
	reused.InputTokens, reused.OutputTokens = &zero, &zero
	reused.CostUSD, reused.BudgetChargeUSD = &zeroCost, &zeroCost
	reused.AccountingStatus = AccountingNotDispatched
	reused.CostAdmission, reused.NativeTransport, reused.Usage = nil, nil, nil
	reused.ReusedFrom = original
	*rc = reused
}
