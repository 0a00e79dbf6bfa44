package catalog

import (
	"strings"
	"testing"
)

func TestSupports(t *testing.T) {
	cat, err := Default().Parse("harn.toml", []byte(`
[project]
name = "x"

[[routes]]
provider = "acme"
model = "judge"
operations = ["text_generation"]
structured_transport = "unsupported"

[[routes]]
provider = "mock"
model = "fixture"
operations = ["text_generation"]
`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		provider, model, backend string
		found                    bool
		missing                  string
	}{
		{"typesafe", "jev-1.13", "native_decision", true, ""},
		{"typesafe", "jev-1.13", "structured_llm", true, "text_generation"},
		{"openai", "gpt-4o", "structured_llm", true, ""},
		{"openai", "gpt-4o", "native_decision", true, "decision"},
		{"acme", "judge", "structured_llm", true, "decision"},
		{"mock", "fixture", "structured_llm", true, ""},
		{"mock", "fixture", "native_decision", true, "decision"}, // overridden by harn.toml
		{"nobody", "x", "structured_llm", false, ""},
	}
	for _, tc := range tests {
		r, ok := cat.Lookup(tc.provider, tc.model)
		if ok != tc.found {
			t.Errorf("%s/%s: found=%v", tc.provider, tc.model, ok)
			continue
		}
		if !ok {
			continue
		}
		missing, _ := r.Supports(tc.backend)
		if missing != tc.missing {
			t.Errorf("%s/%s %s: missing %q, want %q", tc.provider, tc.model, tc.backend, missing, tc.missing)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{
		"[[routes]]\nprovider = \"a\"\n",
		"[[routes]]\nprovider = \"a\"\nmodel = \"b\"\noperations = [\"fly\"]\n",
		"[[routes]]\nprovider = \"a\"\nmodel = \"b\"\nprotocol = \"smoke\"\n",
		"[[routes]\n",
	} {
		if _, err := Default().Parse("harn.toml", []byte(src)); err == nil || !strings.HasPrefix(err.Error(), "harn.toml") {
			t.Errorf("%q: err = %v", src, err)
		}
	}
}
