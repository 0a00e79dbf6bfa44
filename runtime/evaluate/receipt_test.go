package evaluate

import (
	"fmt"
	"testing"
	"time"
)

// TestRecordAnswersLinear (issue #25): a receipt of many questions records
// its answers in linear work. Matching each question against every answer
// took 15 s for 40,000 questions; 200,000 would take minutes. The deadline
// is a hang guard hundreds of times what the linear pass needs, not a
// timing measurement.
func TestRecordAnswersLinear(t *testing.T) {
	const n = 200_000
	r := &Receipt{}
	answers := make([]*Answer, 0, n)
	for i := range n {
		id := fmt.Sprintf("q%06d", i)
		r.Questions = append(r.Questions, QuestionReceipt{ID: id, Kind: "boolean", RawProbabilities: map[string]float64{}})
		if i%2 == 0 {
			answers = append(answers, &Answer{QuestionID: id, ConfidenceKind: "self_reported"})
		}
	}
	// A later answer to the same question wins.
	answers = append(answers, &Answer{QuestionID: "q000000", ConfidenceKind: "measured", Raw: map[string]float64{"true": 0.75}})
	done := make(chan struct{})
	go func() { r.recordAnswers(answers); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("recording 100,000 answers on 200,000 questions did not end in 30 s: the matching is not linear")
	}
	for i, q := range r.Questions {
		switch {
		case i == 0:
			if q.ConfidenceKind == nil || *q.ConfidenceKind != "measured" || q.RawProbabilities["true"] != 0.75 {
				t.Errorf("q0: the last answer does not count: %+v", q)
			}
		case i%2 == 0:
			if q.ConfidenceKind == nil || *q.ConfidenceKind != "self_reported" {
				t.Fatalf("%s: answer not recorded: %+v", q.ID, q)
			}
		default:
			if q.ConfidenceKind != nil || len(q.RawProbabilities) != 0 {
				t.Fatalf("%s: unanswered question changed: %+v", q.ID, q)
			}
		}
	}
}
