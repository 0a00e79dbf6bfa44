package evaluate

import (
	"errors"
	"fmt"

	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/llm"
)

// TapeKind is the record kind of an evaluation on a tape.
const TapeKind = "evaluation"

// record appends a live evaluation to a recording tape: the request, the
// outcome, the answers and the original receipt, under the evaluation id.
func (e *Evaluator) record(t *llm.Tape, slot int, req Request, res *Result) error {
	answers := []any{}
	for _, a := range res.Answers {
		answers = append(answers, a.record())
	}
	resp := canonjson.NewObject()
	resp.Set("outcome", res.Outcome.Value())
	resp.Set("answers", answers)
	resp.Set("receipt", res.Receipt.Value())
	return t.Fill(slot, TapeKind, res.Receipt.EvaluationID, req.Value(), resp)
}

// replay answers from the next tape record, which must be the record of
// this very request: a different identity is a replay_mismatch outcome
// (kept on the tape as a failure, so the run fails), and a replaying tape
// never reaches a provider. A reused answer reports zero attempts and
// cost; its receipt keeps the original in reused_from.
func (e *Evaluator) replay(req Request, p *Policy, qs *QuestionSet, rc *Receipt, finish func(*Outcome, []*Answer) (*Result, error)) (*Result, error) {
	t := e.opts.Tape
	rc.Source = SourceTape
	rec, err := t.Next(TapeKind, rc.EvaluationID)
	var me *llm.MismatchError
	if errors.As(err, &me) {
		return finish(replayMismatch(rc.InvocationID, me.Expected, me.Actual, me.Occurrence), nil)
	}
	if err != nil {
		return nil, err
	}
	bad := func(why string) (*Result, error) {
		t.Fail(fmt.Errorf("replay mismatch: tape record %d: %s", rec.Seq, why))
		return finish(replayMismatch(rc.InvocationID, rec.Identity, rc.EvaluationID, rec.Seq), nil)
	}
	v, err := canonjson.Decode(rec.Response)
	if err != nil {
		return bad("the record is not JSON")
	}
	body, _ := v.(*canonjson.Object)
	if body == nil {
		return bad("the record is not an object")
	}
	orig, err := ParseReceipt(body.Values["receipt"])
	if err != nil {
		return bad(err.Error())
	}
	if orig.ReusedFrom != nil || orig.Source != SourceLive {
		return bad("a tape record must hold an original live evaluation")
	}
	ver := verifyParsed(e.opts.Catalog, req, p, qs, orig)
	if !ver.Verified {
		return bad(fmt.Sprintf("the recorded receipt does not bind this request (%s)", ver.Refusals[0].Code))
	}
	outcome, err := outcomeFromRecord(body.Values["outcome"])
	if err != nil || outcome.Kind != orig.OutcomeKind {
		return bad("the recorded outcome and receipt differ")
	}
	var answers []*Answer
	list, _ := body.Values["answers"].([]any)
	for _, a := range list {
		ans, err := answerFromRecord(a)
		if err != nil {
			return bad(err.Error())
		}
		answers = append(answers, ans)
	}
	if (outcome.Kind == OutcomeAnswered || outcome.Kind == OutcomeLowConfidence) && len(answers) != len(qs.Questions) {
		return bad("the recorded answers do not cover the question set")
	}
	outcome.fields["receipt"] = rc.InvocationID
	reuse(rc, orig, body.Values["receipt"].(*canonjson.Object), SourceTape)
	res, err := finish(outcome, nil)
	if err == nil {
		res.Answers = answers
		rc.ElapsedMS = 0
	}
	return res, err
}
