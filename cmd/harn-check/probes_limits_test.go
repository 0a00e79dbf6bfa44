package main

import (
	"path/filepath"
	"testing"
)

// The run-time limit probes (issue 25, "unbounded runs"): each runs a
// hostile program with `run` as a child process and checks that it ends
// with the limit's one-line error, in bounded memory (checkProbe), instead
// of running until killed.

// runProbeOf is a probe that runs one program file.
func runProbeOf(name, file, src string, exit int, flags []string, want ...string) probe {
	return probe{
		name: name,
		setup: func(t *testing.T, dir string) []string {
			write(t, filepath.Join(dir, file), []byte(src))
			return append(append([]string{"run", "--no-check"}, flags...), file)
		},
		exit:  exit,
		check: contains(want...),
	}
}

// harnShared builds l and m, lists that share themselves 100 levels deep
// (2^100 leaves each).
const harnShared = "var l = [1]\nvar m = [1]\nfor i in 0 to 100 {\n  l = [l, l]\n  m = [m, m]\n}\n"

func limitProbes() []probe {
	timeout := []string{"--timeout", "3s"}
	return []probe{
		runProbeOf("run-shared-list-to-string", "p.harn", harnShared+"println(to_string(l))\n", exitFail, timeout,
			"budget exceeded", "raise it with --"),
		runProbeOf("run-shared-list-json", "p.harn", harnShared+"println(json_stringify(l))\n", exitFail, timeout,
			"budget exceeded", "raise it with --"),
		runProbeOf("run-shared-list-equal", "p.harn", harnShared+"println(l == m)\n", exitOK, timeout, "true"),
		runProbeOf("run-shared-table-json-leia", "p.leia", "l := [1]\nfor i := 0; i < 100; i++ { l = [l, l] }\nfor { pcall(json.encode, l) }\n", exitFail, timeout,
			"budget exceeded", "raise it with --"),
		// 60 MB strings built in a loop: the memory budget stops them
		// within a few iterations (the default limits).
		runProbeOf("run-60mb-strings-harn", "p.harn", "let s = \"x\".repeat(60000000)\nvar l = []\nwhile true {\n  l = l.push(s + \"y\")\n}\n", exitFail, nil,
			"memory budget exceeded", "raise it with --max-memory"),
		// A list grown by push: each growth of its array is charged
		// before it is allocated (a push into the room left is not
		// charged).
		runProbeOf("run-list-push-growth-harn", "p.harn", "var l = []\nvar i = 0\nwhile true {\n  l = l.push(i)\n  i = i + 1\n}\n", exitFail, nil,
			"memory budget exceeded", "raise it with --max-memory"),
		runProbeOf("run-60mb-strings-leia", "p.leia", "s := string.rep(\"x\", 60000000)\nl := []\nfor { l[#l+1] = s .. \"y\" }\n", exitFail, nil,
			"memory budget exceeded", "raise it with --max-memory"),
		// A table grown one element at a time: its array part doubles in
		// one append, old and new arrays both live, so the growth is
		// charged before it (peak 547 MB before, when only the periodic
		// heap reading saw it).
		runProbeOf("run-table-growth-leia", "p.leia", "t := {}\nfor i := 0; i < 100000000; i++ { t[i] = i }\n", exitFail, nil,
			"memory budget exceeded", "raise it with --max-memory"),
		runProbeOf("run-table-insert-leia", "p.leia", "t := {}\nfor i := 1; i < 100000000; i++ { table.insert(t, i) }\n", exitFail, nil,
			"memory budget exceeded", "raise it with --max-memory"),
		runProbeOf("run-append-growth-leia", "p.leia", "s := []\nfor i := 0; i < 100000000; i++ { s = append(s, i) }\n", exitFail, nil,
			"memory budget exceeded", "raise it with --max-memory"),
		// Task bombs stop at the task budget; tasks left when the main
		// program ends do not keep the run waiting.
		runProbeOf("run-parallel-100m", "p.harn", "println(parallel 100000000 { i -> i })\n", exitFail, nil,
			"task budget exceeded", "raise it with --max-tasks"),
		runProbeOf("run-spawn-bomb-harn", "p.harn", "while true {\n  spawn { sleep(100s) }\n}\n", exitFail, nil,
			"task budget exceeded", "raise it with --max-tasks"),
		runProbeOf("run-spawned-left-behind", "p.harn", "spawn { sleep(100s) }\nspawn { while true {} }\nprintln(\"main done\")\n", exitOK, timeout, "main done"),
		runProbeOf("run-goroutines-left-behind", "p.leia", "go func() { time.sleep(100) }()\ngo func() { for {} }()\nprint(\"main done\")\n", exitOK, timeout, "main done"),
		// Limits cannot be caught.
		runProbeOf("run-pcall-step-budget", "p.leia", "for { pcall(func() { for {} }) }\n", exitFail, []string{"--max-steps", "1000000"},
			"step budget exceeded", "raise it with --max-steps"),
		runProbeOf("run-try-step-budget", "p.harn", "while true {\n  try {\n    while true {}\n  } catch (e) {\n    println(e)\n  }\n}\n", exitFail, []string{"--max-steps", "1000000"},
			"step budget exceeded", "raise it with --max-steps"),
		runProbeOf("run-try-timeout", "p.harn", "while true {\n  try {\n    while true {}\n  } catch (e) {\n    println(e)\n  }\n}\n", exitFail, []string{"--timeout", "1s"},
			"time budget exceeded", "raise it with --timeout"),
		// A Harn program blocked on a channel reports the deadlock and
		// where each task waits.
		runProbeOf("run-deadlock-harn", "p.harn", "let ch = channel(\"jobs\", 0)\nlet h = spawn { receive(ch) }\nreceive(ch)\n", exitFail, nil,
			"deadlock:", "main program: receive on channel jobs at p.harn:3:1", "receive on channel jobs at p.harn:2:17"),
		runProbeOf("run-json-too-deep-harn", "p.harn", "var x = 1\nfor i in 0 to 3000 {\n  x = [x]\n}\nprintln(json_stringify(x))\n",
			exitFail, nil, "json_stringify: value nested deeper than 2000 levels"),
	}
}

func TestLimitProbes(t *testing.T) {
	if testing.Short() {
		t.Skip("the run-time limit probes run harn-check as a child process; skipped in -short")
	}
	for _, p := range limitProbes() {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel() // most wait for a timeout
			dir := t.TempDir()
			args := p.setup(t, dir)
			r := runProbe(t, filepath.Join(dir, p.subdir), args, "")
			checkProbe(t, p.name, p, dir, r)
		})
	}
}
