package catalog

import "strings"

// Price is what a model charges, in US dollars per million tokens, and
// the provider family it belongs to ("anthropic", "openai", ...), which
// decides how prompt-cache reads and writes are billed.
type Price struct {
	InputPerMTok, OutputPerMTok float64
	Provider                    string
}

// ModelPrice is the price of model: the built-in route serving it (by
// model name, wire name, or a dated variant of either: "gpt-4o-mini" and
// "gpt-4o-mini-2024-07-18" are the same route) when that route has a
// known, non-zero price, else the published price of the model's family
// (the table upstream Harn's llm_cost and budget preflight use: Claude
// haiku, sonnet and opus; GPT-4o and its mini; GPT-4 Turbo; o1, o1-mini
// and o3; hosted Llama 70B and 8B; Mistral large and small; Gemini 2
// flash and pro). ok is false for a model with no known price, which
// upstream prices at 0.
func ModelPrice(model string) (p Price, ok bool) {
	// An exact name wins; among dated variants the longest model name
	// does ("gpt-4o-mini-2024-07-18" is gpt-4o-mini's, not gpt-4o's).
	best, bestLen := Price{}, -1
	for _, r := range Default().Routes() {
		rt := r.Runtime
		if rt.InputPricePerMTok == nil || rt.OutputPricePerMTok == nil || *rt.InputPricePerMTok+*rt.OutputPricePerMTok == 0 {
			continue
		}
		p := Price{*rt.InputPricePerMTok, *rt.OutputPricePerMTok, r.Provider}
		if model == r.Model || (rt.WireModel != "" && model == rt.WireModel) {
			return p, true
		}
		if strings.HasPrefix(model, r.Model+"-") && len(r.Model) > bestLen {
			best, bestLen = p, len(r.Model)
		}
	}
	if bestLen >= 0 {
		return best, true
	}
	for _, f := range modelFamilies {
		if f.match(model) {
			return f.price, true
		}
	}
	return Price{}, false
}

// Cost is the price in US dollars of input and output tokens of model,
// 0 when the model has no known price.
func Cost(model string, inputTokens, outputTokens int64) float64 {
	p, ok := ModelPrice(model)
	if !ok {
		return 0
	}
	return (float64(inputTokens)*p.InputPerMTok + float64(outputTokens)*p.OutputPerMTok) / 1e6
}

// modelFamily prices the models whose name contains all of its parts;
// the first family that matches wins, so narrower names come first.
type modelFamily struct {
	parts [][]string // any one of these lists of substrings, all present
	price Price
}

func (f modelFamily) match(model string) bool {
	for _, all := range f.parts {
		hit := true
		for _, s := range all {
			if !strings.Contains(model, s) {
				hit = false
				break
			}
		}
		if hit {
			return true
		}
	}
	return false
}

var modelFamilies = []modelFamily{
	{[][]string{{"claude-3-5-haiku"}, {"claude-haiku-4"}}, Price{0.80, 4.00, "anthropic"}},
	{[][]string{{"claude-3-5-sonnet"}, {"claude-sonnet-4"}}, Price{3.00, 15.00, "anthropic"}},
	{[][]string{{"claude-3-opus"}, {"claude-opus-4"}}, Price{15.00, 75.00, "anthropic"}},
	{[][]string{{"gpt-4o-mini"}}, Price{0.15, 0.60, "openai"}},
	{[][]string{{"gpt-4o"}}, Price{2.50, 10.00, "openai"}},
	{[][]string{{"gpt-4-turbo"}}, Price{10.00, 30.00, "openai"}},
	{[][]string{{"o1-mini"}}, Price{3.00, 12.00, "openai"}},
	{[][]string{{"o1"}, {"o3"}}, Price{15.00, 60.00, "openai"}},
	{[][]string{{"llama", "70b"}}, Price{0.59, 0.79, "meta"}},
	{[][]string{{"llama", "8b"}}, Price{0.05, 0.08, "meta"}},
	{[][]string{{"mistral-large"}}, Price{2.00, 6.00, "mistral"}},
	{[][]string{{"mistral-small"}}, Price{0.20, 0.60, "mistral"}},
	{[][]string{{"gemini-2", "flash"}}, Price{0.10, 0.40, "google"}},
	{[][]string{{"gemini-2", "pro"}}, Price{1.25, 5.00, "google"}},
}
