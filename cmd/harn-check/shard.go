package main

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/harnlang/harn-check/diagnostics"
)

// shardFlag is --shard i/n: the partition is diagnostics.Shard's, one
// for every command that takes the flag (check, lint, test, evaluate).
type shardFlag struct{ s *diagnostics.Shard }

func (f *shardFlag) String() string {
	if f == nil || f.s == nil {
		return ""
	}
	return fmt.Sprintf("%d/%d", f.s.Index, f.s.Count)
}

func (f *shardFlag) Set(v string) error {
	s, err := diagnostics.ParseShard(v)
	if err != nil {
		return errors.New("want i/n with 1 <= i <= n, such as 2/4")
	}
	f.s = s
	return nil
}

// Help texts of --shard: what a command splits, and which of its
// outputs 'harn-check merge' joins.
const (
	shardCheckHelp    = "check only part `i/n` of the files (the k-th file found goes to part k mod n + 1), each with its imports; 'harn-check merge' joins the parts' --json or --format sarif outputs into the whole run's"
	shardLintHelp     = "lint only part `i/n` of the files (the k-th file found goes to part k mod n + 1), each with its imports; 'harn-check merge' joins the parts' --json or --format sarif outputs into the whole run's"
	shardTestHelp     = "run only part `i/n` of the cases (the k-th case found goes to part k mod n + 1), each checked with its imports; 'harn-check merge' joins the parts' --json or --junit outputs into the whole run's"
	shardEvaluateHelp = "evaluate only part `i/n` of the .leia files (the k-th file found goes to part k mod n + 1; not with --replay or --record); 'harn-check merge' joins the parts' --json or --report outputs into the whole run's"
)

// registerShard declares --shard with its help text.
func registerShard(fs *flagSet, f *shardFlag, help string) {
	fs.Var(f, "shard", help)
}

// fixedClock reads SOURCE_DATE_EPOCH (the reproducible-builds
// convention): when set, test and evaluate report that time and zero
// durations, so that a run, and the merge of its shards, give the same
// bytes every time. ok is false when it is unset.
func fixedClock(e *env) (at time.Time, ok bool, err error) {
	v := e.getenv("SOURCE_DATE_EPOCH")
	if v == "" {
		return time.Time{}, false, nil
	}
	secs, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("SOURCE_DATE_EPOCH %q: want seconds since 1970", v)
	}
	return time.Unix(secs, 0).UTC(), true, nil
}
