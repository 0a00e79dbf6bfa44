// Package catalog is the model route catalog: the Harn checker consults it
// for HARN-TYP-035 (which provider/model routes exist and which operations
// (text_generation, decision) and decision protocol each supports), and the
// runtime (runtime/llm, runtime/evaluate) reads the same routes for how to
// reach a model: wire, endpoint, credential variable, windows, limits and
// prices. One catalog serves both, so a route the checker accepts is the
// route the runtime dials.
//
// The built-in defaults cover the providers the Harn references name. A
// project extends or overrides them with a `harn.toml` file (found by
// walking up from the program, see Find; only this package reads it); its
// format:
//
//	[[routes]]
//	provider = "acme"                       # required
//	model = "judge-1"                       # required
//	operations = ["text_generation", "decision"]
//	protocol = "typesafe_system_one"        # optional native decision protocol
//	structured_transport = "tool_schema"    # optional: native_schema, tool_schema,
//	                                        # format_schema, prompt_validation, unsupported
//	                                        # (an unknown one refuses structured decisions,
//	                                        # see Route.Decision)
//
// The runtime keys of a route (see runtime.go for their meaning) are
// api, base_url, api_key_env, wire_model, timeout_ms, context_window,
// state_window_tokens, request_window_tokens, max_questions,
// max_choice_options, score_levels_min, score_levels_max, question_kinds,
// input_price_per_mtok, output_price_per_mtok and the [routes.mock] table.
// A key a route does not know is an error naming it (a misspelt
// api_key_env must not silently leave a route without credentials).
//
// The [evaluation] table grants an evaluation cache folder (settings.go);
// the [lint] and [fmt] tables are read by Project.Config (config.go);
// upstream Harn's manifest tables are accepted unread, and any other key is
// an error. A route with the same provider and model as a default replaces
// it.
//
// Invariants: IO only through a caller's Loader (project.go); lookups and
// the derivation of decision support (decision.go) are deterministic.
package catalog

import (
	"fmt"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// Operations a route may support.
const (
	OpTextGeneration = "text_generation"
	OpDecision       = "decision"
)

// NativeProtocols are decision protocols that need the decision operation
// alone (no chat transport).
var NativeProtocols = []string{"typesafe_system_one", "vercel_evaluate", "openrouter_decisions"}

// Transports a structured decision may use; "unsupported" blocks the
// derivation of decision support from text generation.
var Transports = []string{"native_schema", "tool_schema", "format_schema", "prompt_validation", "unsupported"}

// Route is one provider/model entry.
type Route struct {
	Provider   string   `toml:"provider"`
	Model      string   `toml:"model"`
	Operations []string `toml:"operations"`
	Protocol   string   `toml:"protocol"`
	Transport  string   `toml:"structured_transport"`
	// Runtime describes how the runtime reaches the route (runtime.go).
	Runtime
}

// Name is "provider/model".
func (r Route) Name() string { return r.Provider + "/" + r.Model }

// Catalog is a set of routes.
type Catalog struct {
	routes []Route
	// Origin says where non-default routes came from (a harn.toml path).
	Origin string
	// evaluationCache is the [evaluation] cache folder (settings.go).
	evaluationCache string
}

// Default returns the built-in catalog. Every route declares its windows
// and limits (DefaultRuntime fills the runtime facts).
func Default() *Catalog {
	routes := []Route{
		{Provider: "mock", Model: "fixture", Operations: []string{OpTextGeneration, OpDecision}},
		{Provider: "mock", Model: "chat", Operations: []string{OpTextGeneration}},
		{Provider: "typesafe", Model: "jev-1.13", Operations: []string{OpDecision}, Protocol: "typesafe_system_one"},
		{Provider: "openrouter", Model: "typesafe/jev-1.13", Operations: []string{OpDecision}, Protocol: "openrouter_decisions"},
		{Provider: "vercel", Model: "typesafe/jev-1.13", Operations: []string{OpDecision}, Protocol: "vercel_evaluate"},
		{Provider: "openai", Model: "gpt-4o", Operations: []string{OpTextGeneration}, Transport: "native_schema"},
		{Provider: "openai", Model: "gpt-4o-mini", Operations: []string{OpTextGeneration}, Transport: "native_schema"},
		{Provider: "anthropic", Model: "claude-sonnet-4", Operations: []string{OpTextGeneration}, Transport: "tool_schema"},
		{Provider: "anthropic", Model: "claude-haiku-4", Operations: []string{OpTextGeneration}, Transport: "tool_schema"},
		{Provider: "ollama", Model: "llama3", Operations: []string{OpTextGeneration}, Transport: "format_schema"},
	}
	for i := range routes {
		routes[i].Runtime = defaultRuntime(routes[i])
	}
	return &Catalog{routes: routes}
}

// Routes returns the catalog's routes.
func (c *Catalog) Routes() []Route { return slices.Clone(c.routes) }

// Lookup finds a route.
func (c *Catalog) Lookup(provider, model string) (Route, bool) {
	for _, r := range c.routes {
		if r.Provider == provider && r.Model == model {
			return r, true
		}
	}
	return Route{}, false
}

// Parse reads the [[routes]] of a harn.toml and returns c extended by
// them. Errors name the route index and field.
func (c *Catalog) Parse(origin string, data []byte) (*Catalog, error) {
	var doc struct {
		Routes []Route `toml:"routes"`
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		return c, fmt.Errorf("%s: %v", origin, err)
	}
	var raw struct {
		Routes []map[string]any `toml:"routes"`
	}
	if err := toml.Unmarshal(data, &raw); err != nil {
		return c, fmt.Errorf("%s: %v", origin, err)
	}
	cacheDir, err := parseSettings(origin, data)
	if err != nil {
		return c, err
	}
	out := &Catalog{routes: slices.Clone(c.routes), Origin: origin, evaluationCache: cacheDir}
	for i, r := range doc.Routes {
		if i < len(raw.Routes) {
			if key := unknownRouteKey(raw.Routes[i]); key != "" {
				return c, fmt.Errorf("%s: routes[%d]: unknown key %q", origin, i, key)
			}
		}
		if r.Provider == "" || r.Model == "" {
			return c, fmt.Errorf("%s: routes[%d]: provider and model are required", origin, i)
		}
		for _, op := range r.Operations {
			if op != OpTextGeneration && op != OpDecision {
				return c, fmt.Errorf("%s: routes[%d]: unknown operation %q (want %s or %s)", origin, i, op, OpTextGeneration, OpDecision)
			}
		}
		if r.Protocol != "" && !slices.Contains(NativeProtocols, r.Protocol) {
			return c, fmt.Errorf("%s: routes[%d]: unknown protocol %q (want one of %s)", origin, i, r.Protocol, strings.Join(NativeProtocols, ", "))
		}
		if err := r.Runtime.validate(); err != nil {
			return c, fmt.Errorf("%s: routes[%d] (%s): %v", origin, i, r.Name(), err)
		}
		r.Runtime = r.Runtime.withDefaults(r)
		out.routes = slices.DeleteFunc(out.routes, func(o Route) bool { return o.Provider == r.Provider && o.Model == r.Model })
		out.routes = append(out.routes, r)
	}
	return out, nil
}
