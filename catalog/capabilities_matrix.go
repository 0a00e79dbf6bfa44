package catalog

import "sync"

// The built-in capability matrix: what each provider's models accept, as
// the providers document it. Rules are tried in order; the first whose
// model glob and minimum generation match wins, so newer generations come
// before older ones and catch-alls last. Ids routed through a namespace
// ("anthropic/claude-...", "openai/gpt-...") get the same rules.

func yes() *bool { t := true; return &t }

func no() *bool { f := false; return &f }

func maxTools(n int64) *int64 { return &n }

// claude describes a Claude family at or after a generation.
func claude(match string, major, minor int, thinking []string, interleaved bool) CapabilityRule {
	r := CapabilityRule{ModelMatch: match, VersionMin: []int{major, minor},
		NativeTools: yes(), DeferLoading: yes(), ToolSearch: []string{"bm25", "regex"},
		MaxTools: maxTools(10000), PromptCaching: yes(), Vision: yes(), VisionSupported: yes(),
		StructuredOutput: "tool_use", ThinkingModes: thinking}
	if interleaved {
		r.InterleavedThinking = yes()
	}
	return r
}

// reasoning describes an OpenAI reasoning family (o1, o3, o4).
func reasoning(match string, vision bool) CapabilityRule {
	r := CapabilityRule{ModelMatch: match, NativeTools: yes(), StructuredOutput: "native",
		ThinkingModes: []string{"effort"}, RequiresCompletionTokens: yes(), ReasoningEffortSupported: yes()}
	if vision {
		r.VisionSupported = yes()
	}
	return r
}

// withNamespace repeats rules for ids that carry the provider's
// namespace in front.
func withNamespace(ns string, rules ...CapabilityRule) []CapabilityRule {
	out := append([]CapabilityRule{}, rules...)
	for _, r := range rules {
		r.ModelMatch = ns + "/" + r.ModelMatch
		out = append(out, r)
	}
	return out
}

// qwen describes a Qwen 3 family served through an OpenAI-compatible
// chat endpoint that honors chat-template kwargs when honors is set.
func qwen(match string, preserve bool, honors bool, thinking ...string) CapabilityRule {
	if len(thinking) == 0 {
		thinking = []string{"enabled"}
	}
	r := CapabilityRule{ModelMatch: match, NativeTools: yes(), StructuredOutput: "native",
		ThinkingModes: thinking, ServerParser: "none", HonorsChatTemplateKwargs: &honors,
		RecommendedEndpoint: "/v1/chat/completions", TextToolWireFormatSupported: yes()}
	if preserve {
		r.PreserveThinking = yes()
	}
	return r
}

func visionOnly(match string) CapabilityRule {
	return CapabilityRule{ModelMatch: match, VisionSupported: yes()}
}

func nativeTools(match, endpoint string) CapabilityRule {
	return CapabilityRule{ModelMatch: match, NativeTools: yes(), RecommendedEndpoint: endpoint, TextToolWireFormatSupported: yes()}
}

var builtinCapabilities = sync.OnceValue(func() *CapabilityMatrix {
	return &CapabilityMatrix{
		Provider: map[string][]CapabilityRule{
			"anthropic": withNamespace("anthropic",
				claude("claude-haiku-*", 4, 7, []string{"adaptive"}, false),
				claude("claude-opus-*", 4, 7, []string{"adaptive"}, true),
				claude("claude-sonnet-*", 4, 7, []string{"adaptive"}, false),
				claude("claude-haiku-*", 4, 5, []string{"enabled"}, false),
				claude("claude-opus-*", 4, 6, []string{"enabled"}, true),
				claude("claude-opus-*", 4, 0, []string{"enabled"}, false),
				claude("claude-sonnet-*", 4, 0, []string{"enabled"}, false),
				CapabilityRule{ModelMatch: "claude-*", NativeTools: yes(), PromptCaching: yes(), Vision: yes(),
					VisionSupported: yes(), StructuredOutput: "tool_use", ThinkingModes: []string{"enabled"}},
			),
			"openai": withNamespace("openai",
				CapabilityRule{ModelMatch: "gpt-4o*", NativeTools: yes(), Vision: yes(), Audio: yes(),
					VisionSupported: yes(), StructuredOutput: "native"},
				CapabilityRule{ModelMatch: "gpt-4.1*", NativeTools: yes(), VisionSupported: yes(), StructuredOutput: "native"},
				CapabilityRule{ModelMatch: "gpt-*", VersionMin: []int{5, 4}, NativeTools: yes(), DeferLoading: yes(),
					ToolSearch: []string{"hosted", "client"}, VisionSupported: yes(), StructuredOutput: "native"},
				CapabilityRule{ModelMatch: "gpt-*", NativeTools: yes(), StructuredOutput: "native"},
				reasoning("o1*", false),
				reasoning("o3*", false),
				reasoning("o4*", true),
			),
			"ollama": {
				visionOnly("llava*"), visionOnly("bakllava*"), visionOnly("llama3.2-vision*"), visionOnly("gemma3*"),
				{ModelMatch: "qwen3.6*", NativeTools: yes(), StructuredOutput: "format_kw", ThinkingModes: []string{"enabled"},
					PreserveThinking: yes(), ServerParser: "ollama_qwen3coder", HonorsChatTemplateKwargs: no(),
					RecommendedEndpoint: "/api/generate-raw", TextToolWireFormatSupported: no()},
				{ModelMatch: "qwen3*", NativeTools: yes(), StructuredOutput: "format_kw", ThinkingModes: []string{"enabled"},
					ServerParser: "ollama_qwen3coder"},
			},
			"llamacpp":    {qwen("*qwen3.6*", true, true), qwen("*qwen3*", false, true)},
			"local":       {qwen("*qwen3.6*", true, true), qwen("*qwen3*", false, true)},
			"mlx":         {withVision(qwen("*qwen3.6*", true, true)), withVision(qwen("*qwen3*", false, true))},
			"dashscope":   {qwen("qwen3.6*", true, true), qwen("qwen*", false, true)},
			"fireworks":   {qwen("*qwen3.6*", true, true), qwen("*qwen3p6*", true, true), qwen("*qwen*", false, true)},
			"huggingface": {qwen("qwen/qwen3.6*", true, true), qwen("qwen/*", false, true), deepseekV3("deepseek-ai/deepseek-v3*", true)},
			"together": {qwen("qwen/qwen3.6*", true, true), qwen("qwen/*", false, true), deepseekV3("deepseek-ai/deepseek-v3*", true),
				{ModelMatch: "moonshotai/*", NativeTools: yes(), StructuredOutput: "native"}},
			"openrouter": {
				qwen("qwen/qwen3.6*", true, false, "enabled", "effort"), qwen("qwen/*", false, false, "enabled", "effort"),
				deepseekV3("deepseek/deepseek-v3*", false),
				{ModelMatch: "google/gemini-2.5*", NativeTools: yes(), ThinkingModes: []string{"enabled", "effort"},
					PromptCaching: yes(), Vision: yes(), VisionSupported: yes(), StructuredOutput: "native"},
				{ModelMatch: "google/gemma-4*", NativeTools: yes(), StructuredOutput: "native"},
			},
			"gemini":  {visionOnly("gemini-*"), visionOnly("models/gemini-*")},
			"bedrock": {nativeTools("*", "/model/{model}/converse")},
			"azure_openai": {
				nativeTools("gpt-*", "/openai/deployments/{deployment}/chat/completions"),
				nativeTools("o1*", "/openai/deployments/{deployment}/chat/completions"),
				nativeTools("o3*", "/openai/deployments/{deployment}/chat/completions"),
				nativeTools("o4*", "/openai/deployments/{deployment}/chat/completions"),
			},
			"vertex": {nativeTools("gemini-*", "/projects/{project}/locations/{location}/publishers/google/models/{model}:generateContent")},
		},
		ProviderFamily: map[string]string{
			"openrouter": "openai", "together": "openai", "groq": "openai", "deepseek": "openai",
			"fireworks": "openai", "huggingface": "openai", "local": "openai", "dashscope": "openai",
			"llamacpp": "openai", "mlx": "openai",
		},
	}
})

func withVision(r CapabilityRule) CapabilityRule { r.Vision = yes(); return r }

func deepseekV3(match string, honors bool) CapabilityRule {
	r := CapabilityRule{ModelMatch: match, NativeTools: yes(), ThinkingModes: []string{"enabled"},
		PromptCaching: yes(), StructuredOutput: "native", ServerParser: "none", HonorsChatTemplateKwargs: &honors}
	if !honors {
		r.ThinkingModes = []string{"enabled", "effort"}
	}
	return r
}
