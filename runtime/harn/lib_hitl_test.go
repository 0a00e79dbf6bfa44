package harn

import "testing"

func TestHostMocksAndHITL(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"the latest matching mock answers; unmocked operations are unavailable", `
host_mock("fs", "read", {result: "any"})
host_mock("fs", "read", {result: "special", params: {path: "a"}})
println(host_call("fs.read", {path: "a"}) + " " + host_call("fs.read", {path: "b"}))
println(unwrap_err(try { host_call("fs.write", {}) }))
println(len(host_mock_calls()))
`, "special any\nnot available in this runtime: host_call fs.write has no host bridge in this runtime; mock it with host_mock\n2\n"},
		{"approval below quorum is denied", `
host_mock("hitl", "approval", [{approved: true, reviewer: "alice"}, {approved: false, reviewer: "bob"}, {approved: true, reviewer: "mallory"}])
let r = try { request_approval("ship", {quorum: 2, reviewers: ["alice", "bob"]}) }
println(unwrap_err(r).name + " " + unwrap_err(r).message)
`, "ApprovalDeniedError request_approval: 1 of 2 required approvals for \"ship\"\n"},
		{"an unanswered question times out to its default", `
println(ask_user("anyone?", {timeout: 1ms, default: "nobody"}))
println(unwrap_err(try { ask_user("anyone?", {timeout: 1ms}) }).name)
`, "nobody\nHumanTimeoutError\n"},
		{"dual control runs the step only with enough approvals", `
host_mock("hitl", "dual_control", [{approved: true, reviewer: "a"}])
println(unwrap_err(try { dual_control(2, 3, { -> "done" }, ["a", "b", "c"]) }).category)
`, "denied\n"},
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
