package harn

import "testing"

func TestWaitpointsAndMonitors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"a cancelled waitpoint ends the wait", `
waitpoint_create("a")
waitpoint_create("b")
let t = spawn { waitpoint_wait(["a", "b"], {wait_id: "w"}) }
waitpoint_complete("a")
waitpoint_cancel("b", {reason: "no longer needed", by: "ops"})
let r = await(t)
println("${r.status} ${r.cancelled_waitpoint_id} ${r.reason} ${r.waitpoints[1].cancelled_by}")
`, "cancelled b no longer needed ops\n"},
		{"a timeout ends the wait", `
let r = waitpoint_wait("never", {timeout: 1ms})
println("${r.status} ${r.waitpoints[0].status}")
`, "timed_out open\n"},
		{"std/waitpoint throws typed errors", `
import { create, cancel, wait, complete } from "std/waitpoint"
let wp = create("x")
cancel(wp, {reason: "stop"})
let r = try { wait(wp) }
println("${unwrap_err(r).name} ${unwrap_err(r).reason}")
let slow = try { wait(create("y"), {timeout: 1ms}) }
println(unwrap_err(slow).category)
complete(create("z"), 42)
println(wait("z").value)
`, "WaitpointCancelledError stop\ntimeout\n42\n"},
		{"a monitor polls until its condition holds", `
import { wait_for } from "std/monitors"
var n = 0
let r = wait_for({timeout: 5s, poll_interval: 1ms, source: {label: "counter", poll: { ctx -> n = n + 1; return n }}, condition: { s -> s >= 3 }})
println("${r.status} ${r.poll_count} ${r.state} ${r.source_label}")
`, "matched 3 3 counter\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runSource(t, tc.src, runOpts{})
			if err != nil {
				t.Fatal(err)
			}
			if out != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", out, tc.want)
			}
		})
	}
}
