package ai

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/leia"
)

// TestLiveSectionsAndWorkflow runs the part-3 helpers against a real
// provider. It is opt-in: set LEIA_LIVE_TESTS=1 and LEIA_LLM_BASE_URL,
// LEIA_LLM_API_KEY and LEIA_LLM_MODEL (LEIA_LLM_PROTOCOL defaults to
// openai_compatible). The key is read from the environment by the
// program (os.getenv), never written anywhere, and the network is
// granted to the base URL's host only through runtime/host.
func TestLiveSectionsAndWorkflow(t *testing.T) {
	if os.Getenv("LEIA_LIVE_TESTS") != "1" {
		t.Skip("live provider test: set LEIA_LIVE_TESTS=1 with LEIA_LLM_BASE_URL, LEIA_LLM_API_KEY and LEIA_LLM_MODEL to run it")
	}
	for _, v := range []string{"LEIA_LLM_BASE_URL", "LEIA_LLM_API_KEY", "LEIA_LLM_MODEL"} {
		if os.Getenv(v) == "" {
			t.Skipf("live provider test: %s is not set", v)
		}
	}
	protocol := os.Getenv("LEIA_LLM_PROTOCOL")
	if protocol == "" {
		protocol = "openai_compatible"
	}
	var out bytes.Buffer
	h, err := host.New(host.Config{Root: t.TempDir(), Grants: host.Grants{Net: true}, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	in := leia.New(leia.Options{Stdout: &out, Stderr: &out, Host: h})
	log := &traceLog{}
	Install(in, Config{Factory: LiveFactory(h), Trace: log, Source: "live", Host: h})
	src := `
model {
    default: "live"
    live: {
        protocol: "` + protocol + `"
        base_url: os.getenv("LEIA_LLM_BASE_URL")
        api_key: os.getenv("LEIA_LLM_API_KEY")
        provider_model: os.getenv("LEIA_LLM_MODEL")
    }
}
notes := llm.collection(["The launch checklist is complete.", "Rollback is owned by the payments on-call."])
flow := llm.workflow({
    llm.step("gather", func(ctx) { return {value: llm.retrieve(notes, ctx.input, {limit: 2}), text: ctx.input}, nil }),
    llm.step("sections", func(ctx) {
        return llm.sections({
            max_tokens: 200
            temperature: 0
            user: ctx.input
            evidence: ctx.context.gather.value
            sections: [{name: "owner", instructions: "Reply with JSON {\"owner\": string} naming who owns rollback.", output: {owner: "team"}}]
        })
    }),
})
res, err := flow.run("Who owns rollback?")
assert(err == nil, "live workflow failed")
g := res.steps[2].result
assert(type(g.values.owner.owner) == "string")
print(g.values.owner.owner)
`
	chunk, err := in.Compile("live.leia", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := in.Run(ctx, chunk); err != nil {
		t.Fatalf("live run: %v\n%s", err, out.String())
	}
	if key := os.Getenv("LEIA_LLM_API_KEY"); strings.Contains(out.String(), key) {
		t.Fatal("the key reached the output")
	}
	t.Logf("owner: %s", strings.TrimSpace(out.String()))
}
