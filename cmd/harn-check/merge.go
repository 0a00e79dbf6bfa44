package main

import (
	"encoding/json"
	"os"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/sourcefs"
)

func mergeCommand() *command {
	return &command{
		name: "merge", args: "FILE...", summary: "join the outputs of --shard runs into the whole run's",
		about: `Each FILE is the --json (JSON envelope) or --format sarif output of one shard
of a check or lint run (--shard i/n); every shard 1..n must be given once, in
any order. The result is the output the run gives without --shard, byte for
byte, on stdout or in --output FILE. Exit status: 0 when the merged run has no
error diagnostics, 1 when it has, 2 when the files do not make one run.`,
		setup: func(fs *flagSet) action {
			var output string
			fs.StringVar(&output, "output", "", "write the merged document to `file` instead of stdout")
			return func(e *env, files []string) int {
				if len(files) == 0 {
					return fail(e, "no files given (usage: harn-check merge [--output FILE] FILE...)")
				}
				var docs [][]byte
				var kind diagnostics.MergeKind
				for _, f := range files {
					b, err := sourcefs.Read(f, 0)
					if err != nil {
						return fail(e, "%s: %s", f, sourcefs.Reason(err))
					}
					k := diagnostics.Sniff(b)
					if k == "" {
						return fail(e, "%s: not the --json or --format sarif output of a harn-check run", f)
					}
					if kind != "" && k != kind {
						return fail(e, "%s is %s but %s is %s: merge outputs of one format", files[0], kind, f, k)
					}
					kind = k
					docs = append(docs, b)
				}
				out, err := diagnostics.Merge(kind, docs, files)
				if err != nil {
					return fail(e, "%v", err)
				}
				if output != "" {
					if err := os.WriteFile(output, out, 0o644); err != nil {
						return fail(e, "--output %s: %v", output, unwrapPath(err))
					}
				} else if _, err := e.stdout.Write(out); err != nil {
					return fail(e, "writing output: %v", err)
				}
				if !mergedOK(kind, out) {
					return exitFail
				}
				return exitOK
			}
		},
	}
}

// mergedOK reports whether a merged document has no error diagnostic
// (and no tool error).
func mergedOK(kind diagnostics.MergeKind, doc []byte) bool {
	switch kind {
	case diagnostics.MergeJSON:
		var env struct {
			OK bool `json:"ok"`
		}
		return json.Unmarshal(doc, &env) == nil && env.OK
	case diagnostics.MergeSARIF:
		var log struct {
			Runs []struct {
				Invocations []struct {
					ExecutionSuccessful bool `json:"executionSuccessful"`
				} `json:"invocations"`
				Results []struct {
					Level string `json:"level"`
				} `json:"results"`
			} `json:"runs"`
		}
		if json.Unmarshal(doc, &log) != nil {
			return false
		}
		for _, r := range log.Runs {
			for _, inv := range r.Invocations {
				if !inv.ExecutionSuccessful {
					return false
				}
			}
			for _, res := range r.Results {
				if res.Level == "error" {
					return false
				}
			}
		}
	}
	return true
}
