package harn

import (
	"strconv"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/host"
)

// std/runtime's process_exec runs a shell command and reports it as
// upstream does; what the command leaves running in the background is
// killed when the run ends.
func TestProcessExec(t *testing.T) {
	src := `import { process_exec, process_exec_with_timeout } from "std/runtime"
let r = process_exec("echo out; echo err >&2; exit 3")
println(r.stdout.trim() + " " + r.stderr.trim() + " " + to_string(r.exit_code) + " " + to_string(r.success) + " " + r.status)
let slow = process_exec_with_timeout("sleep 5", 50)
println(slow.status + " " + to_string(slow.timed_out) + " " + to_string(slow.success))
let bg = process_exec("sleep 30 >/dev/null 2>&1 & echo $!")
println(bg.stdout.trim())
`
	out, err := runSource(t, src, runOpts{grants: host.Grants{Exec: true}})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || lines[0] != "out err 3 false completed" || lines[1] != "timed_out true false" {
		t.Fatalf("got %q", out)
	}
	pid := lines[2]
	if _, err := strconv.Atoi(pid); err != nil {
		t.Fatalf("no pid in %q", out)
	}
	waitGone(t, pid, "background process")
}

// The shell catalog: the default is in the list, an invocation puts the
// command last, an unknown shell is refused, and host_has sees the
// built-in operations beside mocked ones.
func TestShellCatalog(t *testing.T) {
	src := `let cat = host_call("process.list_shells", {})
let def = host_call("process.get_default_shell", {})
println(cat.default_shell_id == def.id && cat.shells.map({ s -> s.id }).contains(def.id))
let inv = host_call("process.shell_invocation", {shell_id: def.id, command: "echo x"})
println(inv.program == def.path && inv.args[inv.command_arg_index] == "echo x")
println(try { host_call("process.set_default_shell", {shell_id: "no-such-shell"}) } catch (e) { "refused" })
println(host_has("process", "exec") && host_has("workspace", "cwd") && !host_has("process", "teleport"))
`
	out, err := runSource(t, src, runOpts{})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out != "true\ntrue\nrefused\ntrue\n" {
		t.Fatalf("got %q", out)
	}
}

// record_run_metadata reports a persisted run to the host and nothing
// for a run without a path.
func TestRecordRunMetadata(t *testing.T) {
	src := `import { record_run_metadata } from "std/runtime"
host_mock("runtime", "record_run", {result: nil})
record_run_metadata({status: "done"}, "wf")
record_run_metadata({path: "runs/1.json", status: "done", transcript: nil}, "wf")
let calls = host_mock_calls()
println(len(calls))
println(calls[0].params.workflow + " " + calls[0].params.path + " " + calls[0].params.status + " " + to_string(calls[0].params.message_count))
`
	out, err := runSource(t, src, runOpts{})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out != "1\nwf runs/1.json done 0\n" {
		t.Fatalf("got %q", out)
	}
}
