// Package execution is the execution core both interpreters share
// (runtime/harn and runtime/leia): what bounds a run, what stops it, and
// who runs program code when.
//
//   - A Run is one program run: its limits (steps, wall time, memory, live
//     tasks; Limits and the table Table that the CLI's flags and the
//     README's table are made from), its context, and the one error that
//     ended it. Start begins a run, End releases it.
//   - A Meter is one interpreter thread's counter of the run's steps. The
//     interpreter counts a step per loop iteration and call inline; every
//     Interval steps, and whenever a builtin charges bulk work (Steps) or
//     an allocation (Alloc), the Meter checks the run: the step budget,
//     cancellation, the clock and, now and then, the heap.
//   - A run's Turn passes the right to run program code between its tasks
//     in FIFO order, so program state needs no locks. Closing the turn at
//     the run's end abandons the tasks still waiting for it.
//   - A run's Tracker knows which tasks are alive and where each one waits;
//     when every task waits on something only another task could provide,
//     nothing can happen any more, and it reports a deadlock that lists
//     where each task waits.
//
// # Invariants
//
// A stop (a *LimitError, a cancellation, a deadlock) ends the whole run:
// once Stop has been called, every Meter check of the run returns the same
// error, so a program that catches it (try/catch, pcall) meets it again at
// its next step. Interpreters test IsStop before catching and let it pass.
// Every limit error is one line that names the flag raising the limit.
//
// Memory is measured, not guessed: allocation-heavy builtins charge the
// bytes they are about to allocate (Alloc), a charge larger than the whole
// budget is refused before anything is allocated, and every few MiB
// charged (and every 64 intervals of steps) the run compares the Go heap
// with the budget, collecting garbage first when it looks over. Runs that
// execute at the same time in one process share one heap, so their
// budgets add up.
//
// The package knows no language, does no I/O and starts no goroutine
// except the short-lived one that confirms a deadlock.
package execution
