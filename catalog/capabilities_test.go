package catalog

import (
	"slices"
	"testing"
)

func TestModelGeneration(t *testing.T) {
	for _, tc := range []struct {
		model        string
		major, minor int
		ok           bool
	}{
		{"claude-opus-4-7", 4, 7, true},
		{"claude-sonnet-4.5", 4, 5, true},
		{"claude-sonnet-4-20250514", 4, 0, true},
		{"anthropic/claude-haiku-4-5", 4, 5, true},
		{"gpt-5.4-preview", 5, 4, true},
		{"openai/gpt-5-4", 5, 4, true},
		{"gpt-5-20260115", 5, 0, true},
		{"gpt-4o", 4, 0, true},
		{"llama3", 0, 0, false},
		{"claude-instant", 0, 0, false},
	} {
		major, minor, ok := ModelGeneration(tc.model)
		if major != tc.major || minor != tc.minor || ok != tc.ok {
			t.Errorf("ModelGeneration(%q) = %d, %d, %v; want %d, %d, %v", tc.model, major, minor, ok, tc.major, tc.minor, tc.ok)
		}
	}
}

func TestLookupCapabilities(t *testing.T) {
	override, err := ParseCapabilities("[[provider.proxy]]\nmodel_match = \"*\"\nnative_tools = true\ntool_search = [\"hosted\"]\n" +
		"[[provider.anthropic]]\nmodel_match = \"claude-opus-*\"\nnative_tools = true\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		overrides       *CapabilityMatrix
		provider, model string
		native, defer_  bool
		search          []string
		vision          bool
	}{
		{nil, "anthropic", "claude-opus-4-7", true, true, []string{"bm25", "regex"}, true},
		{nil, "anthropic", "claude-haiku-4-4", true, false, nil, true}, // below 4.5: the catch-all
		{nil, "anthropic", "claude-haiku-4-5", true, true, []string{"bm25", "regex"}, true},
		{nil, "openai", "gpt-5.4-preview", true, true, []string{"hosted", "client"}, true},
		{nil, "openai", "gpt-3.5-turbo", true, false, nil, false},
		{nil, "groq", "gpt-5.4", true, true, []string{"hosted", "client"}, true}, // the openai family
		{nil, "mock", "claude-opus-4-7", true, true, []string{"bm25", "regex"}, true},
		{nil, "mock", "mystery-7b", false, false, nil, false},
		{nil, "ollama", "qwen3.5:35b", true, false, nil, false},
		{nil, "nobody", "x", false, false, nil, false},
		{override, "proxy", "anything", true, false, []string{"hosted"}, false},
		{override, "anthropic", "claude-opus-4-7", true, false, nil, false}, // an override shadows the built-in row
		{override, "anthropic", "claude-sonnet-4-7", true, true, []string{"bm25", "regex"}, true},
	} {
		c := LookupCapabilities(tc.overrides, tc.provider, tc.model)
		if c.NativeTools != tc.native || c.DeferLoading != tc.defer_ || !slices.Equal(c.ToolSearch, tc.search) || c.VisionSupported != tc.vision {
			t.Errorf("%s/%s: native %v defer %v search %v vision %v; want %v %v %v %v", tc.provider, tc.model,
				c.NativeTools, c.DeferLoading, c.ToolSearch, c.VisionSupported, tc.native, tc.defer_, tc.search, tc.vision)
		}
	}
}

func TestParseCapabilitiesRejects(t *testing.T) {
	for _, src := range []string{
		"[[provider.x]]\nnative_tools = true\n",                     // no model_match
		"[[provider.x]]\nmodel_match = \"*\"\nversion_min = [4]\n",  // not [major, minor]
		"[[provider.x]]\nmodel_match = \"*\"\nnative_tool = true\n", // misspelt key
		"[[provider.x]\n", // not TOML
	} {
		if _, err := ParseCapabilities(src); err == nil {
			t.Errorf("ParseCapabilities(%q) accepted it", src)
		}
	}
}

func TestInferProviderAndTier(t *testing.T) {
	for _, tc := range []struct{ id, provider, tier string }{
		{"claude-sonnet-4-20250514", "anthropic", "frontier"},
		{"gpt-4o", "openai", "frontier"},
		{"gpt-4o-mini", "openai", "mid"},
		{"o3-mini", "openai", "mid"},
		{"qwen/qwen3-coder", "openrouter", "mid"},
		{"llama3.2:latest", "ollama", "mid"},
		{"ollama:qwen3:30b-a3b", "ollama", "small"},
		{"meta.llama3-70b-instruct-v1:0", "bedrock", "mid"},
		{"gemini-2.5-flash", "gemini", "mid"},
		{"Qwen3.5-9B", "fallback", "small"},
	} {
		if got := InferProvider(tc.id, "fallback"); got != tc.provider {
			t.Errorf("InferProvider(%q) = %q, want %q", tc.id, got, tc.provider)
		}
		if got := ModelTier(tc.id); got != tc.tier {
			t.Errorf("ModelTier(%q) = %q, want %q", tc.id, got, tc.tier)
		}
	}
}

func TestProvidersOwnRouteDefaults(t *testing.T) {
	// A route of a known provider dials the provider's endpoint with its
	// credential variable: the provider table is the one owner.
	for _, r := range Default().Routes() {
		p, ok := LookupProvider(r.Provider)
		if !ok {
			t.Errorf("route %s: provider %q is not in the provider table", r.Name(), r.Provider)
			continue
		}
		if p.BaseURL != "" && r.BaseURL != p.BaseURL {
			t.Errorf("route %s: base_url %q, provider says %q", r.Name(), r.BaseURL, p.BaseURL)
		}
	}
}
