package llm

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/harnlang/harn-check/catalog"
)

// DefaultMockText is the mock's chat reply when its route sets no text.
const DefaultMockText = "mock reply"

// DefaultMockConfidence is the confidence of an answer the route's mock
// table does not configure.
const DefaultMockConfidence = 0.9

// Mock is the deterministic provider of a provider = "mock" route. It
// makes no network request, but it counts each call as one request, so
// "zero requests" is measurable against it as against a real provider.
//
// A plain chat turn gets the route's mock text. A turn with an Output
// schema gets a JSON value generated from the schema: objects get their
// required properties, booleans true, strings with an enum their first
// value, numbers their minimum (or 0), strings "mock"; under a property
// named like a key of the route's mock answers, that answer's verdict,
// choice, level, confidence and evidence are used instead (so the
// evaluator's answer schema is answered per question as configured;
// unconfigured questions get true / the first label / the lowest level at
// confidence 0.9, evidence "mock evidence").
type Mock struct {
	route    catalog.Route
	requests atomic.Int64
}

// NewMock returns the mock provider of a route.
func NewMock(route catalog.Route) *Mock { return &Mock{route: route} }

// Requests is the number of calls made to this mock.
func (m *Mock) Requests() int64 { return m.requests.Load() }

func (m *Mock) config() catalog.Mock {
	if m.route.Runtime.Mock != nil {
		return *m.route.Runtime.Mock
	}
	return catalog.Mock{}
}

// Chat implements Provider.
func (m *Mock) Chat(ctx context.Context, req ChatRequest, onDelta func(Delta)) (*ChatResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, (&Transport{}).failure(ctx, err, 0)
	}
	m.requests.Add(1)
	cfg := m.config()
	out := &ChatResponse{Attempts: 1, StopReason: StopEnd, ServedModel: cfg.ServedModel}
	if out.ServedModel == "" {
		out.ServedModel = m.route.Runtime.WireModel
	}
	if req.Output != nil {
		var schema any
		if err := json.Unmarshal(req.Output.Schema, &schema); err != nil {
			return nil, &Error{Kind: ErrUnsupported, Detail: "the output schema is not JSON"}
		}
		v := fillSchema(schema, "", nil, cfg.Answers, 0)
		data, _ := json.Marshal(v)
		out.Data = data
		if req.Output.Strategy == StrategyToolSchema {
			out.StopReason = StopToolUse
		} else {
			out.Text = string(data)
		}
	} else {
		out.Text = cfg.Text
		if out.Text == "" {
			out.Text = DefaultMockText
		}
	}
	if onDelta != nil && out.Text != "" {
		for _, piece := range strings.SplitAfter(out.Text, " ") {
			onDelta(Delta{Text: piece})
		}
	}
	in := int64(estimateBytes(req.System))
	for _, msg := range req.Messages {
		in += int64(estimateBytes(msg.Content))
	}
	outTokens := int64(estimateBytes(out.Text))
	if out.Text == "" {
		outTokens = int64(estimateBytes(string(out.Data)))
	}
	out.Usage = Usage{InputTokens: &in, OutputTokens: &outTokens}
	return out, nil
}

// EstimateTextTokens is the runtime's one text estimator: ceil(bytes/4),
// 0 for empty text (upstream Harn's estimate_text_tokens).
func EstimateTextTokens(s string) int { return estimateBytes(s) }

func estimateBytes(s string) int { return (len(s) + 3) / 4 }

// fillSchema generates a value conforming to schema.
func fillSchema(schema any, name string, answer *catalog.MockAnswer, answers map[string]catalog.MockAnswer, depth int) any {
	s, _ := schema.(map[string]any)
	if s == nil || depth > 32 {
		return nil
	}
	typ, _ := s["type"].(string)
	switch typ {
	case "object":
		props, _ := s["properties"].(map[string]any)
		var keys []string
		if req, ok := s["required"].([]any); ok {
			for _, k := range req {
				if ks, ok := k.(string); ok {
					keys = append(keys, ks)
				}
			}
		} else {
			for k := range props {
				keys = append(keys, k)
			}
			slices.Sort(keys)
		}
		obj := map[string]any{}
		for _, k := range keys {
			sub := answer
			if a, ok := answers[k]; ok {
				sub = &a
			}
			obj[k] = fillSchema(props[k], k, sub, answers, depth+1)
		}
		return obj
	case "boolean":
		if answer != nil && answer.Verdict != nil {
			return *answer.Verdict
		}
		return true
	case "number", "integer":
		if name == "confidence" {
			if answer != nil && answer.Confidence != nil {
				return *answer.Confidence
			}
			return DefaultMockConfidence
		}
		if v, ok := s["minimum"].(float64); ok {
			return v
		}
		return 0
	case "string":
		if answer != nil {
			switch {
			case name == "choice" && answer.Choice != "":
				return answer.Choice
			case name == "level" && answer.Level != "":
				return answer.Level
			case name == "evidence" && answer.Evidence != "":
				return answer.Evidence
			}
		}
		if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
			return enum[0]
		}
		if name == "evidence" {
			return "mock evidence"
		}
		return "mock"
	case "array":
		return []any{}
	}
	return nil
}
