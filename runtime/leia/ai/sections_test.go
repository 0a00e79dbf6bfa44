package ai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/llm"
)

func msgTexts(req llm.TurnRequest) []string {
	var out []string
	for _, m := range req.Messages {
		out = append(out, m.Role+": "+m.Text)
	}
	return out
}

func TestSections(t *testing.T) {
	p := answers(`{"headline":"Launch is ready","confidence":0.91}`, `{"risk":"Low","owner":"ops"}`)
	r := mustRun3(t, `
lookup := llm.tool("lookup", func(query) { return "found:" .. query, nil }, {params: ["query"], description: "Lookup shared evidence."})
generated, err := llm.sections({
    model: "mock-json"
    messages: [llm.system("Use the provided evidence and return JSON."), llm.user("Project: reusable generation helpers.")]
    evidence: "Evidence: launch checklist is complete."
    tools: [lookup]
    sections: [
        {name: "summary", instructions: "Create the summary section.", output: {headline: "Short headline", confidence: 0.5}}
        {name: "risk", prompt: "Create the risk section.", model: "mock-risk", output: {risk: "Low", owner: "team"}}
    ]
})
assert(err == nil)
assert(#generated.sections == 2 && generated.sections[1].name == "summary" && generated.sections[2].name == "risk")
assert(generated.values.summary.headline == "Launch is ready" && generated.values.summary.confidence == 0.91)
assert(generated.values.risk.owner == "ops")
assert(generated.results.summary.status == "done" && generated.sections[2].status == "done")
assert(generated.sections[1].text == "{\"headline\":\"Launch is ready\",\"confidence\":0.91}")
assert(generated.sections[2].value.risk == "Low")
print("ok")
`, p)
	if len(p.requests) != 2 {
		t.Fatalf("requests = %d", len(p.requests))
	}
	want1 := []string{"system: Use the provided evidence and return JSON.", "user: Project: reusable generation helpers.",
		"user: Evidence: launch checklist is complete.", "user: Create the summary section."}
	if got := msgTexts(p.requests[0]); strings.Join(got, "|") != strings.Join(want1, "|") {
		t.Errorf("summary messages = %q\nwant %q", got, want1)
	}
	want2 := []string{"system: Use the provided evidence and return JSON.", "user: Project: reusable generation helpers.",
		"user: Evidence: launch checklist is complete.", "user: Create the risk section."}
	if got := msgTexts(p.requests[1]); strings.Join(got, "|") != strings.Join(want2, "|") {
		t.Errorf("risk messages = %q\nwant %q (no earlier section output may leak in)", got, want2)
	}
	if p.requests[0].Model != "mock-json" || p.requests[1].Model != "mock-risk" {
		t.Errorf("models = %q, %q: the section's model must override the shared one", p.requests[0].Model, p.requests[1].Model)
	}
	for i, req := range p.requests {
		if len(req.Tools) != 1 || req.Tools[0].Name != "lookup" {
			t.Errorf("request %d tools = %+v: shared tools reach every section", i, req.Tools)
		}
		b, _ := json.Marshal(req.ResponseFormat)
		if string(b) != `{"type":"json_object"}` {
			t.Errorf("request %d response_format = %s", i, b)
		}
	}
	if r.lines()[0] != "ok" {
		t.Fatal(r.out)
	}
}

func TestSectionsSystemUserEvidenceAndErrors(t *testing.T) {
	p := answers("one", "two")
	mustRun3(t, `
generated, err := llm.sections({
    model: "m"
    system: "Be brief."
    user: "Draft the report."
    sections: [
        {name: "a", prompt: "Part A.", evidence: llm.evidence(["local fact"], {label: "Section evidence"})}
        {name: "b"}
    ]
})
assert(err == nil && generated.values.a.text == "one" && generated.results.b.text == "two")
`, p)
	got := msgTexts(p.requests[0])
	// As upstream: the section's evidence comes before the prompt and once
	// more at the end (the loop applies evidence still in the request).
	if len(got) != 5 || got[0] != "system: Be brief." || got[1] != "user: Draft the report." ||
		!strings.HasPrefix(got[2], "user: Section evidence:") || got[3] != "user: Part A." || got[4] != got[2] {
		t.Errorf("section a messages = %q", got)
	}
	if b := msgTexts(p.requests[1]); len(b) != 2 || b[0] != "system: Be brief." || b[1] != "user: Draft the report." {
		t.Errorf("section b messages = %q", b)
	}

	errCases := []struct{ name, src, want string }{
		{"no sections table", `_, e := llm.sections({model: "m"})
assert(e.kind == "validation" && e.message == "llm.sections requires a sections table")`, ""},
		{"empty sections", `_, e := llm.generate_sections({sections: []})
assert(e.message == "llm.sections requires at least one section")`, ""},
		{"unnamed section", `_, e := llm.sections({model: "m", sections: [{prompt: "x"}]})
assert(e.message == "llm.sections section 1 requires name")`, ""},
		{"the first failing section stops", `g, e := llm.sections({model: "m", user: "u", sections: [{name: "a"}, {name: "b"}]})
assert(g == nil && e.kind == "provider")`, ""},
		{"bad argument", `llm.sections("x")`, "bad argument #1 to 'llm.sections' (table expected)"},
	}
	for _, c := range errCases {
		t.Run(c.name, func(t *testing.T) {
			r := run3(t, c.src, answers())
			if c.want == "" && r.err != nil {
				t.Fatalf("run failed: %v", r.err)
			}
			if c.want != "" && (r.err == nil || !strings.Contains(r.err.Error(), c.want)) {
				t.Fatalf("error = %v, want %q", r.err, c.want)
			}
		})
	}
}
