package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// Backends an evaluation policy may name.
const (
	BackendStructured = "structured_llm"
	BackendNative     = "native_decision"
)

// DefaultStrategy is the structured output strategy of a route that
// declares no structured_transport: Harn validates the completed response
// against the schema (prompt compatibility).
const DefaultStrategy = "prompt_validation"

// Support is what a route offers an evaluation under one backend: the
// one derivation the checker (HARN-TYP-035), the evaluator's admission,
// `run`, `llm evaluate`, the Leia AI runtime and the language server
// share.
type Support struct {
	// Route is the resolved route; its Runtime holds the windows, limits
	// and prices admission enforces.
	Route Route
	// Backend is the policy's backend the support was derived for.
	Backend string
	// Protocol is the native decision protocol (native_decision), "" for
	// structured_llm.
	Protocol string
	// Strategy is the structured output strategy (structured_llm):
	// native_schema, tool_schema, format_schema or prompt_validation;
	// "" for a native protocol.
	Strategy string
}

// Refusal kinds: why a route cannot serve an evaluation.
const (
	// RefuseUnknownRoute: no route of that provider and model.
	RefuseUnknownRoute = "unknown_route"
	// RefuseUnknownBackend: the backend is neither structured_llm nor
	// native_decision (the policy's shape is wrong).
	RefuseUnknownBackend = "unknown_backend"
	// RefuseBackend: the route's decision protocol is not the backend's
	// (a native route asked for structured_llm, a route without a native
	// protocol asked for native_decision). The route is resolved; the
	// policy chose the wrong backend for it.
	RefuseBackend = "backend_mismatch"
	// RefuseOperation: the route lacks an operation the backend needs.
	RefuseOperation = "missing_operation"
	// RefuseTransport: structured_llm on a route whose
	// structured_transport is "unsupported" or unknown.
	RefuseTransport = "unsupported_transport"
)

// Refusal says why a route cannot serve an evaluation. Its Error is the
// sentence the checker reports and the evaluator records.
type Refusal struct {
	// Kind is one of the Refuse* constants.
	Kind string
	// Missing names the operation lacking (RefuseOperation, and
	// RefuseBackend when native_decision meets a route without decision).
	Missing string
	// Message is a sentence naming the route and the cause.
	Message string
	// Help says how to fix it.
	Help string
}

func (r *Refusal) Error() string { return r.Message }

// Resolved reports whether the route is still the evaluation's route
// despite the refusal (a backend mismatch): the runtime's identity names
// its protocol, and the refusal is an unsupported option of the policy
// rather than an unconfigured model.
func (r *Refusal) Resolved() bool { return r.Kind == RefuseBackend }

// Decision derives the decision support of provider/model under backend;
// see Route.Decision. An unknown route is RefuseUnknownRoute.
func (c *Catalog) Decision(provider, model, backend string) (Support, *Refusal) {
	r, ok := c.Lookup(provider, model)
	if !ok {
		return Support{}, &Refusal{
			Kind:    RefuseUnknownRoute,
			Message: fmt.Sprintf("route %s/%s is not in the model catalog, so it cannot serve the decision operation", provider, model),
			Help:    "use a catalog route, or declare this one in harn.toml: [[routes]] provider = \"" + provider + "\" model = \"" + model + "\" operations = [\"text_generation\", \"decision\"]",
		}
	}
	return r.Decision(backend)
}

// Decision derives the route's decision support under backend, in the
// contract's order:
//
//   - A native protocol (typesafe_system_one, vercel_evaluate,
//     openrouter_decisions) takes precedence: the route serves
//     native_decision when it declares the decision operation, and never
//     structured_llm, whatever text generation or transport it also
//     declares (it must not inherit a chat transport).
//   - Without a native protocol, native_decision is refused.
//   - structured_llm dials the ordinary chat endpoint, so it needs
//     text_generation, and a structured transport that is absent
//     (prompt validation) or one of native_schema, tool_schema,
//     format_schema, prompt_validation; an explicit "unsupported" or an
//     unknown transport refuses. Declaring decision without
//     text_generation does not make a chat route.
func (r Route) Decision(backend string) (Support, *Refusal) {
	name := r.Name()
	has := func(op string) bool { return slices.Contains(r.Operations, op) }
	switch backend {
	case BackendStructured, BackendNative:
	default:
		return Support{}, &Refusal{Kind: RefuseUnknownBackend,
			Message: fmt.Sprintf("backend %q is not a decision backend (want %q or %q)", backend, BackendStructured, BackendNative)}
	}
	if r.Protocol != "" {
		if backend != BackendNative {
			return Support{}, &Refusal{Kind: RefuseBackend, Missing: OpTextGeneration,
				Message: fmt.Sprintf("route %s speaks the native decision protocol %s, which takes precedence over structured support: backend %q cannot dial it", name, r.Protocol, backend),
				Help:    fmt.Sprintf("use backend %q with this route, or a chat route for %q", BackendNative, BackendStructured)}
		}
		if !has(OpDecision) {
			return Support{}, &Refusal{Kind: RefuseOperation, Missing: OpDecision,
				Message: fmt.Sprintf("route %s lacks the %s operation that backend %q needs", name, OpDecision, backend),
				Help:    "declare operations = [\"decision\"] for a native protocol route"}
		}
		return Support{Route: r, Backend: backend, Protocol: r.Protocol}, nil
	}
	if backend == BackendNative {
		ref := &Refusal{Kind: RefuseBackend, Missing: OpDecision,
			Help: "choose a route with a native decision protocol (protocol = \"" + strings.Join(NativeProtocols, "\", \"") + "\"), or use backend \"" + BackendStructured + "\""}
		if has(OpDecision) {
			ref.Message = fmt.Sprintf("route %s declares no native decision protocol, which backend %q needs", name, backend)
		} else {
			ref.Message = fmt.Sprintf("route %s lacks the %s operation that backend %q needs", name, OpDecision, backend)
		}
		return Support{}, ref
	}
	if !has(OpTextGeneration) {
		return Support{}, &Refusal{Kind: RefuseOperation, Missing: OpTextGeneration,
			Message: fmt.Sprintf("route %s lacks the %s operation that backend %q needs (it dials the chat endpoint)", name, OpTextGeneration, backend),
			Help:    "declare operations = [\"text_generation\", \"decision\"] for a chat route, or give the route a native protocol and use backend \"" + BackendNative + "\""}
	}
	strategy := r.Transport
	switch {
	case strategy == "":
		strategy = DefaultStrategy
	case strategy == "unsupported":
		return Support{}, &Refusal{Kind: RefuseTransport, Missing: OpDecision,
			Message: fmt.Sprintf("route %s lacks the %s operation: its structured_transport is \"unsupported\", so no structured decision derives from text generation", name, OpDecision),
			Help:    "choose a route whose catalog entry supports decision, or declare a structured_transport (" + strings.Join(structuredTransports(), ", ") + ")"}
	case !slices.Contains(Transports, strategy):
		return Support{}, &Refusal{Kind: RefuseTransport, Missing: OpDecision,
			Message: fmt.Sprintf("route %s lacks the %s operation: its structured_transport %q is not a known transport", name, OpDecision, strategy),
			Help:    "declare one of " + strings.Join(structuredTransports(), ", ")}
	}
	return Support{Route: r, Backend: backend, Strategy: strategy}, nil
}

// structuredTransports are the transports that derive structured support.
func structuredTransports() []string {
	return slices.DeleteFunc(slices.Clone(Transports), func(s string) bool { return s == "unsupported" })
}
