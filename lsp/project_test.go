package lsp_test

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/format"
)

// TestProjectSettings: the server reads harn.toml's [lint] and [fmt] as
// the command line does (driver.ProjectFor, through the editor's
// buffers): a code the project disables is not published, a severity it
// sets is, and formatting breaks lines at its line_width.
func TestProjectSettings(t *testing.T) {
	long := "fn f(alpha: int, beta: int) -> int {\n  return alpha + beta\n}\n\npipeline default(task) {\n  log(f(1234567890, 987654321) + f(1234567890, 987654321) + f(11, 22))\n}\n"
	tests := []struct {
		name, toml string
		want       string // a code and severity published, "" none
		width      int
	}{
		{"no project file", "", `"severity":1,"code":"HARN-TYP-035"`, 0},
		{"disabled", "[lint]\ndisabled = [\"HARN-TYP-035\"]\n", "", 0},
		{"severity", "[lint.severity]\n\"HARN-TYP-035\" = \"warning\"\n", `"severity":2,"code":"HARN-TYP-035"`, 0},
		{"line width", "[fmt]\nline_width = 40\n", `"severity":1,"code":"HARN-TYP-035"`, 40},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, all := routedWithProject(t, tc.toml)
			joined := strings.ReplaceAll(strings.Join(all, "\n"), " ", "")
			if tc.want == "" && len(all) != 0 {
				t.Errorf("diagnostics %s, want none", joined)
			}
			if tc.want != "" && !strings.Contains(joined, tc.want) {
				t.Errorf("diagnostics %s, want %s", joined, tc.want)
			}

			c.Open("file:///nonexistent-w/p/long.harn", "harn", 1, long)
			edits, rpcErr := formatCall(t, c, "textDocument/formatting", map[string]any{
				"textDocument": map[string]any{"uri": "file:///nonexistent-w/p/long.harn"},
				"options":      map[string]any{"tabSize": 2, "insertSpaces": true}})
			if rpcErr != nil {
				t.Fatal(rpcErr)
			}
			l, _ := format.ForExt(".harn")
			want, err := l.Format([]byte(long), format.Options{LineWidth: tc.width})
			if err != nil {
				t.Fatal(err)
			}
			if got := applyWire(t, long, edits); got != string(want) {
				t.Errorf("formatting gives\n%s\nwant (width %d)\n%s", got, tc.width, want)
			}
			if tc.width > 0 && string(want) == long {
				t.Errorf("the width %d changes nothing: the case tests nothing", tc.width)
			}
		})
	}
}
