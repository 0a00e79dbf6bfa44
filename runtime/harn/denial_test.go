package harn

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/host"
)

// No program reaches the file system outside its folder and temp dir, runs
// a process or opens a connection without the matching grant. Each denial
// is a catchable error naming the flag.
func TestProgramDenials(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "pong") }))
	defer srv.Close()
	tmp := t.TempDir()
	q := func(s string) string { return `"` + s + `"` }
	cases := []struct {
		name, call, flag string
		grants           host.Grants
		allowedOut       string
	}{
		{"read outside", "read_file(" + q(secret) + ")", "--allow-fs=" + outside, host.Grants{FS: []string{outside}}, "secret"},
		{"write outside", "write_file(" + q(filepath.Join(outside, "new.txt")) + `, "x")`, "--allow-fs=" + outside, host.Grants{FS: []string{outside}}, "nil"},
		{"list outside", "list_dir(" + q(outside) + ").contains(\"secret.txt\")", "--allow-fs=" + outside, host.Grants{FS: []string{outside}}, "true"},
		{"delete outside", "delete_file(" + q(filepath.Join(outside, "nope")) + ")", "--allow-fs=" + outside, host.Grants{}, ""},
		{"exec", `exec("echo", "hi").stdout`, "--allow-exec", host.Grants{Exec: true}, "hi\n"},
		{"shell", `shell("echo hi").stdout`, "--allow-exec", host.Grants{Exec: true}, "hi\n"},
		{"net", "http_get(" + q(srv.URL) + ").body", "--allow-net", host.Grants{Net: true}, "pong"},
		{"process.exec", `host_call("process.exec", {command: "echo hi"}).stdout`, "--allow-exec", host.Grants{Exec: true}, "hi\n"},
		{"mcp_connect", `mcp_connect("python3", ["server.py"])`, "--allow-exec", host.Grants{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "let r = try { " + c.call + " }\nprintln(is_err(r) ? unwrap_err(r) : \"granted\")\n"
			out, err := runSource(t, src, runOpts{tempDir: tmp})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, "permission denied") || !strings.Contains(out, c.flag) {
				t.Fatalf("denial %q does not name %s", out, c.flag)
			}
			if c.allowedOut == "" {
				return
			}
			out, err = runSource(t, "println("+c.call+")\n", runOpts{grants: c.grants, tempDir: tmp})
			if err != nil || strings.TrimSuffix(out, "\n") != c.allowedOut {
				t.Fatalf("granted: got %q, %v; want %q", out, err, c.allowedOut)
			}
		})
	}
	if b, _ := os.ReadFile(secret); string(b) != "secret" {
		t.Fatal("the secret changed")
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); err != nil {
		// written only by the granted run above
		t.Fatalf("granted write did not happen: %v", err)
	}
}

// TestHTTPMocksNeedNoGrant: mocked requests never leave the process.
func TestHTTPMocksNeedNoGrant(t *testing.T) {
	src := `http_mock("GET", "https://api.example.com/*", {status: 201, body: "mocked"})
let r = http_get("https://api.example.com/users", {headers: {Authorization: "Bearer x"}})
println([r.status, r.body, r.ok])
println(http_mock_calls()[0].headers)
`
	out, err := runSource(t, src, runOpts{})
	if err != nil || out != "[201, mocked, true]\n{authorization: [redacted]}\n" {
		t.Fatalf("got %q, %v", out, err)
	}
}
