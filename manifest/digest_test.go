package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

// referenceDigest re-implements the documented byte layout independently
// (building the whole byte string first, with explicit little-endian
// shifts) so that the product's streaming implementation is checked
// against the documentation, not against itself.
func referenceDigest(qs []Question) string {
	var buf bytes.Buffer
	u64 := func(n int) {
		for i := 0; i < 8; i++ {
			buf.WriteByte(byte(uint64(n) >> (8 * i)))
		}
	}
	lp := func(s string) { u64(len(s)); buf.WriteString(s) }
	for _, q := range qs {
		lp(q.ID)
		lp(q.Kind)
		lp(q.Instructions)
		u64(len(q.Labels))
		for _, l := range q.Labels {
			lp(l)
		}
	}
	sum := sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(sum[:])
}

func triageQuestions() []Question {
	return []Question{
		{ID: "disposition", Kind: "choice", Instructions: "Keep, reword, or drop this window?", Labels: []string{"keep", "reword", "drop"}},
		{ID: "risk", Kind: "score", Instructions: "How much blast radius?", Labels: []string{"none", "low", "medium", "high"}},
		{ID: "safe", Kind: "boolean", Instructions: "Is this safe to run without asking?"},
	}
}

func TestQuestionSetDigestMatchesDocumentedLayout(t *testing.T) {
	for _, qs := range [][]Question{nil, triageQuestions(), {{ID: "é", Kind: "boolean", Instructions: "😀\x00"}}} {
		if got, want := QuestionSetSHA256(qs), referenceDigest(qs); got != want {
			t.Errorf("digest %s, reference %s for %+v", got, want, qs)
		}
	}
	// Pin one value, so a change of layout in both places is noticed.
	if got := QuestionSetSHA256([]Question{{ID: "a", Kind: "boolean", Instructions: "b"}}); got != referenceDigest([]Question{{ID: "a", Kind: "boolean", Instructions: "b"}}) || len(got) != 64 {
		t.Errorf("digest %q", got)
	}
}

func TestQuestionSetDigestSensitivity(t *testing.T) {
	base := QuestionSetSHA256(triageQuestions())
	mutations := map[string]func(qs []Question) []Question{
		"rename a question id": func(qs []Question) []Question { qs[0].ID = "disposition2"; return qs },
		"relabel":              func(qs []Question) []Question { qs[0].Labels[2] = "discard"; return qs },
		"reorder questions":    func(qs []Question) []Question { qs[0], qs[1] = qs[1], qs[0]; return qs },
		"reorder labels": func(qs []Question) []Question {
			qs[1].Labels[0], qs[1].Labels[1] = qs[1].Labels[1], qs[1].Labels[0]
			return qs
		},
		"change instructions": func(qs []Question) []Question { qs[2].Instructions += " "; return qs },
		"change a kind":       func(qs []Question) []Question { qs[2].Kind = "choice"; return qs },
		"move a label between questions": func(qs []Question) []Question {
			qs[0].Labels = qs[0].Labels[:2]
			qs[1].Labels = append([]string{"drop"}, qs[1].Labels...)
			return qs
		},
		// Without length prefixes "ab"+"c" and "a"+"bc" would collide.
		"shift bytes between fields": func(qs []Question) []Question {
			qs[0].ID, qs[0].Kind = "dispositionc", "hoice"
			return qs
		},
	}
	for name, mutate := range mutations {
		if got := QuestionSetSHA256(mutate(triageQuestions())); got == base {
			t.Errorf("%s: digest unchanged", name)
		}
	}
	if QuestionSetSHA256(triageQuestions()) != base {
		t.Error("digest is not deterministic")
	}
}

// The expected value was computed outside Go, with Python's hashlib and
// struct.pack('<Q', ...) over the documented layout.
func ExampleQuestionSetSHA256() {
	fmt.Println(QuestionSetSHA256([]Question{{ID: "safe", Kind: "boolean", Instructions: "Is it safe?"}}))
	// Output: 02cc7a3283d26d276242617983804366b64be1380d237f44d582d4d60dff7f1a
}
