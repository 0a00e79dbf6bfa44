package catalog

import (
	"fmt"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// Capabilities is what a provider/model pair accepts: native tool calls,
// deferred tool loading and tool search, prompt caching, thinking modes,
// media input and structured output. The zero value (an unknown pair) has
// everything off, no tool_search variants and no max_tools cap.
type Capabilities struct {
	NativeTools                 bool
	DeferLoading                bool
	ToolSearch                  []string
	MaxTools                    *int64
	PromptCaching               bool
	Vision, Audio, PDF          bool
	VisionSupported             bool
	StructuredOutput            string // "" when none
	ThinkingModes               []string
	InterleavedThinking         bool
	AnthropicBetaFeatures       []string
	PreserveThinking            bool
	ServerParser                string // "none" when the server parses nothing
	HonorsChatTemplateKwargs    bool
	RequiresCompletionTokens    bool
	ReasoningEffortSupported    bool
	RecommendedEndpoint         string
	TextToolWireFormatSupported bool
}

// CapabilityRule is one row of the capability matrix: the models of a
// provider whose lowercased id matches ModelMatch (a glob with `*`) and,
// when VersionMin is set, whose parsed generation is at least
// [major, minor]. Unset fields are off. Its TOML form is the one
// upstream Harn's `[[provider.<name>]]` overrides use.
type CapabilityRule struct {
	ModelMatch                  string   `toml:"model_match"`
	VersionMin                  []int    `toml:"version_min"`
	NativeTools                 *bool    `toml:"native_tools"`
	DeferLoading                *bool    `toml:"defer_loading"`
	ToolSearch                  []string `toml:"tool_search"`
	MaxTools                    *int64   `toml:"max_tools"`
	PromptCaching               *bool    `toml:"prompt_caching"`
	Vision                      *bool    `toml:"vision"`
	Audio                       *bool    `toml:"audio"`
	PDF                         *bool    `toml:"pdf"`
	VisionSupported             *bool    `toml:"vision_supported"`
	StructuredOutput            string   `toml:"structured_output"`
	JSONSchema                  string   `toml:"json_schema"`
	Thinking                    *bool    `toml:"thinking"`
	ThinkingModes               []string `toml:"thinking_modes"`
	InterleavedThinking         *bool    `toml:"interleaved_thinking_supported"`
	AnthropicBetaFeatures       []string `toml:"anthropic_beta_features"`
	PreserveThinking            *bool    `toml:"preserve_thinking"`
	ServerParser                string   `toml:"server_parser"`
	HonorsChatTemplateKwargs    *bool    `toml:"honors_chat_template_kwargs"`
	RequiresCompletionTokens    *bool    `toml:"requires_completion_tokens"`
	ReasoningEffortSupported    *bool    `toml:"reasoning_effort_supported"`
	RecommendedEndpoint         string   `toml:"recommended_endpoint"`
	TextToolWireFormatSupported *bool    `toml:"text_tool_wire_format_supported"`
}

// CapabilityMatrix is a set of rules by provider, first match wins, and
// the family a provider without a matching rule of its own falls back to
// (OpenRouter and the other OpenAI-compatible hosts inherit "openai").
type CapabilityMatrix struct {
	Provider       map[string][]CapabilityRule `toml:"provider"`
	ProviderFamily map[string]string           `toml:"provider_family"`
}

// ParseCapabilities reads a capability matrix in upstream Harn's TOML
// layout: `[[provider.<name>]]` rules and an optional `[provider_family]`.
func ParseCapabilities(src string) (*CapabilityMatrix, error) {
	var m CapabilityMatrix
	dec := toml.NewDecoder(strings.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	for name, rules := range m.Provider {
		for i, r := range rules {
			if r.ModelMatch == "" {
				return nil, fmt.Errorf("provider.%s[%d]: model_match is required", name, i)
			}
			if r.VersionMin != nil && len(r.VersionMin) != 2 {
				return nil, fmt.Errorf("provider.%s[%d]: version_min must be [major, minor]", name, i)
			}
		}
	}
	return &m, nil
}

// LookupCapabilities is what provider advertises for model: the first
// matching rule of overrides (nil for none), else of the built-in matrix,
// walking the provider family chain; the mock provider answers as
// Anthropic for Claude ids and as OpenAI otherwise. An unknown pair gets
// the zero value.
func LookupCapabilities(overrides *CapabilityMatrix, provider, model string) Capabilities {
	layers := []*CapabilityMatrix{overrides, builtinCapabilities()}
	try := func(p string) (Capabilities, bool) {
		for _, l := range layers {
			if l == nil {
				continue
			}
			for _, r := range l.Provider[p] {
				if r.matches(model) {
					return r.capabilities(), true
				}
			}
		}
		return Capabilities{}, false
	}
	none := Capabilities{ServerParser: "none", TextToolWireFormatSupported: true}
	if provider == "mock" {
		for _, p := range []string{"anthropic", "openai"} {
			if c, ok := try(p); ok {
				return c
			}
		}
		return none
	}
	seen := map[string]bool{}
	for p := provider; p != "" && !seen[p]; {
		seen[p] = true
		if c, ok := try(p); ok {
			return c
		}
		next := ""
		for _, l := range layers {
			if l != nil && l.ProviderFamily[p] != "" {
				next = l.ProviderFamily[p]
				break
			}
		}
		p = next
	}
	return none
}

func (r CapabilityRule) matches(model string) bool {
	lower := strings.ToLower(model)
	if !GlobMatch(strings.ToLower(r.ModelMatch), lower) {
		return false
	}
	if r.VersionMin == nil {
		return true
	}
	major, minor, ok := ModelGeneration(model)
	if !ok {
		return false // fail closed: a catch-all rule below may still match
	}
	return major > r.VersionMin[0] || (major == r.VersionMin[0] && minor >= r.VersionMin[1])
}

func on(b *bool) bool { return b != nil && *b }

func (r CapabilityRule) capabilities() Capabilities {
	modes := r.ThinkingModes
	if modes == nil && on(r.Thinking) {
		modes = []string{"enabled"}
	}
	so := r.StructuredOutput
	if so == "" {
		so = r.JSONSchema
	}
	if so == "none" {
		so = ""
	}
	parser := r.ServerParser
	if parser == "" {
		parser = "none"
	}
	return Capabilities{
		NativeTools: on(r.NativeTools), DeferLoading: on(r.DeferLoading),
		ToolSearch: append([]string{}, r.ToolSearch...), MaxTools: r.MaxTools,
		PromptCaching: on(r.PromptCaching),
		Vision:        on(r.Vision) || (r.Vision == nil && on(r.VisionSupported)),
		Audio:         on(r.Audio), PDF: on(r.PDF), VisionSupported: on(r.VisionSupported),
		StructuredOutput: so, ThinkingModes: append([]string{}, modes...),
		InterleavedThinking:   on(r.InterleavedThinking),
		AnthropicBetaFeatures: append([]string{}, r.AnthropicBetaFeatures...),
		PreserveThinking:      on(r.PreserveThinking), ServerParser: parser,
		HonorsChatTemplateKwargs:    on(r.HonorsChatTemplateKwargs),
		RequiresCompletionTokens:    on(r.RequiresCompletionTokens),
		ReasoningEffortSupported:    on(r.ReasoningEffortSupported),
		RecommendedEndpoint:         r.RecommendedEndpoint,
		TextToolWireFormatSupported: r.TextToolWireFormatSupported == nil || *r.TextToolWireFormatSupported,
	}
}

// ModelGeneration parses the (major, minor) generation of a Claude id
// ("claude-opus-4-7", "claude-sonnet-4.5", "claude-sonnet-4-20250514" is
// 4.0) or a GPT id ("gpt-5.4-preview", "openai/gpt-5-4"); ok is false for
// any other shape. A second number of four digits or more is a date.
func ModelGeneration(model string) (major, minor int, ok bool) {
	lower := strings.ToLower(model)
	var tail string
	switch {
	case strings.HasPrefix(lower, "claude-") || strings.Contains(lower, "/claude-"):
		for _, fam := range []string{"opus-", "sonnet-", "haiku-"} {
			if i := strings.Index(lower, fam); i >= 0 {
				tail = lower[i+len(fam):]
				break
			}
		}
	default:
		if i := strings.LastIndex(lower, "/"); i >= 0 {
			lower = lower[i+1:]
		}
		if i := strings.Index(lower, "gpt-"); i >= 0 {
			tail = lower[i+4:]
		}
	}
	if tail == "" {
		return 0, 0, false
	}
	num := func(s string) (int, string, bool) {
		j := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(s[:j])
		return n, s[j:], err == nil
	}
	major, rest, ok := num(tail)
	if !ok {
		return 0, 0, false
	}
	if len(rest) > 1 && (rest[0] == '.' || rest[0] == '-') {
		if m, _, ok := num(rest[1:]); ok {
			if rest[0] == '.' || len(strconv.Itoa(m)) < 4 {
				return major, m, true
			}
		}
	}
	return major, 0, true
}

// GlobMatch matches text against a pattern whose "*" matches any run of
// characters (newlines included); a pattern without "*" must equal text.
// Capability rules match model ids with it, and mock scripts prompts.
func GlobMatch(pattern, text string) bool {
	if !strings.Contains(pattern, "*") {
		return pattern == text
	}
	parts := strings.Split(pattern, "*")
	rest := text
	for i, p := range parts {
		switch {
		case p == "":
		case i == 0:
			if !strings.HasPrefix(rest, p) {
				return false
			}
			rest = rest[len(p):]
		case i == len(parts)-1:
			return strings.HasSuffix(rest, p)
		default:
			j := strings.Index(rest, p)
			if j < 0 {
				return false
			}
			rest = rest[j+len(p):]
		}
	}
	return true
}
