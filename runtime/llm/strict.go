package llm

import "sync"

// strict is the one strict replay engine under every tape format
// (harn-check.tape.v1's Tape, .records.json's Replay): records are
// consumed once, in order, and the record a request takes must be the
// one recorded for it; a mismatched record is consumed too, so later
// requests stay aligned; the first failure is kept for finish, which
// also reports records left over. It is safe for concurrent use; a
// recording tape appends to records under mu.
type strict[R any] struct {
	mu      sync.Mutex
	records []R
	next    int
	failure error
}

// take consumes the next record. check says why a record does not answer
// the request (nil when it does); exhausted is the failure when no record
// is left. pos is the record's 1-based position.
func (s *strict[R]) take(check func(pos int, rec R) error, exhausted func(pos int) error) (R, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var rec R
	pos := s.next + 1
	if s.next >= len(s.records) {
		err := exhausted(pos)
		s.fail(err)
		return rec, err
	}
	rec = s.records[s.next]
	s.next++
	if err := check(pos, rec); err != nil {
		s.fail(err)
		var zero R
		return zero, err
	}
	return rec, nil
}

// fail keeps err when it is the first failure; the caller holds mu.
func (s *strict[R]) fail(err error) {
	if s.failure == nil {
		s.failure = err
	}
}

// Fail keeps err (the first one) for finish.
func (s *strict[R]) Fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail(err)
}

// finish is the first failure, else leftover's error for the records not
// consumed (next is the 1-based position of the first), else nil.
func (s *strict[R]) finish(leftover func(next int, rec R, left int) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failure != nil {
		return s.failure
	}
	if left := len(s.records) - s.next; left > 0 && leftover != nil {
		return leftover(s.next+1, s.records[s.next], left)
	}
	return nil
}

// counts is the number of records and of those consumed.
func (s *strict[R]) counts() (loaded, consumed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.records), s.next
}
