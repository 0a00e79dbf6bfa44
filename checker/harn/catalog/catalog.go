// Package catalog is the model route catalog the Harn checker consults for
// HARN-TYP-035: which provider/model routes exist and which operations
// (text_generation, decision) and decision protocol each supports.
//
// The built-in defaults cover the providers the Harn references name. A
// project extends or overrides them with a `harn.toml` file (found by the
// checker by walking up from the checked file); its format:
//
//	[[routes]]
//	provider = "acme"                       # required
//	model = "judge-1"                       # required
//	operations = ["text_generation", "decision"]
//	protocol = "typesafe_system_one"        # optional native decision protocol
//	structured_transport = "tool_schema"    # optional: native_schema, tool_schema,
//	                                        # format_schema, prompt_validation, unsupported
//
// Other tables and keys of harn.toml are ignored. A route with the same
// provider and model as a default replaces it.
//
// Invariants: no IO (callers hand over the file's bytes); lookups are
// deterministic.
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
}

// Name is "provider/model".
func (r Route) Name() string { return r.Provider + "/" + r.Model }

// Catalog is a set of routes.
type Catalog struct {
	routes []Route
	// Origin says where non-default routes came from (a harn.toml path).
	Origin string
}

// Default returns the built-in catalog.
func Default() *Catalog {
	return &Catalog{routes: []Route{
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
	}}
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
	out := &Catalog{routes: slices.Clone(c.routes), Origin: origin}
	for i, r := range doc.Routes {
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
		if r.Transport != "" && !slices.Contains(Transports, r.Transport) {
			return c, fmt.Errorf("%s: routes[%d]: unknown structured_transport %q", origin, i, r.Transport)
		}
		out.routes = slices.DeleteFunc(out.routes, func(o Route) bool { return o.Provider == r.Provider && o.Model == r.Model })
		out.routes = append(out.routes, r)
	}
	return out, nil
}

// Supports reports whether the route can serve an evaluation with the
// given backend ("structured_llm" or "native_decision"). When it cannot,
// missing names the operation that is lacking.
//
// A native protocol needs the decision operation alone. Otherwise the
// decision operation must be declared, or, for structured_llm, derived
// from text_generation plus a structured transport that is not
// "unsupported".
func (r Route) Supports(backend string) (missing string, ok bool) {
	has := func(op string) bool { return slices.Contains(r.Operations, op) }
	if has(OpDecision) {
		if backend == "structured_llm" && r.Protocol != "" && !has(OpTextGeneration) {
			// A native-only route cannot be dialled as a chat endpoint.
			return OpTextGeneration, false
		}
		return "", true
	}
	if backend == "native_decision" {
		return OpDecision, false
	}
	if has(OpTextGeneration) && r.Transport != "unsupported" {
		return "", true
	}
	return OpDecision, false
}
