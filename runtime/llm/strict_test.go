package llm

import (
	"context"
	"strings"
	"testing"
)

// TestStrictEngineUnderEachFormat: the tape formats replay through one
// engine, so they fail alike: a matching record answers, a different
// request fails and consumes its record (the next stays aligned), a
// request past the end is exhausted, Finish reports the first failure,
// and a replay that ends early reports the records left over.
func TestStrictEngineUnderEachFormat(t *testing.T) {
	turn := func(text string) TurnRequest {
		return TurnRequest{Model: "m", Messages: []TurnMessage{{Role: RoleUser, Text: text}}}
	}
	type replayer struct {
		ask    func(text string) error
		finish func() error
	}
	formats := map[string]func(recorded ...string) replayer{
		"harn-check.tape.v1": func(recorded ...string) replayer {
			rec := NewRecordingTape()
			for _, r := range recorded {
				id, _ := Identity(r)
				if err := rec.Append("chat", id, r, "answer"); err != nil {
					t.Fatal(err)
				}
			}
			var b strings.Builder
			if _, err := rec.WriteTo(&b); err != nil {
				t.Fatal(err)
			}
			tape, err := ReadTape(strings.NewReader(b.String()), "t.tape")
			if err != nil {
				t.Fatal(err)
			}
			return replayer{func(text string) error {
				id, _ := Identity(text)
				_, err := tape.Next("chat", id)
				return err
			}, tape.Finish}
		},
		".records.json": func(recorded ...string) replayer {
			var recs []TurnRecord
			for _, r := range recorded {
				recs = append(recs, TurnRecord{Request: turn(r), Result: TurnResult{Text: "answer"}})
			}
			data, err := MarshalRecords(recs)
			if err != nil {
				t.Fatal(err)
			}
			if recs, err = ParseRecords(data, "t.records.json"); err != nil {
				t.Fatal(err)
			}
			rp := NewReplay(recs)
			return replayer{func(text string) error {
				_, err := rp.Turn(context.Background(), turn(text), nil)
				return err
			}, rp.Finish}
		},
	}
	for name, open := range formats {
		t.Run(name, func(t *testing.T) {
			r := open("a", "b", "c")
			if err := r.ask("a"); err != nil {
				t.Fatalf("matching request: %v", err)
			}
			first := r.ask("x")
			if first == nil {
				t.Fatal("a different request was answered")
			}
			if err := r.ask("c"); err != nil {
				t.Errorf("the record after a mismatch is not aligned: %v", err)
			}
			if err := r.ask("d"); err == nil {
				t.Error("a request past the end was answered")
			}
			if err := r.finish(); err == nil || err.Error() != first.Error() {
				t.Errorf("Finish %v, want the first failure %v", err, first)
			}
			short := open("a", "b")
			if err := short.ask("a"); err != nil {
				t.Fatal(err)
			}
			if err := short.finish(); err == nil || !strings.Contains(err.Error(), "1 unconsumed") {
				t.Errorf("leftover record: %v", err)
			}
		})
	}
}
