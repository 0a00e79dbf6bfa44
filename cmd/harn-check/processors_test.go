package main

import (
	"runtime"
	"testing"

	"github.com/harnlang/harn-check/driver"
)

// TestWorkerProcessors checks the runtime processors a check runs with:
// one more than its workers (never more than one over what the runtime
// had), GOMAXPROCS left alone when the user set it, and the previous
// setting back after the run.
func TestWorkerProcessors(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	cases := []struct {
		name                 string
		jobs                 int
		env                  string
		wantWorkers, wantRun int
	}{
		{"one worker", 1, "", 1, 2},
		{"two workers", 2, "", 2, 3},
		{"default: one per processor", 0, "", 2, 3},
		{"more workers than processors", 8, "", 8, 3},
		{"GOMAXPROCS set", 2, "2", 2, 2},
		{"GOMAXPROCS set, default workers", 0, "2", 2, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := &env{getenv: func(k string) string {
				if k == "GOMAXPROCS" {
					return tc.env
				}
				return ""
			}}
			opts := driver.Options{Workers: tc.jobs}
			restore := workerProcessors(e, &opts)
			during := runtime.GOMAXPROCS(0)
			restore()
			if opts.Workers != tc.wantWorkers || during != tc.wantRun {
				t.Errorf("workers %d, processors %d during the run; want %d and %d", opts.Workers, during, tc.wantWorkers, tc.wantRun)
			}
			if after := runtime.GOMAXPROCS(0); after != 2 {
				t.Errorf("processors after the run: %d, want 2 back", after)
			}
		})
	}
}
