package catalog

import (
	"fmt"
	"math"
	"slices"
)

// Chat wires a route may speak (Runtime.API). Native decision routes speak
// the wire their Protocol names instead.
const (
	APIMock              = "mock"
	APIOpenAIChat        = "openai_chat"
	APIAnthropicMessages = "anthropic_messages"
)

// APIs lists the accepted values of the api key.
var APIs = []string{APIMock, APIOpenAIChat, APIAnthropicMessages}

// QuestionKinds lists the question kinds a route may declare.
var QuestionKinds = []string{"boolean", "choice", "score"}

// Evaluator bounds of a route answering through one generated JSON schema
// (structured_llm), used where a route declares none: the schema caps the
// option count, and the evaluator's instruction, schema and answers take
// StructuredOverheadTokens out of the route's context window.
const (
	StructuredMaxChoiceOptions = 255
	StructuredScoreLevelsMin   = 2
	StructuredScoreLevelsMax   = 10
	StructuredOverheadTokens   = 2048
	DefaultTimeoutMS           = 60_000
)

// Runtime is what the runtime needs to reach a route and to admit an
// evaluation on it before dispatch. Zero values mean "not declared";
// withDefaults fills what a well-known provider implies, and the evaluator
// refuses (zero requests) what stays undeclared.
type Runtime struct {
	// API is the chat wire: mock, openai_chat or anthropic_messages.
	// Default: mock for provider "mock", anthropic_messages for provider
	// "anthropic", openai_chat otherwise; unused by native protocols.
	API string `toml:"api"`
	// BaseURL is the endpoint root, e.g. https://api.openai.com/v1; the
	// chat path (/chat/completions, /messages) or the native decision path
	// (/systemone, /evaluate, /alpha/decisions) is appended.
	BaseURL string `toml:"base_url"`
	// APIKeyEnv names the environment variable holding the credential. It
	// is the only place a credential is read from; "" sends none.
	APIKeyEnv string `toml:"api_key_env"`
	// WireModel is the model id sent on the wire (default: Model).
	WireModel string `toml:"wire_model"`
	// TimeoutMS bounds one request, connection to last byte.
	TimeoutMS int64 `toml:"timeout_ms"`
	// ContextWindow is the model's context window in tokens.
	ContextWindow int `toml:"context_window"`
	// StateWindowTokens bounds the estimated state of one evaluation
	// (native: state plus the longest question). Default for chat routes:
	// ContextWindow - StructuredOverheadTokens.
	StateWindowTokens int `toml:"state_window_tokens"`
	// RequestWindowTokens bounds the whole native request; 0 = none declared.
	RequestWindowTokens int `toml:"request_window_tokens"`
	// MaxQuestions caps the questions of one evaluation; nil = no ceiling.
	MaxQuestions *int `toml:"max_questions"`
	// MaxChoiceOptions, ScoreLevelsMin and ScoreLevelsMax bound choice
	// labels and score levels (defaults: the Structured* constants).
	MaxChoiceOptions int `toml:"max_choice_options"`
	ScoreLevelsMin   int `toml:"score_levels_min"`
	ScoreLevelsMax   int `toml:"score_levels_max"`
	// QuestionKinds are the kinds the route answers (default: all three).
	QuestionKinds []string `toml:"question_kinds"`
	// InputPricePerMTok and OutputPricePerMTok are USD per million tokens;
	// nil is an unknown price, which refuses dispatch rather than charging
	// nothing.
	InputPricePerMTok  *float64 `toml:"input_price_per_mtok"`
	OutputPricePerMTok *float64 `toml:"output_price_per_mtok"`
	// Mock configures a provider = "mock" route's deterministic answers.
	Mock *Mock `toml:"mock"`
}

// Mock is the [routes.mock] table: what the mock provider answers.
type Mock struct {
	// Text is the reply to a chat request (default: "mock reply").
	Text string `toml:"text"`
	// ServedModel is reported as the served model (default: WireModel).
	ServedModel string `toml:"served_model"`
	// Answers maps a question id to its fixed answer; unlisted questions
	// get the default answer (true / the first label / the lowest level,
	// confidence 0.9).
	Answers map[string]MockAnswer `toml:"answers"`
}

// MockAnswer is one question's fixed answer. Exactly one of Verdict,
// Choice and Level applies, by the question's kind.
type MockAnswer struct {
	Verdict    *bool    `toml:"verdict"`
	Choice     string   `toml:"choice"`
	Level      string   `toml:"level"`
	Confidence *float64 `toml:"confidence"`
	Evidence   string   `toml:"evidence"`
}

var routeKeys = []string{
	"provider", "model", "operations", "protocol", "structured_transport",
	"api", "base_url", "api_key_env", "wire_model", "timeout_ms", "context_window",
	"state_window_tokens", "request_window_tokens", "max_questions", "max_choice_options",
	"score_levels_min", "score_levels_max", "question_kinds", "input_price_per_mtok",
	"output_price_per_mtok", "mock",
}

// unknownRouteKey returns the first key of a [[routes]] entry that is not
// a route key, in sorted order, or "".
func unknownRouteKey(m map[string]any) string {
	var bad []string
	for k := range m {
		if !slices.Contains(routeKeys, k) {
			bad = append(bad, k)
		}
	}
	slices.Sort(bad)
	if len(bad) > 0 {
		return bad[0]
	}
	if mock, ok := m["mock"].(map[string]any); ok {
		for k := range mock {
			if k != "text" && k != "served_model" && k != "answers" {
				return "mock." + k
			}
		}
	}
	return ""
}

func (rt Runtime) validate() error {
	if rt.API != "" && !slices.Contains(APIs, rt.API) {
		return fmt.Errorf("unknown api %q (want one of mock, openai_chat, anthropic_messages)", rt.API)
	}
	for name, n := range map[string]int{
		"context_window": rt.ContextWindow, "state_window_tokens": rt.StateWindowTokens,
		"request_window_tokens": rt.RequestWindowTokens, "max_choice_options": rt.MaxChoiceOptions,
		"score_levels_min": rt.ScoreLevelsMin, "score_levels_max": rt.ScoreLevelsMax,
	} {
		if n < 0 {
			return fmt.Errorf("%s must not be negative", name)
		}
	}
	if rt.TimeoutMS < 0 {
		return fmt.Errorf("timeout_ms must not be negative")
	}
	if rt.MaxQuestions != nil && *rt.MaxQuestions < 1 {
		return fmt.Errorf("max_questions must be at least 1 (omit it for no ceiling)")
	}
	if rt.ScoreLevelsMin > 0 && rt.ScoreLevelsMax > 0 && rt.ScoreLevelsMin > rt.ScoreLevelsMax {
		return fmt.Errorf("score_levels_min exceeds score_levels_max")
	}
	for _, k := range rt.QuestionKinds {
		if !slices.Contains(QuestionKinds, k) {
			return fmt.Errorf("unknown question kind %q", k)
		}
	}
	for name, p := range map[string]*float64{"input_price_per_mtok": rt.InputPricePerMTok, "output_price_per_mtok": rt.OutputPricePerMTok} {
		if p != nil && (math.IsNaN(*p) || math.IsInf(*p, 0) || *p < 0) {
			return fmt.Errorf("%s must be a finite nonnegative number", name)
		}
	}
	if rt.Mock != nil {
		for id, a := range rt.Mock.Answers {
			set := 0
			if a.Verdict != nil {
				set++
			}
			if a.Choice != "" {
				set++
			}
			if a.Level != "" {
				set++
			}
			if set != 1 {
				return fmt.Errorf("mock.answers.%s: give exactly one of verdict, choice, level", id)
			}
			if c := a.Confidence; c != nil && (math.IsNaN(*c) || *c < 0 || *c > 1) {
				return fmt.Errorf("mock.answers.%s: confidence must be in [0, 1]", id)
			}
		}
	}
	return nil
}

// withDefaults fills what the route's provider and protocol imply.
func (rt Runtime) withDefaults(r Route) Runtime {
	if rt.API == "" && r.Protocol == "" {
		switch r.Provider {
		case "mock":
			rt.API = APIMock
		case "anthropic":
			rt.API = APIAnthropicMessages
		default:
			rt.API = APIOpenAIChat
		}
	}
	if p, ok := providers()[r.Provider]; ok {
		if rt.BaseURL == "" {
			rt.BaseURL = p.BaseURL
		}
		if rt.APIKeyEnv == "" && len(p.AuthEnv) > 0 {
			rt.APIKeyEnv = p.AuthEnv[0]
		}
	}
	if rt.WireModel == "" {
		rt.WireModel = r.Model
	}
	if rt.TimeoutMS == 0 {
		rt.TimeoutMS = DefaultTimeoutMS
	}
	if rt.StateWindowTokens == 0 && rt.ContextWindow > StructuredOverheadTokens && r.Protocol == "" {
		rt.StateWindowTokens = rt.ContextWindow - StructuredOverheadTokens
	}
	if rt.MaxChoiceOptions == 0 {
		rt.MaxChoiceOptions = StructuredMaxChoiceOptions
	}
	if rt.ScoreLevelsMin == 0 {
		rt.ScoreLevelsMin = StructuredScoreLevelsMin
	}
	if rt.ScoreLevelsMax == 0 {
		rt.ScoreLevelsMax = max(StructuredScoreLevelsMax, rt.ScoreLevelsMin)
	}
	if len(rt.QuestionKinds) == 0 {
		rt.QuestionKinds = slices.Clone(QuestionKinds)
	}
	if rt.API == APIMock {
		zero := 0.0
		if rt.InputPricePerMTok == nil {
			rt.InputPricePerMTok = &zero
		}
		if rt.OutputPricePerMTok == nil {
			rt.OutputPricePerMTok = &zero
		}
	}
	return rt
}

func price(in, out float64) (*float64, *float64) { return &in, &out }

// defaultRuntime is the runtime description of a built-in route.
func defaultRuntime(r Route) Runtime {
	var rt Runtime
	switch r.Name() {
	case "mock/fixture", "mock/chat":
		// Sized like a typical chat model's window.
		rt.ContextWindow = 128_000
	case "typesafe/jev-1.13", "openrouter/typesafe/jev-1.13", "vercel/typesafe/jev-1.13":
		// Published Jev ceilings: 32,000 tokens for state plus the longest
		// question, 64,000 for state plus all questions. Input-only billing
		// at $0.042 per million input tokens (356 input tokens were billed
		// $0.000014952 in a recorded gateway response).
		rt.StateWindowTokens = 32_000
		rt.RequestWindowTokens = 64_000
		rt.InputPricePerMTok, rt.OutputPricePerMTok = price(0.042, 0)
		switch r.Provider {
		case "vercel":
			rt.WireModel = "typesafe-ai/jev"
		case "openrouter":
			rt.WireModel = "typesafe/jev-1.13"
		}
	case "openai/gpt-4o":
		rt.ContextWindow = 128_000
		rt.InputPricePerMTok, rt.OutputPricePerMTok = price(2.5, 10)
	case "openai/gpt-4o-mini":
		rt.ContextWindow = 128_000
		rt.InputPricePerMTok, rt.OutputPricePerMTok = price(0.15, 0.6)
	case "anthropic/claude-sonnet-4":
		rt.ContextWindow = 200_000
		rt.WireModel = "claude-sonnet-4-20250514"
		rt.InputPricePerMTok, rt.OutputPricePerMTok = price(3, 15)
	case "anthropic/claude-haiku-4":
		rt.ContextWindow = 200_000
		rt.WireModel = "claude-haiku-4-5"
		rt.InputPricePerMTok, rt.OutputPricePerMTok = price(1, 5)
	case "ollama/llama3":
		rt.ContextWindow = 8_192
		rt.InputPricePerMTok, rt.OutputPricePerMTok = price(0, 0)
	}
	return rt.withDefaults(r)
}

// LookupName finds a route by its name "provider/model": the provider is everything before
// the first "/", the model the rest (models may contain "/").
func (c *Catalog) LookupName(name string) (Route, bool) {
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			return c.Lookup(name[:i], name[i+1:])
		}
	}
	return Route{}, false
}

// IsNative reports whether the route speaks a native decision protocol.
func (r Route) IsNative() bool { return r.Protocol != "" }
