package manifest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
)

// Schema is the document's schema identifier.
const Schema = "harn.predicate_sites.v2"

// The outcome_schema values: which outcome union a site returns.
const (
	OutcomeEvaluation = "harn.evaluation_outcome.v2"
	OutcomePredicate  = "harn.predicate_outcome.v2"
)

// EffectLLMWrite is the one effect every evaluation site declares.
const EffectLLMWrite = "llm.write"

// Method names of the three evaluation methods.
const (
	MethodEvaluate          = "evaluate"
	MethodEvaluatePredicate = "evaluate_predicate"
	MethodEvaluateRequest   = "evaluate_request"
)

// SiteFacts is what the checker knows about one evaluation site, the input
// of the manifest.
type SiteFacts struct {
	// Source is the module path the site is declared in (the checked file,
	// or the resolved path of an imported helper).
	Source string
	ID     string
	// Method is MethodEvaluate, MethodEvaluatePredicate or
	// MethodEvaluateRequest.
	Method string
	// Questions is the literal question set in declared order (for
	// evaluate_predicate, the one boolean question; empty for
	// evaluate_request).
	Questions []Question
	// InputTypeCanonical is the canonical serialisation of the declared
	// input type (lang/harn/types.Canonical).
	InputTypeCanonical string
	// Line and Column (1-based, code points) of the call's start.
	Line, Column int
}

// Document is a `harn.predicate_sites.v2` manifest.
type Document struct {
	Schema string `json:"schema"`
	Sites  []Site `json:"sites"`
}

// Site is one entry of the document, in its wire key order.
type Site struct {
	Source            string          `json:"source"`
	ID                string          `json:"id"`
	QuestionSetSHA256 *string         `json:"question_set_sha256"`
	Questions         []QuestionEntry `json:"questions"`
	InputTypeSHA256   string          `json:"input_type_sha256"`
	OutcomeSchema     string          `json:"outcome_schema"`
	Effects           []string        `json:"effects"`
	Line              int             `json:"line"`
	Column            int             `json:"column"`
	RuntimeAdmission  bool            `json:"runtime_admission,omitempty"`
}

// QuestionEntry is one question of a site's census.
type QuestionEntry struct {
	ID                 string `json:"id"`
	Kind               string `json:"kind"`
	InstructionsSHA256 string `json:"instructions_sha256"`
	OptionCount        int    `json:"option_count"`
}

// Build makes the document for the sites of one file's import closure.
// An empty closure gives a document with `sites: []`.
func Build(facts []SiteFacts) *Document {
	doc := &Document{Schema: Schema, Sites: []Site{}}
	for _, f := range facts {
		s := Site{
			Source: f.Source, ID: f.ID, Questions: []QuestionEntry{},
			InputTypeSHA256: hexSHA256(f.InputTypeCanonical),
			OutcomeSchema:   OutcomeEvaluation,
			Effects:         []string{EffectLLMWrite},
			Line:            f.Line, Column: f.Column,
		}
		switch f.Method {
		case MethodEvaluatePredicate:
			s.OutcomeSchema = OutcomePredicate
		case MethodEvaluateRequest:
			s.RuntimeAdmission = true
		}
		if !s.RuntimeAdmission {
			d := QuestionSetSHA256(f.Questions)
			s.QuestionSetSHA256 = &d
			for _, q := range f.Questions {
				s.Questions = append(s.Questions, QuestionEntry{
					ID: q.ID, Kind: q.Kind, InstructionsSHA256: InstructionsSHA256(q.Instructions), OptionCount: len(q.Labels),
				})
			}
		}
		doc.Sites = append(doc.Sites, s)
	}
	slices.SortStableFunc(doc.Sites, func(a, b Site) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column), cmp.Compare(a.ID, b.ID))
	})
	return doc
}

// Encode returns the document as compact JSON in its fixed key order, the
// form embedded as a file's predicate_manifest.
func (d *Document) Encode() json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		// Every field is a plain string, number or slice: encoding cannot
		// fail.
		panic(err)
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}
