package harn

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/mcp/mcptest"
)

// The test binary doubles as the MCP server the tests connect to: run
// with HARN_TEST_MCP_SERVER=1 it serves the fixture on stdin/stdout.
func TestMain(m *testing.M) {
	if os.Getenv("HARN_TEST_MCP_SERVER") == "1" {
		if err := mcptest.Serve(os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// mcpFixture is the command line that starts the fixture server.
func mcpFixture(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HARN_TEST_MCP_SERVER", "1")
	return strconv.Quote(exe)
}

// A program talks to a real MCP server over stdio: tools, a tool's own
// error, an error response, resources, templates, prompts; the server's
// log lines on stdout and its request for roots do not disturb the
// client; a server that dies is reported with what it wrote to stderr.
func TestMCPStdioClient(t *testing.T) {
	exe := mcpFixture(t)
	src := `let client = mcp_connect(` + exe + `, [])
println(type_of(client))
for t in mcp_list_tools(client) { println(t.name + " " + t._mcp_server) }
println(mcp_call(client, "echo", {message: "hi"}))
println(mcp_call(client, "add", {a: 3, b: 7}))
println(try { mcp_call(client, "fail") } catch (e) { "caught " + e })
println(try { mcp_call(client, "nope") } catch (e) { "caught " + e })
println(mcp_list_resources(client)[0].uri)
println(mcp_read_resource(client, "fixture://readme"))
println(mcp_list_resource_templates(client)[0].uriTemplate)
println(mcp_list_prompts(client)[0].name)
println(mcp_get_prompt(client, "greet", {who: "harn"}).messages[0].content.text)
println(mcp_server_info(client).connected)
println(try { mcp_call(client, "crash") } catch (e) { "caught " + e })
mcp_disconnect(client)
println(try { mcp_server_info(client) } catch (e) { "caught " + e })
`
	want := `mcp_client
echo ` + strings.Trim(exe, `"`) + `
add ` + strings.Trim(exe, `"`) + `
fail ` + strings.Trim(exe, `"`) + `
pid ` + strings.Trim(exe, `"`) + `
crash ` + strings.Trim(exe, `"`) + `
hi
10
caught intentional error
caught MCP error (-32601): Unknown tool: nope
fixture://readme
contents of fixture://readme
fixture://{name}
greet
hello harn
true
caught Runtime error: MCP: server closed connection; it wrote: fixture: crashing on purpose
caught Runtime error: MCP client is disconnected
`
	out, err := runSource(t, src, runOpts{grants: host.Grants{Exec: true}})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
}

// Without --allow-exec, mcp_connect starts nothing and says which grant
// is missing; a grant for other programs does not cover it.
func TestMCPConnectNeedsExecGrant(t *testing.T) {
	exe := mcpFixture(t)
	for _, g := range []host.Grants{{}, {ExecNames: []string{"python3"}}} {
		out, err := runSource(t, `println(try { mcp_connect(`+exe+`, []) } catch (e) { e })`, runOpts{grants: g})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "permission denied: exec") || !strings.Contains(out, "--allow-exec") {
			t.Fatalf("grants %+v: %q does not refuse the spawn naming --allow-exec", g, out)
		}
	}
}

// A server the program never disconnects dies with the run.
func TestMCPServerEndsWithRun(t *testing.T) {
	exe := mcpFixture(t)
	out, err := runSource(t, `let c = mcp_connect(`+exe+`, [])
println(mcp_call(c, "pid"))
`, runOpts{grants: host.Grants{Exec: true}})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	pid := strings.TrimSpace(out)
	if _, err := strconv.Atoi(pid); err != nil {
		t.Fatalf("no pid: %q", out)
	}
	waitGone(t, pid, "server")
}

// waitGone fails t unless process pid (what names it) is gone within
// five seconds of the run's end; without /proc it skips t.
func waitGone(t *testing.T, pid, what string) {
	t.Helper()
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("no /proc to look the " + what + " up in")
	}
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("%s %s outlived the run", what, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid string) bool {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}
