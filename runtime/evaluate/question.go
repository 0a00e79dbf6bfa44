package evaluate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/canonjson"
)

// Question kinds.
const (
	KindBoolean = "boolean"
	KindChoice  = "choice"
	KindScore   = "score"
)

// Label is one choice label and the description the model judges by.
type Label struct {
	Label, Description string
}

// Question is one normalised question.
type Question struct {
	ID           string
	Kind         string
	Instructions string
	// Criteria are a choice's labels, sorted by label bytes.
	Criteria []Label
	// Levels are a score's levels, lowest first, as declared.
	Levels []string
	// True and False describe a boolean's verdicts (optional
	// BooleanCriteria); both empty when not given.
	True, False string
	hasCriteria bool
}

// Labels are the labels an answer's distribution is keyed by.
func (q *Question) Labels() []string {
	switch q.Kind {
	case KindChoice:
		out := make([]string, len(q.Criteria))
		for i, c := range q.Criteria {
			out[i] = c.Label
		}
		return out
	case KindScore:
		return q.Levels
	}
	return nil
}

// QuestionSet is a question set sorted by id bytes: the order a Harn dict
// iterates in upstream's runtime, so identity does not depend on how a
// request spells its keys.
type QuestionSet struct {
	Questions []Question
}

// DecodeQuestions reads a question map {id: {kind, instructions, ...}}. A
// shape the contract does not describe (not a map, a missing or mistyped
// field, an unknown kind or field) is an error, never an outcome.
func DecodeQuestions(v any) (*QuestionSet, error) {
	o, ok := v.(*canonjson.Object)
	if !ok {
		return nil, fmt.Errorf("evaluation questions must be a dict of question id to question, got %s", typeName(v))
	}
	set := &QuestionSet{}
	for _, id := range canonjson.SortedKeys(o) {
		q, err := decodeQuestion(id, o.Values[id])
		if err != nil {
			return nil, err
		}
		set.Questions = append(set.Questions, q)
	}
	return set, nil
}

func decodeQuestion(id string, v any) (Question, error) {
	f, ok := v.(*canonjson.Object)
	if !ok {
		return Question{}, fmt.Errorf("question `%s` is not a question record", id)
	}
	q := Question{ID: id}
	if q.Instructions, ok = f.Values["instructions"].(string); !ok {
		return q, fmt.Errorf("question `%s` has no string instructions", id)
	}
	if q.Kind, ok = f.Values["kind"].(string); !ok {
		return q, fmt.Errorf("question `%s` has no question kind", id)
	}
	allowed := []string{"kind", "instructions"}
	switch q.Kind {
	case KindBoolean:
		allowed = append(allowed, "criteria")
		if c, present := f.Values["criteria"]; present {
			co, ok := c.(*canonjson.Object)
			t, tok := fieldString(co, "true")
			fl, fok := fieldString(co, "false")
			if !ok || !tok || !fok || co.Len() != 2 {
				return q, fmt.Errorf("boolean question `%s` criteria must be {true: string, false: string}", id)
			}
			q.True, q.False, q.hasCriteria = t, fl, true
		}
	case KindChoice:
		allowed = append(allowed, "criteria")
		co, ok := f.Values["criteria"].(*canonjson.Object)
		if !ok {
			return q, fmt.Errorf("choice question `%s` has no criteria", id)
		}
		for _, label := range canonjson.SortedKeys(co) {
			d, ok := co.Values[label].(string)
			if !ok {
				return q, fmt.Errorf("choice question `%s` has a non-string criterion", id)
			}
			q.Criteria = append(q.Criteria, Label{label, d})
		}
	case KindScore:
		allowed = append(allowed, "levels")
		raw, present := f.Values["levels"]
		if !present {
			return q, fmt.Errorf("score question `%s` has no levels", id)
		}
		list, ok := raw.([]any)
		if !ok {
			return q, fmt.Errorf("score question `%s` has non-list levels", id)
		}
		q.Levels = []string{}
		for _, l := range list {
			s, ok := l.(string)
			if !ok {
				return q, fmt.Errorf("score question `%s` has a non-string level", id)
			}
			q.Levels = append(q.Levels, s)
		}
	default:
		return q, fmt.Errorf("question `%s` has unknown kind `%s`", id, q.Kind)
	}
	for _, k := range f.Keys {
		if !slices.Contains(allowed, k) {
			return q, fmt.Errorf("question `%s` has unknown field `%s`", id, k)
		}
	}
	return q, nil
}

func fieldString(o *canonjson.Object, k string) (string, bool) {
	if o == nil {
		return "", false
	}
	s, ok := o.Values[k].(string)
	return s, ok
}

// normalized is the question set in the shape upstream Harn serialises
// (serde's externally tagged QuestionBody):
//
//	{"questions": [{"id", "instructions", "body"}]}
//	body = "Boolean" | {"Choice": [[label, description], ...]} | {"Score": [level, ...]}
//
// A boolean with criteria (an extension upstream's runtime does not yet
// read) has body {"Boolean": {"false": ..., "true": ...}}, so changing
// its criteria changes the identity.
func (s *QuestionSet) normalized() map[string]any {
	qs := make([]any, 0, len(s.Questions))
	for _, q := range s.Questions {
		var body any
		switch q.Kind {
		case KindBoolean:
			body = "Boolean"
			if q.hasCriteria {
				body = map[string]any{"Boolean": map[string]any{"true": q.True, "false": q.False}}
			}
		case KindChoice:
			pairs := make([]any, len(q.Criteria))
			for i, c := range q.Criteria {
				pairs[i] = []any{c.Label, c.Description}
			}
			body = map[string]any{"Choice": pairs}
		case KindScore:
			levels := make([]any, len(q.Levels))
			for i, l := range q.Levels {
				levels[i] = l
			}
			body = map[string]any{"Score": levels}
		}
		qs = append(qs, map[string]any{"id": q.ID, "instructions": q.Instructions, "body": body})
	}
	return map[string]any{"questions": qs}
}

// QuestionRefusal is a question_invalid outcome's payload.
type QuestionRefusal struct {
	// Question is the offending id, "" for the whole set.
	Question string
	Reason   string
}

// Admit checks the set against the route's declared limits; the first
// refusal wins, in upstream's order.
func (s *QuestionSet) Admit(rt catalog.Runtime) *QuestionRefusal {
	if len(s.Questions) == 0 {
		return &QuestionRefusal{"", "empty_questions"}
	}
	if rt.MaxQuestions != nil && len(s.Questions) > *rt.MaxQuestions {
		return &QuestionRefusal{"", "too_many_questions"}
	}
	blank := func(x string) bool { return strings.TrimSpace(x) == "" }
	for _, q := range s.Questions {
		refuse := func(reason string) *QuestionRefusal { return &QuestionRefusal{q.ID, reason} }
		if blank(q.ID) {
			return refuse("empty_identifier")
		}
		if blank(q.Instructions) {
			return refuse("empty_instructions")
		}
		if !slices.Contains(rt.QuestionKinds, q.Kind) {
			return refuse("unsupported_question_kind")
		}
		switch q.Kind {
		case KindChoice:
			if len(q.Criteria) == 0 {
				return refuse("empty_options")
			}
			if slices.ContainsFunc(q.Criteria, func(c Label) bool { return blank(c.Label) }) {
				return refuse("empty_identifier")
			}
			if len(q.Criteria) > rt.MaxChoiceOptions {
				return refuse("too_many_options")
			}
		case KindScore:
			if slices.ContainsFunc(q.Levels, blank) {
				return refuse("empty_identifier")
			}
			seen := map[string]bool{}
			for _, l := range q.Levels {
				if seen[l] {
					return refuse("duplicate_labels")
				}
				seen[l] = true
			}
			if len(q.Levels) < rt.ScoreLevelsMin {
				return refuse("too_few_levels")
			}
			if len(q.Levels) > rt.ScoreLevelsMax {
				return refuse("too_many_levels")
			}
		}
	}
	return nil
}

// typeName names a decoded JSON value's type as upstream's identity does
// (canonical_input_type).
func typeName(v any) string {
	switch v.(type) {
	case *canonjson.Object, map[string]any:
		return "record"
	case []any:
		return "list"
	case string:
		return "string"
	case int64, uint64, float64, int:
		return "number"
	case bool:
		return "bool"
	case nil:
		return "nil"
	}
	return fmt.Sprintf("%T", v)
}
