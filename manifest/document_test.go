package manifest

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBuildSortsAndShapesSites(t *testing.T) {
	doc := Build([]SiteFacts{
		{Source: "triage.harn", ID: "b", Method: MethodEvaluate, Questions: triageQuestions(), InputTypeCanonical: "{messages:list<string>}", Line: 12, Column: 10},
		{Source: "lib/helper.harn", ID: "finding.support.v1", Method: MethodEvaluatePredicate,
			Questions: []Question{{ID: "finding.support.v1", Kind: "boolean", Instructions: "Does it?"}}, InputTypeCanonical: "{claim:string}", Line: 3, Column: 5},
		{Source: "triage.harn", ID: "a", Method: MethodEvaluateRequest, InputTypeCanonical: "{x:int}", Line: 12, Column: 10},
		{Source: "triage.harn", ID: "c", Method: MethodEvaluate, Questions: triageQuestions()[:1], Line: 2, Column: 1},
	})
	var ids []string
	for _, s := range doc.Sites {
		ids = append(ids, s.Source+":"+s.ID)
	}
	if got := strings.Join(ids, " "); got != "lib/helper.harn:finding.support.v1 triage.harn:c triage.harn:a triage.harn:b" {
		t.Errorf("order %s", got)
	}
	enc := string(doc.Encode())
	if !strings.HasPrefix(enc, `{"schema":"harn.predicate_sites.v2","sites":[{"source":"lib/helper.harn","id":"finding.support.v1","question_set_sha256":"`) {
		t.Errorf("key order: %s", enc)
	}
	var raw struct {
		Sites []map[string]any
	}
	if err := json.Unmarshal([]byte(enc), &raw); err != nil {
		t.Fatal(err)
	}
	req := raw.Sites[2]
	if req["runtime_admission"] != true || req["question_set_sha256"] != nil || len(req["questions"].([]any)) != 0 {
		t.Errorf("evaluate_request site: %v", req)
	}
	for i, s := range raw.Sites {
		if _, has := s["runtime_admission"]; has && i != 2 {
			t.Errorf("runtime_admission must be omitted on site %d", i)
		}
		if eff := s["effects"].([]any); len(eff) != 1 || eff[0] != "llm.write" {
			t.Errorf("effects %v", eff)
		}
	}
	if raw.Sites[0]["outcome_schema"] != OutcomePredicate || raw.Sites[3]["outcome_schema"] != OutcomeEvaluation {
		t.Errorf("outcome schemas %v %v", raw.Sites[0]["outcome_schema"], raw.Sites[3]["outcome_schema"])
	}
	q := raw.Sites[3]["questions"].([]any)
	if len(q) != 3 || q[0].(map[string]any)["option_count"] != float64(3) || q[2].(map[string]any)["option_count"] != float64(0) ||
		q[1].(map[string]any)["instructions_sha256"] != InstructionsSHA256("How much blast radius?") {
		t.Errorf("census %v", q)
	}
	if raw.Sites[3]["input_type_sha256"] != hexSHA256("{messages:list<string>}") {
		t.Errorf("input digest %v", raw.Sites[3]["input_type_sha256"])
	}
	if got := string(Build(nil).Encode()); got != `{"schema":"harn.predicate_sites.v2","sites":[]}` {
		t.Errorf("empty closure: %s", got)
	}
}
