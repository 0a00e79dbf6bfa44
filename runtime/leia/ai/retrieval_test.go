package ai

import (
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/llm"
)

const retrievalDocs = `
docs := llm.collection({
    llm.doc("Checkout runbook says payment queue owns sev2 incidents.", {
        id: "runbook"
        title: "Checkout runbook"
        source: "local/runbook"
        tags: ["checkout", "payments"]
    })
    llm.document({
        id: "notes"
        title: "Release notes"
        text: "Search indexing work is unrelated to checkout incidents."
        source: "local/notes"
    })
})
`

func TestRetrievalHelpers(t *testing.T) {
	cases := []struct{ name, src, wantErr string }{
		{name: "documents and collections", src: retrievalDocs + `
d := docs.docs[1]
assert(d.__llm_doc == true && d.text == "Checkout runbook says payment queue owns sev2 incidents.")
assert(d.id == "runbook" && d.artifact_id == "runbook")
assert(d.metadata.id == "runbook" && d.metadata.title == "Checkout runbook" && d.metadata.tags[2] == "payments")
assert(d.metadata.text == nil)
assert(d.citation.doc_id == "runbook" && d.citation.chunk_id == "runbook" && d.citation.source == "local/runbook")
assert(d.citation.snippet == d.text)
assert(docs.count == 2 && docs.__llm_collection == true)
// plain strings and tables in a list become documents; nils are skipped
c := llm.docs(["first", {text: "second", id: "b"}])
assert(c.count == 2 && c.docs[1].text == "first" && c.docs[2].id == "b")
// a table without text gets its JSON as text
j := llm.doc({id: "x", n: 3})
assert(j.text == "{\"id\":\"x\",\"n\":3}")
`},
		{name: "ranking, limit, label and exact context text", src: retrievalDocs + `
ctx := llm.retrieve(docs, "checkout payment sev2", {limit: 1, label: "Retrieved context"})
assert(ctx.query == "checkout payment sev2" && #ctx.matches == 1)
m := ctx.matches[1]
assert(m.id == "runbook" && m.score > 0 && m.citation.score == m.score)
assert(docs.docs[1].score == nil) // the collection is not changed
want := "Retrieved context:\n[runbook] Checkout runbook\nSource: local/runbook\nArtifact: runbook\nCheckout runbook says payment queue owns sev2 incidents."
assert(ctx.text == want)
assert(ctx.message.role == "user" && ctx.message.text == want && ctx[1] == ctx.message)
all := llm.search(docs, "indexing")
assert(#all == 1 && #all.matches == 2 && all.matches[1].id == "notes" && all.matches[2].id == "runbook")
assert(all.text:sub(1, 8) == "Context:")
// ties keep the lower id first; no terms scores everything 0
tie := llm.retrieve(llm.docs([{id: "b", text: "x"}, {id: "a", text: "x"}]), "")
assert(tie.matches[1].id == "a" && tie.matches[1].score == 0)
`},
		{name: "context and evidence wrappers", src: retrievalDocs + `
c := llm.context(docs, {label: "Shared", role: "system", extra: 1})
assert(c.__llm_context == true && c.message.role == "system" && c.extra == 1)
assert(c.text:find("Shared:\n[runbook]", 1, true) == 1)
assert(c.text:find("\n[notes] Release notes", 1, true) != nil)
e := llm.evidence("Evidence: launch checklist is complete.")
assert(e.text == "Evidence:\n[doc1]\nEvidence: launch checklist is complete.")
o := llm.context({"a", "b"}, {text: "override"})
assert(o.message.text == "override" && #o.docs == 2)
`},
		{name: "chunks, citations and corpora", src: `
doc := llm.document({id: "policy", title: "Release policy", sections: {
    rollback: "Rollback plans must name the on-call."
    approvals: "Production releases require owner approval."
}})
ch := llm.chunks(doc)
assert(ch.kind == "chunks" && ch.count == 2)
assert(ch.docs[1].id == "policy#approvals" && ch.docs[1].section == "approvals" && ch.docs[1].doc_id == "policy")
assert(ch.docs[2].chunk_index == 2 && ch.docs[2].text == "Rollback plans must name the on-call.")
assert(ch.docs[1].citation.doc_id == "policy" && ch.docs[1].citation.section == "approvals")
listed := llm.chunk(llm.doc({id: "d", sections: [{name: "one", text: "1"}, {text: "2"}]}))
assert(listed.docs[2].id == "d#section2")
plain := llm.chunks("just text")
assert(plain.docs[1].id == "doc1#chunk1")
long := llm.cite(llm.doc(string.rep("ab", 200)))
assert(#long.snippet == 183 && long.snippet:sub(-3) == "...")
assert(llm.citation(42).snippet == "42" && llm.citation(42).text == nil)
k := llm.corpus(["a"], {name: "kb"})
assert(k.kind == "local_corpus" && k.count == 1 && k.name == "kb" && k.reset == false)
k2 := llm.corpus_add(k, ["b", "c"])
assert(k2.count == 3 && k2.name == "kb" && k.count == 1)
r := llm.corpus_reset({name: "empty"})
assert(r.count == 0 && r.reset == true && r.name == "empty")
`},
		{name: "a sectioned corpus built, reset and refilled", src: `
report := llm.document({
    id: "annual-report", title: "Annual report", source: "fixtures/annual.md", artifact_id: "artifact://annual.md"
    sections: {
        overview: "The company sells sensors and maintenance contracts."
        risks: "Risks include supplier concentration and currency exposure."
        outlook: "Management expects steady recurring revenue."
    }
})
call := llm.document({id: "q4-call", title: "Q4 call", sections: {remarks: "Growth in maintenance.", questions: "Analysts asked about supplier concentration."}})
rc := llm.chunks(report)
cc := llm.chunks(call)
kb := llm.corpus([rc.docs[1], cc.docs[1]], {id: "local-kb"})
assert(kb.count == 2 && kb.id == "local-kb")
kb = llm.corpus_reset(kb)
assert(kb.count == 0 && kb.reset == true && kb.id == "local-kb")
kb = llm.corpus_add(kb, rc)
kb = llm.corpus_add(kb, cc)
assert(kb.count == 5 && kb.reset == false && kb.id == "local-kb")
hits := llm.retrieve(kb, "supplier concentration currency risk", {limit: 2, label: "KB evidence"})
assert(hits.matches[1].section == "risks" && hits.matches[1].id == "annual-report#risks")
cite := llm.citation(hits.matches[1])
assert(cite.doc_id == "annual-report" && cite.artifact_id == "artifact://annual.md" && cite.section == "risks")
assert(hits.text:find("[annual-report#risks] Annual report section risks\nSource: fixtures/annual.md\nArtifact: artifact://annual.md", 1, true) != nil)
`},
		{name: "retrieval keeps no state between collections", src: `
a := llm.collection(["alpha text"])
b := llm.collection(["beta text"])
ra := llm.retrieve(a, "beta")
assert(#ra.matches == 1 && ra.matches[1].text == "alpha text" && ra.matches[1].score == 0)
`},
		{name: "doc needs an argument", src: `llm.doc()`, wantErr: "bad argument #1 to 'llm.doc'"},
		{name: "retrieve needs a query", src: `llm.retrieve({})`, wantErr: "bad argument to 'llm.retrieve' (collection, query expected)"},
		{name: "corpus_add needs two arguments", src: `llm.corpus_add({})`, wantErr: "(corpus, docs expected)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := answers()
			r := run3(t, c.src, p)
			if c.wantErr == "" && r.err != nil {
				t.Fatalf("run failed: %v\n%s", r.err, r.out)
			}
			if c.wantErr != "" && (r.err == nil || !strings.Contains(r.err.Error(), c.wantErr)) {
				t.Fatalf("error = %v, want one containing %q", r.err, c.wantErr)
			}
			if len(p.requests) != 0 {
				t.Fatalf("retrieval made %d provider requests", len(p.requests))
			}
		})
	}
}

// TestContextReachesRequests checks that context and evidence fields of
// turns, agents and sections, and wrappers placed in messages, become
// messages of the provider request, in upstream's order.
func TestContextReachesRequests(t *testing.T) {
	p := answers("turn used memory", "agent used memory", `{"section":"memory"}`, "wrapped", "plain")
	mustRun3(t, retrievalDocs+`
ctx := llm.retrieve(docs, "checkout payment sev2", {limit: 1, label: "Retrieved context"})
turn_result, turn_err := llm.turn({model: "m", user: "Who owns the incident?", context: ctx})
assert(turn_err == nil && turn_result.text == "turn used memory")
memory_agent := llm.agent("memory_agent", func(question) {
    return {model: "m", user: question, evidence: llm.evidence(ctx.matches, {label: "Agent evidence"})}, nil
})
agent_result, agent_err := memory_agent("Answer with local evidence.")
assert(agent_err == nil && agent_result.text == "agent used memory")
generated, section_err := llm.sections({
    model: "m"
    user: "Draft sections."
    context: llm.context(ctx.matches, {label: "Shared context"})
    sections: [{name: "summary", instructions: "Summarize owner.", output: {section: "memory"}}]
})
assert(section_err == nil && generated.values.summary.section == "memory")
w, _ := llm.turn({model: "m", messages: [llm.system("sys"), llm.context(ctx.matches, {label: "Inline"})]})
assert(w.text == "wrapped")
cancel_ctx, cancel := context.withCancel()
pl, _ := llm.turn({model: "m", user: "q", context: cancel_ctx})
assert(pl.text == "plain")
`, p)
	if len(p.requests) != 5 {
		t.Fatalf("requests = %d, want 5", len(p.requests))
	}
	texts := func(req llm.TurnRequest) []string {
		var out []string
		for _, m := range req.Messages {
			out = append(out, m.Role+": "+m.Text)
		}
		return out
	}
	turn := texts(p.requests[0])
	if len(turn) != 2 || turn[0] != "user: Who owns the incident?" || !strings.HasPrefix(turn[1], "user: Retrieved context:\n[runbook] Checkout runbook") || strings.Contains(turn[1], "[notes]") {
		t.Errorf("turn messages = %q", turn)
	}
	agent := texts(p.requests[1])
	if len(agent) != 2 || !strings.Contains(agent[1], "Agent evidence:") || !strings.Contains(agent[1], "payment queue owns sev2") {
		t.Errorf("agent messages = %q", agent)
	}
	sec := texts(p.requests[2])
	if len(sec) != 3 || sec[0] != "user: Draft sections." || sec[1] != "user: Summarize owner." || !strings.HasPrefix(sec[2], "user: Shared context:") {
		t.Errorf("section messages = %q", sec)
	}
	inline := texts(p.requests[3])
	if len(inline) != 2 || !strings.HasPrefix(inline[1], "user: Inline:\n[runbook]") {
		t.Errorf("inline wrapper messages = %q", inline)
	}
	if plain := texts(p.requests[4]); len(plain) != 1 {
		t.Errorf("a cancellation context became messages: %q", plain)
	}
}
