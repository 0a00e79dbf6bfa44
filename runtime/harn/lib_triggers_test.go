package harn

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/host"
)

// A trigger whose handler is a remote A2A agent reaches the network: its
// registration is refused without --allow-net and accepted with it.
func TestTriggerA2AHandlerNeedsNet(t *testing.T) {
	call := `trigger_register({kind: "webhook", provider: "github", handler: "a2a://reviewer.example:8443/triage"}).handler_kind`
	out, err := runSource(t, "let r = try { "+call+" }\nprintln(is_err(r) ? unwrap_err(r) : \"granted\")\n", runOpts{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "permission denied") || !strings.Contains(out, "--allow-net") {
		t.Fatalf("denial %q does not name --allow-net", out)
	}
	out, err = runSource(t, "println("+call+")\n", runOpts{grants: host.Grants{Net: true}})
	if err != nil || out != "a2a\n" {
		t.Fatalf("granted: %q, %v", out, err)
	}
	// A worker queue is local: no grant needed.
	out, err = runSource(t, `println(trigger_register({kind: "webhook", provider: "github", handler: "worker://triage"}).handler_kind)`+"\n", runOpts{})
	if err != nil || out != "worker\n" {
		t.Fatalf("worker: %q, %v", out, err)
	}
}

func TestTriggerDispatch(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"handler failure goes to the DLQ and replay resolves it", `
var fail = true
fn handle(e) {
  if fail { throw "boom" }
  return {ok: e.kind}
}
let h = trigger_register({id: "t", kind: "issue.opened", provider: "github", handler: handle, retry: {max: 2}})
let first = trigger_fire(h, {provider: "github", kind: "issue.opened"})
println("${first.status} ${first.error} ${len(trigger_inspect_dlq())}")
println(trigger_inspect_dlq()[0].retry_history.map({ a -> a.status }))
fail = false
let again = trigger_replay(first.event_id)
println("${again.status} ${again.result.ok} ${again.replay_of_event_id == first.event_id} ${len(trigger_inspect_dlq())}")
`, "dlq boom 1\n[failed, dlq]\ndispatched issue.opened true 0\n"},
		{"a predicate that keeps failing opens its circuit", `
var calls = 0
fn when(e) { calls = calls + 1; throw "predicate down" }
let h = trigger_register({id: "p", kind: "k", provider: "webhook", handler: { e -> "ran" }, when: when})
let rs = [1, 2, 3, 4, 5].map({ _ -> trigger_fire(h, {provider: "webhook", kind: "k"}).result.reason })
println("${calls} ${rs[3]} ${rs[4]}")
`, "3 circuit_open circuit_open\n"},
		{"events outside the match list are skipped", `
let h = trigger_register({id: "m", kind: "k", provider: "github", handler: { e -> "ran" }, match: {events: ["a"]}})
let a = trigger_fire(h, {provider: "github", kind: "a"}).result
let b = trigger_fire(h, {provider: "github", kind: "b"}).result.skipped
println("${a} ${b}")
`, "ran true\n"},
		{"the trust chain verifies and a failure narrows the policy", `
trust_record("a", "x", nil, "success", "suggest")
trust_record("a", "y", "rev", "failure", "act_auto")
let r = trust_graph_verify_chain()
let level = trust_graph_query("a").policy.side_effect_level
println("${r.verified} ${r.total} ${level}")
`, "true 2 read_only\n"},
		{"bad inputs are errors naming the builtin", `
println(try { trigger_register({kind: "k", provider: "p"}) })
println(try { trigger_fire("nope", {provider: "p", kind: "k"}) })
println(try { trust_record("a", "x", nil, "maybe", "act_auto") })
println(try { trigger_test_harness("no_such_fixture") }.is_err())
`, "Result.Err(trigger_register: missing `handler`)\nResult.Err(trigger_fire: unknown trigger `nope`)\nResult.Err(trust_record: unknown outcome `maybe` (expected success, failure, denied or timeout))\ntrue\n"},
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
