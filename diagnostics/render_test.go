package diagnostics

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// fixtureReport builds a report that exercises every rendering edge: a
// multi-line span, tabs, non-ASCII text (2-byte, 3-byte wide and 4-byte
// astral characters), a span at end of file, related spans in the same and
// in another file, fixes, a file with no diagnostics and an unreadable file.
func fixtureReport() *Report {
	triage := "import {choice} from \"std/predicate\"\n" + // line 1
		"fn triage(harness: Harness, text: string) {\n" + // line 2
		"\tconst o = harness.llm.evaluate(\"triage\", text, {\n" + // line 3
		"\t\tsev: choice(\"Sévérité 😀?\", {low: \"\", high: \"\"}),\n" + // line 4
		"\t})\n" + // line 5
		"\tif o.value.sev.choice == \"hgih\" { return 1 }\n" + // line 6
		"}\n" + // line 7
		"const 名前 = 1 +" // line 8, no trailing newline
	at := func(s, sub string) Span {
		i := strings.Index(s, sub)
		return Span{i, i + len(sub)}
	}
	helper := "export fn label() -> string { return \"low\" }\n"
	call := at(triage, "harness.llm.evaluate(\"triage\", text, {\n\t\tsev: choice(\"Sévérité 😀?\", {low: \"\", high: \"\"}),\n\t})")
	typo := at(triage, "\"hgih\"")
	return &Report{
		Files: []File{
			{
				Path:   "examples/triage.harn",
				Source: []byte(triage),
				Diagnostics: []Diagnostic{
					{
						Source: SourceType, Code: "HARN-TYP-002", Severity: Error,
						Message: "\"hgih\" is not a declared label of question `sev`",
						Span:    typo,
						Related: []Related{
							{Span: at(triage, "{low: \"\", high: \"\"}"), Message: "labels declared here"},
							{Path: "lib/helper.harn", Span: at(helper, "\"low\""), Message: "also compared here"},
						},
						Help:  "did you mean \"high\"?",
						Fixes: []Fix{{Title: "Replace with \"high\"", Edits: []TextEdit{{Span: typo, NewText: "\"high\""}}}},
					},
					{
						Source: SourceType, Code: "HARN-TYP-032", Severity: Warning,
						Message: "outcome of `evaluate` is discarded, 50%: a,b\nsecond line",
						Span:    call,
					},
					{
						Source: SourceParser, Code: "HARN-PAR-002", Severity: Error,
						Message: "expected an expression after `+`",
						Span:    Span{len(triage), len(triage)},
					},
					{
						Source: SourceType, Code: "HARN-TYP-036", Severity: Info,
						Message: "named 名前",
						Span:    at(triage, "名前"),
					},
				},
			},
			{Path: "examples/clean.harn", Source: []byte("fn main() {}\n")},
			{
				Path: "examples/unreadable file,1.harn",
				Diagnostics: []Diagnostic{{
					Source: SourceIO, Code: "HARN-IO-001", Severity: Error,
					Message: "cannot read file: permission denied",
				}},
			},
		},
		Sources: map[string][]byte{"lib/helper.harn": []byte(helper)},
	}
}

func emptyReport() *Report {
	return &Report{Files: []File{{Path: "a.harn", Source: []byte("fn main() {}\n")}}}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "render", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./diagnostics -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestRenderGolden(t *testing.T) {
	reports := map[string]func() *Report{"mixed": fixtureReport, "empty": emptyReport}
	for name, mk := range reports {
		renders := map[string]func(*bytes.Buffer) error{
			"txt":       func(b *bytes.Buffer) error { return RenderText(b, mk(), TextOptions{}) },
			"color.txt": func(b *bytes.Buffer) error { return RenderText(b, mk(), TextOptions{Color: true}) },
			"json":      func(b *bytes.Buffer) error { return RenderJSON(b, mk()) },
			"sarif": func(b *bytes.Buffer) error {
				return RenderSARIF(b, mk(), SARIFOptions{ToolName: "harn-check", ToolVersion: "test"})
			},
			"github": func(b *bytes.Buffer) error { return RenderGitHub(b, mk()) },
		}
		for ext, render := range renders {
			t.Run(name+"."+ext, func(t *testing.T) {
				var b bytes.Buffer
				if err := render(&b); err != nil {
					t.Fatal(err)
				}
				var again bytes.Buffer
				_ = render(&again)
				if !bytes.Equal(b.Bytes(), again.Bytes()) {
					t.Fatal("rendering is not deterministic")
				}
				got := b.Bytes()
				if ext == "sarif" {
					got = stripRuleHelp(t, got)
				}
				golden(t, name+"."+ext, got)
			})
		}
	}
}

// The golden files pin whole outputs; these assertions say what in them
// matters, so that a careless -update is caught.
func TestRenderPositions(t *testing.T) {
	var b bytes.Buffer
	if err := RenderJSON(&b, fixtureReport()); err != nil {
		t.Fatal(err)
	}
	var env struct {
		OK   bool
		Data struct {
			Files []struct {
				Path        string
				Status      string
				Diagnostics []struct {
					Code                             string
					Line, Column, EndLine, EndColumn int
					Span                             struct{ Start, End int }
					Related                          []struct {
						Path         string
						Line, Column int
					}
				}
			}
			Summary struct{ OK, Warnings, Errors, Diagnostics int }
		}
	}
	if err := json.Unmarshal(b.Bytes(), &env); err != nil {
		t.Fatal(err)
	}
	if env.OK || env.Data.Summary.Errors != 3 || env.Data.Summary.Warnings != 1 || env.Data.Summary.OK != 1 || env.Data.Summary.Diagnostics != 5 {
		t.Errorf("summary wrong: ok=%v %+v", env.OK, env.Data.Summary)
	}
	ds := env.Data.Files[0].Diagnostics
	type pos struct {
		code         string
		l, c, el, ec int
	}
	want := []pos{
		{"HARN-TYP-032", 3, 12, 5, 4},  // multi-line span starting after a tab
		{"HARN-TYP-002", 6, 27, 6, 33}, // after a tab; columns in code points
		{"HARN-TYP-036", 8, 7, 8, 9},   // wide characters count once
		{"HARN-PAR-002", 8, 15, 8, 15}, // zero-length span at end of file
	}
	for i, w := range want {
		d := ds[i]
		if got := (pos{d.Code, d.Line, d.Column, d.EndLine, d.EndColumn}); got != w {
			t.Errorf("diagnostic %d: got %+v, want %+v", i, got, w)
		}
	}
	if r := ds[1].Related[1]; r.Path != "lib/helper.harn" || r.Line != 1 || r.Column != 38 {
		t.Errorf("related in other file: %+v", r)
	}
	if env.Data.Files[2].Status != "error" || env.Data.Files[1].Status != "ok" {
		t.Errorf("statuses: %+v", env.Data.Files)
	}
}

func TestRenderSARIFUsesUTF16Columns(t *testing.T) {
	src := "x = \"😀\" + y\n"
	i := strings.Index(src, "y")
	r := &Report{Files: []File{{Path: "dir with space/a.harn", Source: []byte(src), Diagnostics: []Diagnostic{
		{Code: "HARN-TYP-002", Message: "m", Span: Span{i, i + 1}},
	}}}}
	var b bytes.Buffer
	if err := RenderSARIF(&b, r, SARIFOptions{ToolName: "harn-check"}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartColumn, EndColumn, CharOffset int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	res := log.Runs[0].Results[0]
	loc := res.Locations[0].PhysicalLocation
	// "x = \"" is 5 units, the emoji 2, "\" + " 4: y is the 12th unit.
	if loc.Region.StartColumn != 12 || loc.Region.EndColumn != 13 || loc.Region.CharOffset != 11 {
		t.Errorf("region %+v", loc.Region)
	}
	if loc.ArtifactLocation.URI != "dir%20with%20space/a.harn" {
		t.Errorf("uri %q", loc.ArtifactLocation.URI)
	}
	if log.Runs[0].Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID || res.Level != "error" {
		t.Errorf("ruleIndex/level wrong: %+v", res)
	}
}

func TestGitHubEscaping(t *testing.T) {
	for _, tc := range []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"50%", "50%25", "50%25"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"k:v,w", "k:v,w", "k%3Av%2Cw"},
	} {
		if got := githubData(tc.in); got != tc.data {
			t.Errorf("githubData(%q) = %q, want %q", tc.in, got, tc.data)
		}
		if got := githubProperty(tc.in); got != tc.prop {
			t.Errorf("githubProperty(%q) = %q, want %q", tc.in, got, tc.prop)
		}
	}
}

// stripRuleHelp checks that each SARIF rule's help is its registry page and
// then blanks it, so editing an explanation page does not churn the golden.
func stripRuleHelp(t *testing.T, sarif []byte) []byte {
	t.Helper()
	var log map[string]any
	if err := json.Unmarshal(sarif, &log); err != nil {
		t.Fatal(err)
	}
	driver := log["runs"].([]any)[0].(map[string]any)["tool"].(map[string]any)["driver"].(map[string]any)
	for _, r := range driver["rules"].([]any) {
		rule := r.(map[string]any)
		info, ok := Lookup(rule["id"].(string))
		help := rule["help"].(map[string]any)
		if !ok || help["markdown"] != info.Explanation || help["text"] != info.Explanation {
			t.Errorf("rule %v: help is not the registry's explanation", rule["id"])
		}
		help["text"], help["markdown"] = "<explanation>", "<explanation>"
	}
	// Re-encode in the renderer's own key order by decoding into the wire type.
	var typed sarifLog
	data, _ := json.Marshal(log)
	if err := json.Unmarshal(data, &typed); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(typed); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Every code's SARIF rule name is a PascalCase identifier, not the code
// itself (SARIF1001), and no two codes share one.
func TestSARIFRuleNames(t *testing.T) {
	seen := map[string]string{}
	name := regexp.MustCompile(`^[A-Z][A-Za-z0-9]+$`)
	for _, c := range Codes() {
		n := RuleName(c)
		if !name.MatchString(n) || strings.EqualFold(n, strings.ReplaceAll(c.Code, "-", "")) {
			t.Errorf("%s: rule name %q", c.Code, n)
		}
		if other, ok := seen[n]; ok {
			t.Errorf("%s and %s share the rule name %q", other, c.Code, n)
		}
		seen[n] = c.Code
	}
}
