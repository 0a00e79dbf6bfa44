package llm

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzSSE: the server-sent-event reader never panics, and every event's
// data is made of the input's data lines.
func FuzzSSE(f *testing.F) {
	for _, s := range []string{"data: {\"a\":1}\n\ndata: [DONE]\n\n", "event: x\ndata: a\ndata: b\n\n:comment\n", "data:x", "\n\n\n", "event:\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		n := 0
		err := parseSSE(bytes.NewReader(body), func(event, data string) error {
			n++
			for _, line := range strings.Split(data, "\n") {
				if line != "" && !bytes.Contains(body, []byte(line)) {
					t.Fatalf("data %q is not from the input", line)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("parseSSE: %v", err)
		}
		if n > bytes.Count(body, []byte("\n"))+1 {
			t.Fatalf("%d events from %d lines", n, bytes.Count(body, []byte("\n")))
		}
	})
}

// FuzzReadTape: any tape file either fails to parse with a located error
// or replays strictly (every record consumed in order by its identity).
func FuzzReadTape(f *testing.F) {
	f.Add([]byte("{\"schema\":\"harn-check.tape.v1\"}\n{\"seq\":1,\"kind\":\"chat\",\"identity\":\"x\",\"request\":{},\"response\":{}}\n"))
	f.Add([]byte("{\"schema\":\"harn-check.tape.v1\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tape, err := ReadTape(bytes.NewReader(data), "f.tape")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.tape") {
				t.Fatalf("error without location: %v", err)
			}
			return
		}
		for _, r := range tape.Records() {
			if _, err := tape.Next(r.Kind, r.Identity); err != nil {
				t.Fatalf("record %d: %v", r.Seq, err)
			}
		}
		if err := tape.Finish(); err != nil {
			t.Fatal(err)
		}
	})
}
