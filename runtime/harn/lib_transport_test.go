package harn

import "testing"

// TestTransportEgressSSE covers the egress policy's rule kinds, SSE
// frames and server streams, mocked WebSockets and HTTP streams.
func TestTransportEgressSSE(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"egress: wildcards match subdomains only, deny wins, CIDR and ports", `
egress_policy({allow: ["*.ex.test", "10.0.0.0/8", "p.test:8443"], deny: ["bad.ex.test"], default: "deny"})
fn blocked(u) { return unwrap_err(try { http_get(u) }).reason }
println(blocked("https://ex.test/"))
println(blocked("https://bad.ex.test/"))
println(blocked("https://p.test/"))
println(blocked("https://x.test/?token=s3cret"))
println(unwrap_err(try { http_get("https://x.test/?token=s3cret") }).url)
http_mock("GET", "https://a.ex.test/", {status: 204, body: ""})
println(http_get("https://a.ex.test/").status)
`, "no allow rule matched\nmatched deny rule `bad.ex.test`\nno allow rule matched\nno allow rule matched\nhttps://x.test/?token=%5Bredacted%5D\n204\n"},
		{"an unmocked stream to an allowed host still needs a network", `
println(unwrap_err(try { websocket_connect("ftp://x", {}) }))
println(unwrap_err(try { sse_connect("GET", "https://x.test/e", {}) }))
`, "websocket_connect: URL must start with ws:// or wss://, got 'ftp://x'\npermission denied: connect x.test:443: network access is not granted; grant it with --allow-net\n"},
		{"sse frames: multi-line data, comments, bad ids", `
print(sse_event({event: "e", data: "a\nb", id: "1", retry: 5}))
print(sse_event("plain"))
print(sse_event({comment: "hi"}))
println(unwrap_err(try { sse_event({id: "a\nb"}) }))
`, "id: 1\nevent: e\nretry: 5\ndata: a\ndata: b\n\ndata: plain\n\n: hi\n\nsse_event: id must not contain newlines\n"},
		{"an sse server stream buffers up to its limit and reads back", `
let r = sse_server_response({max_buffered_events: 1})
println(sse_server_send(r, {data: "x", retry: 3}))
println(unwrap_err(try { sse_server_send(r, "y") }))
let e = sse_server_mock_receive(r)
println(e.data + " " + to_string(e.retry_ms))
println(sse_server_mock_receive(r).type)
println(sse_server_close(r))
println(sse_server_mock_receive(r).type)
`, "true\nsse_server_send: buffered events exceeded max_buffered_events (1)\nx 3\ntimeout\ntrue\nclose\n"},
		{"mocked websockets echo, close and are recorded", `
websocket_mock("wss://s/*", {messages: [{type: "binary", data: "AAE=", base64: true}], echo: true})
let s = websocket_connect("wss://s/a", {})
println(websocket_receive(s, 0))
websocket_send(s, "hi", {})
println(websocket_receive(s, 0).data)
println(websocket_receive(s, 0).type)
websocket_send(s, {type: "close"}, {})
println(websocket_send(s, "late", {}))
println(websocket_close(s))
println(len(transport_mock_calls()))
`, "{data_base64: AAE=, type: binary}\nhi\ntimeout\nfalse\ntrue\n4\n"},
		{"an http stream hands out its body in chunks", `
http_mock("GET", "https://h/x", {status: 200, body: "abcde"})
let s = http_stream_open("https://h/x")
println(bytes_to_string(http_stream_read(s, 2)) + bytes_to_string(http_stream_read(s, 9)))
println(http_stream_read(s, 1))
println(http_stream_close(s))
println(http_stream_close(s))
`, "abcde\nnil\ntrue\nfalse\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runSource(t, tc.src, runOpts{})
			if err != nil {
				t.Fatal(err)
			}
			if out != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", out, tc.want)
			}
		})
	}
}
