package harn

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The trigger engine: the parts a trigger dispatch goes through, each
// driven by a virtual clock so a scenario runs the same way every time.
// A virtual clock (triggerClock) holds wall time and a monotonic offset
// and only moves when told; cron schedules (cronSchedule) compute their
// next boundary from it; the dedupe inbox (triggerInbox) claims a
// delivery key once per binding within a retention window; a token bucket
// (tokenBucket) throttles per provider and scope; retries double their
// backoff (retryBackoff); failures past retry land in a dead-letter queue
// (triggerDLQ) that can be replayed; a circuit breaker (triggerCircuit)
// opens after consecutive failures; the binding registry
// (triggerRegistry) versions bindings, drains old versions on hot reload
// until their in-flight work finishes, and resolves the version that was
// live at an instant for replay.

// triggerClock is a virtual clock: wall is the current instant, mono the
// time advanced since the clock was made.
type triggerClock struct {
	mu   sync.Mutex
	wall time.Time
	mono time.Duration
}

func newTriggerClock(start time.Time) *triggerClock { return &triggerClock{wall: start.UTC()} }

// now is the clock's wall time.
func (k *triggerClock) now() time.Time {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.wall
}

// monoMs is the milliseconds advanced since the clock was made.
func (k *triggerClock) monoMs() int64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.mono.Milliseconds()
}

// set moves wall time without counting it as elapsed.
func (k *triggerClock) set(t time.Time) {
	k.mu.Lock()
	k.wall = t.UTC()
	k.mu.Unlock()
}

// advance moves both clocks forward by d.
func (k *triggerClock) advance(d time.Duration) {
	k.mu.Lock()
	k.wall = k.wall.Add(d)
	k.mono += d
	k.mu.Unlock()
}

// rfc3339 formats an instant the way trigger records carry it.
func triggerTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// ---- cron ----

// cronSchedule is a parsed five-field cron expression (minute hour
// day-of-month month day-of-week) in a time zone.
type cronSchedule struct {
	minute, hour, dom, month, dow uint64 // bit sets
	domStar, dowStar              bool
	loc                           *time.Location
}

var cronMacros = map[string]string{
	"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
	"@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}

var cronMonthNames = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
	"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}
var cronDayNames = map[string]int{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}

// parseCron reads a cron expression in the named zone ("" is UTC).
func parseCron(expr, zone string) (*cronSchedule, error) {
	e := strings.TrimSpace(expr)
	if m, ok := cronMacros[strings.ToLower(e)]; ok {
		e = m
	}
	fields := strings.Fields(e)
	if len(fields) != 5 {
		return nil, fmt.Errorf("invalid cron schedule %q: expected 5 fields (minute hour day-of-month month day-of-week), got %d", expr, len(fields))
	}
	loc := time.UTC
	if zone != "" && !strings.EqualFold(zone, "utc") {
		l, err := time.LoadLocation(zone)
		if err != nil {
			return nil, fmt.Errorf("invalid cron timezone %q: %v", zone, err)
		}
		loc = l
	}
	s := &cronSchedule{loc: loc}
	var err error
	parse := func(i, lo, hi int, names map[string]int) uint64 {
		if err != nil {
			return 0
		}
		var bits uint64
		bits, err = cronField(fields[i], lo, hi, names)
		if err != nil {
			err = fmt.Errorf("invalid cron schedule %q: %v", expr, err)
		}
		return bits
	}
	s.minute = parse(0, 0, 59, nil)
	s.hour = parse(1, 0, 23, nil)
	s.dom = parse(2, 1, 31, nil)
	s.month = parse(3, 1, 12, cronMonthNames)
	s.dow = parse(4, 0, 7, cronDayNames)
	if err != nil {
		return nil, err
	}
	if s.dow&(1<<7) != 0 { // 7 is Sunday too
		s.dow |= 1
	}
	s.domStar = fields[2] == "*" || fields[2] == "?"
	s.dowStar = fields[4] == "*" || fields[4] == "?"
	return s, nil
}

// cronField reads one comma-separated field into a bit set.
func cronField(f string, lo, hi int, names map[string]int) (uint64, error) {
	var bits uint64
	num := func(s string) (int, error) {
		if n, ok := names[strings.ToLower(s)]; ok {
			return n, nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("value %q out of range %d-%d", s, lo, hi)
		}
		return n, nil
	}
	for _, part := range strings.Split(f, ",") {
		step := 1
		if i := strings.IndexByte(part, '/'); i >= 0 {
			n, err := strconv.Atoi(part[i+1:])
			if err != nil || n <= 0 {
				return 0, fmt.Errorf("invalid step in %q", part)
			}
			step = n
			part = part[:i]
		}
		start, end := lo, hi
		switch {
		case part == "*" || part == "?":
		case strings.Contains(part, "-"):
			a, b, _ := strings.Cut(part, "-")
			var err error
			if start, err = num(a); err != nil {
				return 0, err
			}
			if end, err = num(b); err != nil {
				return 0, err
			}
			if end < start {
				return 0, fmt.Errorf("range %q runs backwards", part)
			}
		default:
			n, err := num(part)
			if err != nil {
				return 0, err
			}
			start = n
			if step == 1 {
				end = n
			}
		}
		for v := start; v <= end; v += step {
			bits |= 1 << uint(v)
		}
	}
	return bits, nil
}

// dayMatches applies cron's rule: with both day fields restricted, either
// may match.
func (s *cronSchedule) dayMatches(t time.Time) bool {
	d := s.dom&(1<<uint(t.Day())) != 0
	w := s.dow&(1<<uint(t.Weekday())) != 0
	switch {
	case s.domStar && s.dowStar:
		return true
	case s.domStar:
		return w
	case s.dowStar:
		return d
	}
	return d || w
}

// next is the first boundary strictly after t, or the zero time when none
// falls within five years.
func (s *cronSchedule) next(t time.Time) time.Time {
	c := t.In(s.loc).Truncate(time.Minute).Add(time.Minute)
	limit := c.AddDate(5, 0, 0)
	for c.Before(limit) {
		if s.month&(1<<uint(c.Month())) == 0 {
			c = time.Date(c.Year(), c.Month()+1, 1, 0, 0, 0, 0, s.loc)
			continue
		}
		if !s.dayMatches(c) {
			c = time.Date(c.Year(), c.Month(), c.Day()+1, 0, 0, 0, 0, s.loc)
			continue
		}
		if s.hour&(1<<uint(c.Hour())) == 0 {
			c = time.Date(c.Year(), c.Month(), c.Day(), c.Hour()+1, 0, 0, 0, s.loc)
			continue
		}
		if s.minute&(1<<uint(c.Minute())) == 0 {
			c = c.Add(time.Minute)
			continue
		}
		return c.UTC()
	}
	return time.Time{}
}

// cronCatchup says what a schedule does with boundaries it missed while
// not running: "skip" fires none of them, "latest" fires the last one,
// "all" fires each.
type cronCatchup string

// cronTicks are the boundaries to fire between last (the last fired, or
// the activation instant) and now, under a catch-up mode. Boundaries
// passed by a clock that was advanced while running are all on time: the
// mode applies to those missed before activation (missedBefore).
func (s *cronSchedule) ticks(last, now, missedBefore time.Time, mode cronCatchup) []time.Time {
	var out []time.Time
	var missed []time.Time
	for t := s.next(last); !t.IsZero() && !t.After(now); t = s.next(t) {
		if t.Before(missedBefore) {
			missed = append(missed, t)
			continue
		}
		out = append(out, t)
		if len(out) > 100000 {
			break
		}
	}
	switch mode {
	case "all", "catch_up":
		out = append(missed, out...)
	case "latest":
		if len(missed) > 0 {
			out = append([]time.Time{missed[len(missed)-1]}, out...)
		}
	}
	return out
}

// ---- dedupe inbox ----

// triggerInbox claims delivery keys: a key is accepted once per binding
// until its retention has passed.
type triggerInbox struct {
	mu      sync.Mutex
	claimed map[string]time.Time // binding \x00 key -> expiry
}

func newTriggerInbox() *triggerInbox { return &triggerInbox{claimed: map[string]time.Time{}} }

// claim reports whether the key is new for the binding at now, and if so
// holds it for retention.
func (ib *triggerInbox) claim(binding, key string, now time.Time, retention time.Duration) bool {
	ib.mu.Lock()
	defer ib.mu.Unlock()
	k := binding + "\x00" + key
	if exp, ok := ib.claimed[k]; ok && now.Before(exp) {
		return false
	}
	ib.claimed[k] = now.Add(retention)
	return true
}

// defaultInboxRetention is how long a delivery key stays claimed.
const defaultInboxRetention = 7 * 24 * time.Hour

// ---- token bucket ----

// tokenBucket admits capacity requests at once and refills refill tokens
// each interval of the clock it reads.
type tokenBucket struct {
	mu       sync.Mutex
	clock    *triggerClock
	capacity float64
	refill   float64
	interval time.Duration
	buckets  map[string]*bucketState
}

type bucketState struct {
	tokens float64
	at     time.Duration
}

func newTokenBucket(clock *triggerClock, capacity, refill int, interval time.Duration) *tokenBucket {
	return &tokenBucket{clock: clock, capacity: float64(capacity), refill: float64(refill), interval: interval, buckets: map[string]*bucketState{}}
}

// tryAcquire takes a token from the provider's bucket for the scope, or
// reports that none is left and how long until one is.
func (tb *tokenBucket) tryAcquire(provider, scope string) (bool, time.Duration) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.clock.mu.Lock()
	now := tb.clock.mono
	tb.clock.mu.Unlock()
	k := provider + "\x00" + scope
	b := tb.buckets[k]
	if b == nil {
		b = &bucketState{tokens: tb.capacity, at: now}
		tb.buckets[k] = b
	}
	if elapsed := now - b.at; elapsed > 0 && tb.interval > 0 {
		b.tokens += tb.refill * float64(elapsed) / float64(tb.interval)
		if b.tokens > tb.capacity {
			b.tokens = tb.capacity
		}
		b.at = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	need := (1 - b.tokens) / tb.refill * float64(tb.interval)
	return false, time.Duration(need)
}

// ---- retry ----

// retryBackoff is the wait before retry n (1-based) under exponential
// backoff from base, capped at max (0: no cap).
func retryBackoff(base, max time.Duration, n int) time.Duration {
	d := base
	for i := 1; i < n; i++ {
		d *= 2
		if max > 0 && d >= max {
			return max
		}
	}
	return d
}

// ---- circuit breaker ----

// triggerCircuit opens after threshold consecutive failures; while open
// calls fail fast; after cooldown one probe is let through (half-open),
// and its success closes the circuit again.
type triggerCircuit struct {
	threshold int
	cooldown  time.Duration
	failures  int
	state     string // "closed", "open", "half_open"
	openedAt  time.Duration
}

func newTriggerCircuit(threshold int, cooldown time.Duration) *triggerCircuit {
	return &triggerCircuit{threshold: threshold, cooldown: cooldown, state: "closed"}
}

// allow reports whether a call may go through at monotonic time now.
func (c *triggerCircuit) allow(now time.Duration) bool {
	switch c.state {
	case "open":
		if now-c.openedAt >= c.cooldown {
			c.state = "half_open"
			return true
		}
		return false
	}
	return true
}

// record notes a call's outcome and reports whether it opened the
// circuit.
func (c *triggerCircuit) record(ok bool, now time.Duration) (opened bool) {
	if ok {
		c.failures = 0
		c.state = "closed"
		return false
	}
	c.failures++
	if c.state == "half_open" || c.failures >= c.threshold {
		c.state = "open"
		c.openedAt = now
		return true
	}
	return false
}

// ---- dead-letter queue ----

// dlqEntry is an event that exhausted its retries.
type dlqEntry struct {
	ID, EventID, BindingID, State, Error string
	Attempts                             int
	Replayed                             bool
}

// triggerDLQ holds dead letters in arrival order.
type triggerDLQ struct {
	entries []*dlqEntry
}

func (q *triggerDLQ) push(e *dlqEntry) { e.State = "pending"; q.entries = append(q.entries, e) }

// replay marks the entry for the event replayed and returns it.
func (q *triggerDLQ) replay(eventID string) (*dlqEntry, error) {
	for _, e := range q.entries {
		if e.EventID == eventID {
			if e.State != "pending" {
				return nil, fmt.Errorf("dead letter %s for event %s is %s, not pending", e.ID, eventID, e.State)
			}
			e.State = "replayed"
			e.Replayed = true
			e.Attempts++
			return e, nil
		}
	}
	return nil, fmt.Errorf("no dead letter for event %s", eventID)
}

// ---- binding registry ----

// bindingVersion is one installed version of a trigger binding.
type bindingVersion struct {
	ID          string
	Version     int
	Fingerprint string
	State       string // registering, active, draining, terminated
	InFlight    int
	ActivatedAt time.Time
}

// triggerRegistry holds the versions of each binding and a lifecycle
// history that outlives garbage-collected versions.
type triggerRegistry struct {
	mu       sync.Mutex
	versions map[string][]*bindingVersion
	history  map[string][]bindingHistory
	keep     int // terminated versions kept per binding (0: all)
}

type bindingHistory struct {
	version     int
	activatedAt time.Time
}

func newTriggerRegistry(keep int) *triggerRegistry {
	return &triggerRegistry{versions: map[string][]*bindingVersion{}, history: map[string][]bindingHistory{}, keep: keep}
}

func (r *triggerRegistry) live(id string) *bindingVersion {
	vs := r.versions[id]
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].State == "active" {
			return vs[i]
		}
	}
	return nil
}

// install applies a manifest: a binding whose definition fingerprint
// changed gets a new active version; the old one drains while it has
// in-flight work and terminates otherwise.
func (r *triggerRegistry) install(id, fingerprint string, at time.Time) *bindingVersion {
	r.mu.Lock()
	defer r.mu.Unlock()
	cur := r.live(id)
	if cur != nil && cur.Fingerprint == fingerprint {
		return cur
	}
	n := 1
	if vs := r.versions[id]; len(vs) > 0 {
		n = vs[len(vs)-1].Version + 1
	}
	if cur != nil {
		if cur.InFlight > 0 {
			cur.State = "draining"
		} else {
			cur.State = "terminated"
		}
	}
	b := &bindingVersion{ID: id, Version: n, Fingerprint: fingerprint, State: "active", ActivatedAt: at}
	r.versions[id] = append(r.versions[id], b)
	r.history[id] = append(r.history[id], bindingHistory{version: n, activatedAt: at})
	r.gc(id)
	return b
}

// gc drops terminated versions beyond the newest keep.
func (r *triggerRegistry) gc(id string) {
	if r.keep <= 0 {
		return
	}
	vs := r.versions[id]
	var kept []*bindingVersion
	terminated := 0
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].State == "terminated" {
			terminated++
			if terminated > r.keep {
				continue
			}
		}
		kept = append([]*bindingVersion{vs[i]}, kept...)
	}
	r.versions[id] = kept
}

// begin counts in-flight work on a version.
func (r *triggerRegistry) begin(id string, version int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.versions[id] {
		if b.Version == version {
			if b.State != "active" {
				return fmt.Errorf("trigger binding %s@v%d is %s and takes no new work", id, version, b.State)
			}
			b.InFlight++
			return nil
		}
	}
	return fmt.Errorf("unknown trigger binding %s@v%d", id, version)
}

// finish ends in-flight work; a draining version with none left
// terminates.
func (r *triggerRegistry) finish(id string, version int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.versions[id] {
		if b.Version == version && b.InFlight > 0 {
			b.InFlight--
			if b.InFlight == 0 && b.State == "draining" {
				b.State = "terminated"
			}
		}
	}
	r.gc(id)
}

// snapshot lists every kept version, by id then version.
func (r *triggerRegistry) snapshot() []bindingVersion {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.versions))
	for id := range r.versions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var out []bindingVersion
	for _, id := range ids {
		for _, b := range r.versions[id] {
			out = append(out, *b)
		}
	}
	return out
}

// resolveAsOf finds the version to replay an event recorded against
// version at receivedAt: that version when it is still kept, else the
// version the lifecycle history says was live at receivedAt.
func (r *triggerRegistry) resolveAsOf(id string, version int, receivedAt time.Time) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.versions[id] {
		if b.Version == version {
			return version, nil
		}
	}
	found := 0
	for _, h := range r.history[id] {
		if !h.activatedAt.After(receivedAt) {
			found = h.version
		}
	}
	if found == 0 {
		return 0, fmt.Errorf("trigger binding %s has no version live at %s", id, triggerTime(receivedAt))
	}
	return found, nil
}
