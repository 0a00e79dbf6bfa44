package evaluate

import (
	"fmt"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/harnlang/harn-check/runtime/canonjson"
)

// Confidence and evidence provenance.
const (
	ConfidenceBinary       = "binary_probability"
	ConfidenceDistribution = "distribution_shape"
	ConfidenceRationale    = "model_rationale"
	EvidenceInput          = "input_reference"
	EvidenceRationale      = "model_rationale"
)

// MaxEvidenceBytes bounds an answer's evidence (cut on a UTF-8 boundary).
const MaxEvidenceBytes = 2048

// Provenance says where a raw answer's numbers come from.
type Provenance int

// Provenances.
const (
	// ModelReported: a model named its answer and reported its own
	// confidence (structured_llm, mock).
	ModelReported Provenance = iota
	// VendorDistribution: a decision vendor measured a distribution
	// (native protocols).
	VendorDistribution
)

// RawAnswer is one question's answer as a backend read it, before
// projection onto the question.
type RawAnswer struct {
	// Selection is the named answer: a bool verdict, or a choice label or
	// score level (string); nil when the backend named none.
	Selection any
	// Probability is a native boolean's yes-probability.
	Probability *float64
	// Distribution maps each label to its probability (native choice and
	// score).
	Distribution map[string]float64
	// Score is a native score's reported position on the scale.
	Score *float64
	// Confidence is the reported confidence, if any.
	Confidence *float64
	Evidence   string
}

// Answer is one typed answer.
type Answer struct {
	QuestionID     string
	Kind           string
	Verdict        bool
	Probability    float64
	Choice, Level  string
	Score          float64
	Probabilities  map[string]float64
	Confidence     float64
	ConfidenceKind string
	Evidence       string
	EvidenceKind   string
	// Raw is the distribution as the backend measured it: empty for model
	// reports (nothing was measured), {"true": p} for a native boolean.
	Raw map[string]float64
}

// Meets reports whether the answer's confidence reaches the threshold.
func (a *Answer) Meets(threshold float64) bool { return a.Confidence >= threshold }

func boundedEvidence(s string) string {
	if len(s) <= MaxEvidenceBytes {
		return s
	}
	end := MaxEvidenceBytes
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end]
}

func probability(v float64, what, id string) error {
	if math.IsNaN(v) || v < 0 || v > 1 {
		return fmt.Errorf("question `%s`: %s is not a finite probability in [0, 1]", id, what)
	}
	return nil
}

// project turns a raw answer into a typed one; a mismatch between answer
// and question is an error (the outcome is refused/schema_invalid), never
// a coerced answer.
func project(q *Question, raw RawAnswer, prov Provenance) (*Answer, error) {
	a := &Answer{QuestionID: q.ID, Kind: q.Kind, Evidence: boundedEvidence(raw.Evidence), Raw: map[string]float64{}}
	labels := q.Labels()
	if prov == ModelReported {
		if raw.Confidence == nil {
			return nil, fmt.Errorf("question `%s` has no confidence", q.ID)
		}
		c := *raw.Confidence
		if err := probability(c, "confidence", q.ID); err != nil {
			return nil, err
		}
		a.Confidence, a.ConfidenceKind, a.EvidenceKind = c, ConfidenceRationale, EvidenceRationale
		synth := func(selected string) map[string]float64 {
			out := map[string]float64{}
			for _, l := range labels {
				switch {
				case len(labels) == 1:
					out[l] = 1
				case l == selected:
					out[l] = c
				default:
					out[l] = (1 - c) / float64(len(labels)-1)
				}
			}
			return out
		}
		switch q.Kind {
		case KindBoolean:
			v, ok := raw.Selection.(bool)
			if !ok {
				return nil, fmt.Errorf("question `%s` has no verdict", q.ID)
			}
			a.Verdict, a.Probability = v, c
			if !v {
				a.Probability = 1 - c
			}
		case KindChoice, KindScore:
			s, ok := raw.Selection.(string)
			if !ok {
				return nil, fmt.Errorf("question `%s` has no %s", q.ID, map[string]string{KindChoice: "choice", KindScore: "level"}[q.Kind])
			}
			i := slices.Index(labels, s)
			if i < 0 {
				return nil, fmt.Errorf("question `%s` answered with a label it does not declare", q.ID)
			}
			a.Probabilities = synth(s)
			if q.Kind == KindChoice {
				a.Choice = s
			} else {
				a.Level, a.Score = s, float64(i)
			}
		}
		return a, nil
	}
	a.ConfidenceKind, a.EvidenceKind = ConfidenceDistribution, EvidenceInput
	switch q.Kind {
	case KindBoolean:
		if raw.Probability == nil {
			return nil, fmt.Errorf("question `%s` has no probability", q.ID)
		}
		p := *raw.Probability
		if err := probability(p, "probability", q.ID); err != nil {
			return nil, err
		}
		// Confidence is in the selected verdict, a confident "no" included.
		a.Verdict, a.Probability, a.Confidence, a.ConfidenceKind = p >= 0.5, p, math.Max(p, 1-p), ConfidenceBinary
		a.Raw = map[string]float64{"true": p}
		return a, nil
	case KindChoice, KindScore:
		d := raw.Distribution
		if len(d) != len(labels) {
			return nil, fmt.Errorf("question `%s`: distribution names %d labels, the question declares %d", q.ID, len(d), len(labels))
		}
		best, top := "", -1.0
		for _, l := range labels {
			p, ok := d[l]
			if !ok {
				return nil, fmt.Errorf("question `%s`: distribution omits label `%s`", q.ID, l)
			}
			if err := probability(p, "probability", q.ID); err != nil {
				return nil, err
			}
			if p > top { // ties go to the first declared label
				best, top = l, p
			}
		}
		if sel, ok := raw.Selection.(string); ok && sel != best {
			return nil, fmt.Errorf("question `%s`: the named label `%s` contradicts the distribution's highest label `%s`", q.ID, sel, best)
		}
		a.Probabilities, a.Raw = cloneDist(d), cloneDist(d)
		if raw.Confidence != nil {
			if err := probability(*raw.Confidence, "confidence", q.ID); err != nil {
				return nil, err
			}
			a.Confidence = *raw.Confidence
		} else {
			a.Confidence = top
		}
		if q.Kind == KindChoice {
			a.Choice = best
			return a, nil
		}
		a.Level = best
		switch {
		case raw.Score == nil:
			for i, l := range labels {
				a.Score += float64(i) * d[l]
			}
		case math.IsNaN(*raw.Score) || math.IsInf(*raw.Score, 0):
			return nil, fmt.Errorf("question `%s`: score is not finite", q.ID)
		default:
			a.Score = *raw.Score
		}
		return a, nil
	}
	return nil, fmt.Errorf("question `%s`: answer kind does not match the question kind", q.ID)
}

func cloneDist(d map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(d))
	for k, v := range d {
		out[k] = v
	}
	return out
}

func distValue(d map[string]float64) map[string]any {
	out := make(map[string]any, len(d))
	for k, v := range d {
		out[k] = v
	}
	return out
}

// Value is the answer as the program sees it (an EvaluationAnswer record).
func (a *Answer) Value() map[string]any {
	v := map[string]any{"kind": a.Kind, "confidence": a.Confidence, "confidence_kind": a.ConfidenceKind,
		"evidence": a.Evidence, "evidence_kind": a.EvidenceKind}
	switch a.Kind {
	case KindBoolean:
		v["verdict"], v["probability"] = a.Verdict, a.Probability
	case KindChoice:
		v["choice"], v["probabilities"] = a.Choice, distValue(a.Probabilities)
	case KindScore:
		v["level"], v["score"], v["probabilities"] = a.Level, a.Score, distValue(a.Probabilities)
	}
	return v
}

// record is the answer as a tape stores it (Value plus the question id
// and the raw distribution).
func (a *Answer) record() map[string]any {
	v := a.Value()
	v["question_id"] = a.QuestionID
	v["raw_probabilities"] = distValue(a.Raw)
	return v
}

// answerFromRecord reads a taped answer back.
func answerFromRecord(v any) (*Answer, error) {
	o, ok := v.(*canonjson.Object)
	if !ok {
		return nil, fmt.Errorf("a taped answer is not a record")
	}
	str := func(k string) string { s, _ := o.Values[k].(string); return s }
	num := func(k string) float64 { f, _ := toFloat(o.Values[k]); return f }
	dist := func(k string) map[string]float64 {
		d := map[string]float64{}
		if m, ok := o.Values[k].(*canonjson.Object); ok {
			for _, l := range m.Keys {
				d[l], _ = toFloat(m.Values[l])
			}
		}
		return d
	}
	a := &Answer{QuestionID: str("question_id"), Kind: str("kind"), Confidence: num("confidence"),
		ConfidenceKind: str("confidence_kind"), Evidence: str("evidence"), EvidenceKind: str("evidence_kind"),
		Raw: dist("raw_probabilities")}
	switch a.Kind {
	case KindBoolean:
		a.Verdict, _ = o.Values["verdict"].(bool)
		a.Probability = num("probability")
	case KindChoice:
		a.Choice, a.Probabilities = str("choice"), dist("probabilities")
	case KindScore:
		a.Level, a.Score, a.Probabilities = str("level"), num("score"), dist("probabilities")
	default:
		return nil, fmt.Errorf("a taped answer has kind %q", a.Kind)
	}
	return a, nil
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	}
	return 0, false
}
