package evaluate

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Native decision protocols.
const (
	ProtocolTypeSafe   = "typesafe_system_one"
	ProtocolVercel     = "vercel_evaluate"
	ProtocolOpenRouter = "openrouter_decisions"
)

// nativeEndpoint is the protocol's path under the route's base URL.
func nativeEndpoint(base, protocol string) string {
	base = strings.TrimRight(base, "/")
	switch protocol {
	case ProtocolTypeSafe:
		return base + "/systemone"
	case ProtocolVercel:
		return base + "/evaluate"
	}
	return strings.TrimSuffix(base, "/v1") + "/alpha/decisions"
}

// dataControls are the routing restrictions a native request applies and
// those it cannot demonstrate.
func dataControls(protocol string) (applied, unverified []string) {
	switch protocol {
	case ProtocolVercel:
		return []string{"zero_data_retention", "disallow_prompt_training", "provider_only:typesafe-ai"}, []string{}
	case ProtocolOpenRouter:
		return []string{"no_fallbacks"}, []string{"data_retention", "prompt_training"}
	}
	return []string{}, []string{"data_retention:account_scoped"}
}

// nativeBody builds the wire request of a native protocol. Effort and
// temperature are refused (the evaluator checks NativeOptionsSupplied
// first); the state must be a string, list or record. A boolean's
// optional criteria travel as {"true": ..., "false": ...}.
func nativeBody(route *catalog.Route, state any, qs *QuestionSet) (map[string]any, error) {
	switch state.(type) {
	case string, []any, *canonjson.Object, map[string]any:
	default:
		return nil, fmt.Errorf("native decision state must be a string, object, or array")
	}
	questions := map[string]any{}
	for i := range qs.Questions {
		q := &qs.Questions[i]
		w := map[string]any{"instructions": q.Instructions}
		switch q.Kind {
		case KindBoolean:
			if route.Protocol == ProtocolVercel {
				w["type"] = "boolean"
			} else {
				w["type"] = "noul"
			}
			// The verdict descriptions are part of what is asked (they
			// change the identity), so the native wire carries them as
			// the structured prompt does.
			if q.hasCriteria {
				w["criteria"] = map[string]any{"true": q.True, "false": q.False}
			}
		case KindChoice:
			c := map[string]any{}
			for _, l := range q.Criteria {
				c[l.Label] = l.Description
			}
			w["type"], w["criteria"] = "choice", c
		case KindScore:
			w["type"], w["criteria"] = "score", stringValues(q.Levels)
		}
		questions[q.ID] = w
	}
	body := map[string]any{"model": route.Runtime.WireModel, "state": state, "questions": questions}
	switch route.Protocol {
	case ProtocolVercel:
		body["providerOptions"] = map[string]any{"gateway": map[string]any{
			"zeroDataRetention": true, "disallowPromptTraining": true, "only": []any{"typesafe-ai"}}}
	case ProtocolOpenRouter:
		body["provider"] = map[string]any{"allow_fallbacks": false}
	}
	return body, nil
}

type nativeBackend struct {
	route     *catalog.Route
	transport *llm.Transport
}

func (b *nativeBackend) decide(ctx context.Context, d decision) (*rawResponse, error) {
	body, err := nativeBody(d.route, d.state, d.questions)
	if err != nil {
		return nil, &llm.Error{Kind: llm.ErrUnsupported, Detail: err.Error()}
	}
	data, err := canonjson.Encode(body)
	if err != nil {
		return nil, err
	}
	reply, err := b.transport.Do(ctx, llm.Post{URL: nativeEndpoint(b.transport.BaseURL(), d.route.Protocol), Auth: llm.AuthBearer, Body: data})
	if err != nil {
		return nil, err
	}
	return readNative(d.route, d.questions, reply.Body)
}

// readNative reads a native decision response (the shapes of TypeSafe's
// systemone, Vercel's evaluate and OpenRouter's decisions endpoints).
func readNative(route *catalog.Route, qs *QuestionSet, body []byte) (*rawResponse, error) {
	applied, unverified := dataControls(route.Protocol)
	resp := &rawResponse{provenance: VendorDistribution, attempts: 1,
		native: &NativeTransport{Applied: applied, Unverified: unverified}}
	v, err := canonjson.Decode(body)
	if err != nil {
		return nil, schemaInvalid(resp, "native decision response is not JSON")
	}
	doc, _ := v.(*canonjson.Object)
	if doc == nil {
		return nil, schemaInvalid(resp, "native decision response is not an object")
	}
	vercel := route.Protocol == ProtocolVercel
	if routing, ok := pointer(doc, "providerMetadata", "gateway", "routing").(*canonjson.Object); ok {
		if f, ok := toFloat(routing.Values["totalProviderAttemptCount"]); ok {
			n := int64(f)
			resp.native.ProviderAttemptsReported = &n
		}
		if s, ok := routing.Values["finalProvider"].(string); ok {
			resp.native.FinalProviderReported = &s
		}
	}
	if u, ok := doc.Values["usage"].(*canonjson.Object); ok {
		in, out := "input_tokens", "output_tokens"
		if vercel {
			in, out = "inputTokens", "outputTokens"
		}
		resp.usage.InputTokens, resp.usage.OutputTokens = intField(u, in), intField(u, out)
	}
	model, ok := doc.Values["model"].(string)
	if !ok {
		return nil, schemaInvalid(resp, "missing served model")
	}
	resp.servedModel = model
	fields, ok := doc.Values["answers"].(*canonjson.Object)
	if !ok {
		return nil, schemaInvalid(resp, "missing answers")
	}
	if fields.Len() != len(qs.Questions) {
		return nil, schemaInvalid(resp, "answer question set differs from request")
	}
	resp.answers = map[string]RawAnswer{}
	for i := range qs.Questions {
		q := &qs.Questions[i]
		a, ok := fields.Values[q.ID].(*canonjson.Object)
		if !ok {
			return nil, schemaInvalid(resp, "missing question answer")
		}
		kind, _ := a.Values["type"].(string)
		num := func(k string) (*float64, error) {
			f, ok := toFloat(a.Values[k])
			if !ok {
				return nil, schemaInvalid(resp, "missing numeric answer field")
			}
			return &f, nil
		}
		dist := func() (map[string]float64, error) {
			d, ok := a.Values["probabilities"].(*canonjson.Object)
			if !ok {
				return nil, schemaInvalid(resp, "missing probabilities")
			}
			out := map[string]float64{}
			for _, k := range d.Keys {
				f, ok := toFloat(d.Values[k])
				if !ok {
					return nil, schemaInvalid(resp, "invalid probabilities")
				}
				out[k] = f
			}
			return out, nil
		}
		var raw RawAnswer
		switch q.Kind {
		case KindBoolean:
			want, key := "noul", "noul"
			if vercel {
				want, key = "boolean", "probability"
			}
			if kind != want {
				return nil, schemaInvalid(resp, "boolean answer kind mismatch")
			}
			if raw.Probability, err = num(key); err != nil {
				return nil, err
			}
		case KindChoice:
			if kind != "choice" {
				return nil, schemaInvalid(resp, "choice answer kind mismatch")
			}
			sel, ok := a.Values["choice"].(string)
			if !ok {
				return nil, schemaInvalid(resp, "missing choice label")
			}
			if raw.Distribution, err = dist(); err != nil {
				return nil, err
			}
			if _, ok := raw.Distribution[sel]; !ok {
				return nil, schemaInvalid(resp, "choice label is absent from distribution")
			}
			raw.Selection = sel
			if raw.Confidence, err = num("confidence"); err != nil {
				return nil, err
			}
		case KindScore:
			if kind != "score" {
				return nil, schemaInvalid(resp, "score answer kind mismatch")
			}
			indexed, err := dist()
			if err != nil {
				return nil, err
			}
			if len(indexed) != len(q.Levels) {
				return nil, schemaInvalid(resp, "score distribution length mismatch")
			}
			if raw.Score, err = num("score"); err != nil {
				return nil, err
			}
			if *raw.Score < 0 || *raw.Score > float64(len(q.Levels)-1) {
				return nil, schemaInvalid(resp, "score lies outside the declared scale")
			}
			raw.Distribution = map[string]float64{}
			for i, l := range q.Levels {
				p, ok := indexed[strconv.Itoa(i)]
				if !ok {
					return nil, schemaInvalid(resp, "score distribution index missing")
				}
				raw.Distribution[l] = p
			}
			if raw.Confidence, err = num("confidence"); err != nil {
				return nil, err
			}
		}
		resp.answers[q.ID] = raw
	}
	return resp, nil
}

func pointer(o *canonjson.Object, path ...string) any {
	var cur any = o
	for _, k := range path {
		obj, ok := cur.(*canonjson.Object)
		if !ok {
			return nil
		}
		cur = obj.Values[k]
	}
	return cur
}

func intField(o *canonjson.Object, k string) *int64 {
	switch n := o.Values[k].(type) {
	case int64:
		if n >= 0 {
			return &n
		}
	case uint64:
		v := int64(n)
		if v >= 0 {
			return &v
		}
	}
	return nil
}

// nativeBodyJSON is the request body as sent, for tests.
func nativeBodyJSON(route *catalog.Route, state any, qs *QuestionSet) (json.RawMessage, error) {
	b, err := nativeBody(route, state, qs)
	if err != nil {
		return nil, err
	}
	return canonjson.Encode(b)
}
