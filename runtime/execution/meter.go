package execution

// Meter counts one interpreter thread's steps against its run. Counting a
// step is a decrement and a test the compiler inlines; every Interval
// steps the interpreter calls Check, which accounts them to the run and
// returns the run's stop, if any. A Meter belongs to one thread and is
// not safe for concurrent use; its Run is.
type Meter struct {
	left int64
	run  *Run
}

// NewMeter returns a meter of r (nil: a meter that never stops).
func NewMeter(r *Run) Meter { return Meter{left: Interval, run: r} }

// Run is the run the meter counts for.
func (m *Meter) Run() *Run { return m.run }

// Step counts one step and reports whether the interval is used up, in
// which case the caller must call Check.
func (m *Meter) Step() bool {
	m.left--
	return m.left <= 0
}

// Check accounts the steps counted since the last check and returns the
// run's stop, if any.
func (m *Meter) Check() error {
	used := Interval - m.left
	m.left = Interval
	return m.run.Tick(used)
}

// Steps charges n steps of a builtin's work (elements compared, encoded,
// copied, sorted; bytes scanned by a pattern in units the builtin
// chooses), checking the run whenever an interval is used up.
func (m *Meter) Steps(n int64) error {
	m.left -= n
	if m.left > 0 {
		return nil
	}
	return m.Check()
}

// Alloc charges n bytes the caller is about to allocate (see Run.Alloc).
func (m *Meter) Alloc(n int64) error { return m.run.Alloc(n) }

// Err is the run's stop, if any, without counting anything.
func (m *Meter) Err() error { return m.run.Err() }
