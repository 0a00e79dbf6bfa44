package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToolDefineAgreement: for a tool_define config written as a literal,
// the checker's HARN-STD-004 message is the error the runtime throws when
// the same program runs unchecked, and a config the checker accepts runs.
func TestToolDefineAgreement(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		wantErr      string // a fragment of the shared message; "" = valid
	}{
		{"params for parameters", `{params: {}, handler: { a -> a }}`, "use 'parameters', not 'params'"},
		{"no handler and no executor", `{parameters: {}}`, "has no `handler` and no `executor`"},
		{"unknown executor", `{executor: "rocketship", parameters: {}}`, `unknown executor "rocketship"`},
		{"harn without handler", `{executor: "harn", parameters: {}}`, `declares executor: "harn" but has no`},
		{"harn with host_capability", `{handler: { a -> a }, host_capability: "x.y"}`, "also sets `host_capability`"},
		{"harn with mcp_server", `{handler: { a -> a }, mcp_server: "s"}`, "also sets `mcp_server`"},
		{"host bridge with handler", `{executor: "host_bridge", host_capability: "x.y", handler: { a -> a }}`, "Drop the handler — host-bridge"},
		{"host bridge without capability", `{executor: "host_bridge"}`, "is missing `host_capability`"},
		{"host bridge with empty capability", `{executor: "host_bridge", host_capability: ""}`, "is missing `host_capability`"},
		{"mcp without server", `{executor: "mcp_server"}`, "is missing `mcp_server`"},
		{"mcp with handler", `{executor: "mcp_server", mcp_server: "s", handler: { a -> a }}`, "route through the MCP transport"},
		{"provider native with handler", `{executor: "provider_native", handler: { a -> a }}`, "executed by the model server"},
		{"a handler", `{handler: { a -> a }, parameters: {}}`, ""},
		{"harn_builtin spelling", `{executor: "harn_builtin", handler: { a -> a }}`, ""},
		{"a runtime-answered tool", `{executor: "harn"}`, ""},
		{"host bridge", `{executor: "host_bridge", host_capability: "interaction.ask"}`, ""},
		{"mcp", `{executor: "mcp_server", mcp_server: "docs"}`, ""},
		{"provider native", `{executor: "provider_native"}`, ""},
		{"nil keys are absent", `{handler: { a -> a }, host_capability: nil, mcp_server: nil}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tool := "t"
			if tc.name == "a runtime-answered tool" {
				tool = "read_file"
			}
			src := "fn main() {\n  let r = tool_define(tool_registry(), \"" + tool + "\", \"d\", " + tc.config + ")\n  log(len(r.tools))\n}\n"
			path := filepath.Join(t.TempDir(), "td.harn")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, out, errs := runCLI(t, "--format", "json", path)
			var report struct {
				Data struct {
					Files []struct {
						Diagnostics []struct{ Code, Message string }
					}
				}
			}
			if err := json.Unmarshal([]byte(out), &report); err != nil || len(report.Data.Files) != 1 {
				t.Fatalf("check output: %v\n%s%s", err, out, errs)
			}
			checked := ""
			for _, d := range report.Data.Files[0].Diagnostics {
				if d.Code == "HARN-STD-004" {
					checked = d.Message
				}
			}
			code, runOut, runErrs := runCLI(t, "run", "--no-check", path)
			if tc.wantErr == "" {
				if checked != "" || code != exitOK || runOut != "[harn] 1\n" {
					t.Fatalf("valid config: checker said %q; run exit %d, stdout %q, stderr %q", checked, code, runOut, runErrs)
				}
				return
			}
			if !strings.Contains(checked, tc.wantErr) {
				t.Fatalf("checker message %q does not say %q", checked, tc.wantErr)
			}
			if code == exitOK || !strings.Contains(runErrs, "Thrown: "+checked+"\n") {
				t.Errorf("run exit %d; stderr %q does not carry the checker's message %q", code, runErrs, checked)
			}
		})
	}
}
