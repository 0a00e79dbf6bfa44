package catalog

import (
	"slices"
	"sort"
	"strings"
	"sync"
)

// Provider is what the runtime knows of a model provider: where it is
// reached (BaseURL, or the environment variable BaseURLEnv that overrides
// it), how it authenticates (AuthStyle "bearer", "header" with
// AuthHeader, "none", "aws_sigv4", "azure_openai"; the credential in the
// first set variable of AuthEnv), its chat endpoint, its healthcheck
// request, and the features it advertises. Routes of a provider take
// BaseURL and the first AuthEnv as their defaults.
type Provider struct {
	Name         string
	BaseURL      string
	BaseURLEnv   string
	AuthStyle    string
	AuthHeader   string
	AuthEnv      []string
	ChatEndpoint string
	// Healthcheck is the probe request: method and a path under BaseURL
	// or an absolute URL; empty Method means the provider has none.
	HealthMethod, HealthPath string
	Features                 []string
}

// NeedsAuth reports whether the provider sends a credential.
func (p Provider) NeedsAuth() bool { return p.AuthStyle != "none" && len(p.AuthEnv) > 0 }

func openAICompatible(name, base, baseEnv string, env ...string) Provider {
	return Provider{Name: name, BaseURL: base, BaseURLEnv: baseEnv, AuthStyle: "bearer", AuthEnv: env,
		ChatEndpoint: "/chat/completions", HealthMethod: "GET", HealthPath: "/models"}
}

func keyless(name, base, baseEnv, healthPath string) Provider {
	return Provider{Name: name, BaseURL: base, BaseURLEnv: baseEnv, AuthStyle: "none",
		ChatEndpoint: "/chat/completions", HealthMethod: "GET", HealthPath: healthPath}
}

// providers are the built-in providers, by name, made at the first
// lookup (not in every process's start). Keyless local servers are
// dialed at their OpenAI-compatible /v1 root.
var providers = sync.OnceValue(func() map[string]Provider {
	list := []Provider{
		{Name: "anthropic", BaseURL: "https://api.anthropic.com/v1", AuthStyle: "header", AuthHeader: "x-api-key",
			AuthEnv: []string{"ANTHROPIC_API_KEY"}, ChatEndpoint: "/messages",
			HealthMethod: "POST", HealthPath: "/messages/count_tokens", Features: []string{"prompt_caching", "thinking"}},
		openAICompatible("openai", "https://api.openai.com/v1", "", "OPENAI_API_KEY"),
		func() Provider {
			p := openAICompatible("openrouter", "https://openrouter.ai/api/v1", "", "OPENROUTER_API_KEY")
			p.HealthPath = "/auth/key"
			return p
		}(),
		func() Provider {
			p := openAICompatible("huggingface", "https://router.huggingface.co/v1", "", "HF_TOKEN", "HUGGINGFACE_API_KEY")
			p.HealthPath = "https://huggingface.co/api/whoami-v2"
			return p
		}(),
		keyless("ollama", "http://localhost:11434/v1", "OLLAMA_HOST", "/models"),
		{Name: "gemini", BaseURL: "https://generativelanguage.googleapis.com", BaseURLEnv: "GEMINI_BASE_URL",
			AuthStyle: "header", AuthHeader: "x-goog-api-key", AuthEnv: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"},
			ChatEndpoint: "/v1beta/models", HealthMethod: "GET", HealthPath: "/v1beta/models"},
		openAICompatible("together", "https://api.together.xyz/v1", "TOGETHER_AI_BASE_URL", "TOGETHER_AI_API_KEY"),
		openAICompatible("groq", "https://api.groq.com/openai/v1", "GROQ_BASE_URL", "GROQ_API_KEY"),
		openAICompatible("deepseek", "https://api.deepseek.com/v1", "DEEPSEEK_BASE_URL", "DEEPSEEK_API_KEY"),
		openAICompatible("fireworks", "https://api.fireworks.ai/inference/v1", "FIREWORKS_BASE_URL", "FIREWORKS_API_KEY"),
		openAICompatible("dashscope", "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_BASE_URL", "DASHSCOPE_API_KEY"),
		{Name: "bedrock", BaseURLEnv: "BEDROCK_BASE_URL", AuthStyle: "aws_sigv4", ChatEndpoint: "/model/{model}/converse",
			Features: []string{"native_tools"}},
		{Name: "azure_openai", BaseURL: "https://{resource}.openai.azure.com", BaseURLEnv: "AZURE_OPENAI_ENDPOINT",
			AuthStyle: "azure_openai", AuthEnv: []string{"AZURE_OPENAI_API_KEY"},
			ChatEndpoint: "/openai/deployments/{deployment}/chat/completions", Features: []string{"native_tools"}},
		{Name: "vertex", BaseURL: "https://aiplatform.googleapis.com/v1", BaseURLEnv: "VERTEX_AI_BASE_URL",
			AuthStyle: "bearer", AuthEnv: []string{"VERTEX_AI_ACCESS_TOKEN", "GOOGLE_OAUTH_ACCESS_TOKEN"},
			ChatEndpoint: "/projects/{project}/locations/{location}/publishers/google/models/{model}:generateContent",
			Features:     []string{"native_tools"}},
		keyless("local", "http://localhost:8000/v1", "LOCAL_LLM_BASE_URL", "/models"),
		keyless("mlx", "http://127.0.0.1:8002/v1", "MLX_BASE_URL", "/models"),
		keyless("vllm", "http://localhost:8000/v1", "VLLM_BASE_URL", "/models"),
		keyless("tgi", "http://localhost:8080/v1", "TGI_BASE_URL", "/health"),
		{Name: "mock", AuthStyle: "none"},
		{Name: "typesafe", BaseURL: "https://api.typesafe.ai/v1", AuthStyle: "bearer", AuthEnv: []string{"TYPESAFE_API_KEY"}},
		{Name: "vercel", BaseURL: "https://ai-gateway.vercel.sh/v1", AuthStyle: "bearer", AuthEnv: []string{"AI_GATEWAY_API_KEY"}},
	}
	m := make(map[string]Provider, len(list))
	for _, p := range list {
		m[p.Name] = p
	}
	return m
})

// LookupProvider finds a built-in provider by name.
func LookupProvider(name string) (Provider, bool) {
	p, ok := providers()[name]
	if ok {
		p.AuthEnv = slices.Clone(p.AuthEnv)
		p.Features = slices.Clone(p.Features)
	}
	return p, ok
}

// ProviderNames lists the built-in providers, sorted.
func ProviderNames() []string {
	out := make([]string, 0, len(providers()))
	for n := range providers() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Alias is a model alias ("mid", "frontier", ...): the model id it stands
// for and the provider serving it.
type Alias struct{ ID, Provider string }

var aliases = map[string]Alias{
	"frontier":     {"claude-sonnet-4-20250514", "anthropic"},
	"sonnet":       {"claude-sonnet-4-20250514", "anthropic"},
	"mid":          {"gpt-4o-mini", "openai"},
	"gpt-mini":     {"gpt-4o-mini", "openai"},
	"small":        {"Qwen/Qwen3.5-9B", "openrouter"},
	"qwen-9b":      {"Qwen/Qwen3.5-9B", "openrouter"},
	"local":        {"gemma-4-26b-a4b-it", "local"},
	"gemma4":       {"gemma-4-26b-a4b-it", "local"},
	"gemma4-large": {"gemma-4-31b-it", "local"},
	"gemma4-e4b":   {"gemma-4-e4b-it", "local"},
	"gemma4-e2b":   {"gemma-4-e2b-it", "local"},
}

// LookupAlias resolves a model alias.
func LookupAlias(name string) (Alias, bool) { a, ok := aliases[name]; return a, ok }

// AliasNames lists the model aliases, sorted.
func AliasNames() []string {
	out := make([]string, 0, len(aliases))
	for n := range aliases {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// QCDefaults is the cheap model each provider uses for quality checks.
func QCDefaults() map[string]string {
	return map[string]string{
		"anthropic": "claude-3-5-haiku-20241022", "openai": "gpt-4o-mini",
		"openrouter": "google/gemini-2.5-flash", "ollama": "llama3.2", "local": "gpt-4o",
	}
}

// NormalizeModelID strips the selector prefixes that name a transport
// rather than the model ("ollama:qwen3:30b" is qwen3:30b on Ollama).
func NormalizeModelID(id string) string {
	for _, p := range []string{"ollama:", "local:", "huggingface:", "hf:"} {
		if s, ok := strings.CutPrefix(id, p); ok {
			return s
		}
	}
	return id
}

// InferProvider names the provider serving a model id: a selector prefix
// (ollama:, local:, hf:), the vendor's id shapes (claude-, gpt-, o1/o3/o4,
// gemini-, Bedrock's anthropic./meta./amazon./mistral./cohere.), one
// slash for an OpenRouter "vendor/model", a colon for an Ollama tag, and
// else def (Anthropic when def is "").
func InferProvider(id, def string) string {
	switch {
	case hasAnyPrefix(id, "local:", "ollama:"):
		return "ollama"
	case hasAnyPrefix(id, "huggingface:", "hf:"):
		return "huggingface"
	case hasAnyPrefix(id, "claude-"):
		return "anthropic"
	case hasAnyPrefix(id, "gpt-", "o1", "o3", "o4"):
		return "openai"
	case hasAnyPrefix(id, "anthropic.claude-", "meta.llama", "amazon.", "mistral.", "cohere."):
		return "bedrock"
	case hasAnyPrefix(id, "gemini-"):
		return "gemini"
	case strings.Count(id, "/") == 1:
		return "openrouter"
	case strings.Contains(id, ":"):
		return "ollama"
	}
	if def == "" {
		return "anthropic"
	}
	return def
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// ModelTier classifies a model id as "small", "mid" or "frontier": small
// open-weight sizes (9B, A3B, Gemma 4 E2B/E4B), the large Gemma 4 and
// Claude and GPT-4o as frontier, everything else mid.
func ModelTier(id string) string {
	tiers := []struct{ part, tier string }{
		{"9b", "small"}, {"a3b", "small"}, {"gemma-4-e2b", "small"}, {"gemma-4-e4b", "small"},
		{"gemma-4-26b", "mid"}, {"gemma-4-31b", "frontier"}, {"gemma4:26b", "mid"}, {"gemma4:31b", "frontier"},
	}
	lower := strings.ToLower(id)
	for _, t := range tiers {
		if strings.Contains(lower, t.part) {
			return t.tier
		}
	}
	if strings.HasPrefix(lower, "claude-") || lower == "gpt-4o" {
		return "frontier"
	}
	return "mid"
}

// Supports reports whether the route offers operation op.
func (r Route) Supports(op string) bool { return slices.Contains(r.Operations, op) }

// DefaultToolFormat is how tools are offered to a model of provider:
// "native" where the provider advertises the native_tools feature (the
// enterprise gateways), else "text" (tools described in the prompt).
func DefaultToolFormat(provider string) string {
	if slices.Contains(providers()[provider].Features, "native_tools") {
		return "native"
	}
	return "text"
}
