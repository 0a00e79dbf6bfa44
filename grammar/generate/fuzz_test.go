package generate

import (
	"strings"
	"testing"
	"time"
)

// FuzzGenerate feeds corrupted grammars to the generator's stages
// directly (without Generate's recover): any panic is a bug.
func FuzzGenerate(f *testing.F) {
	f.Add([]byte(exprGrammar))
	f.Add([]byte(strings.Replace(exprGrammar, `"extras": [`, `"inline": ["_expression", "binary"], "conflicts": [["binary"]], "extras": [`, 1)))
	f.Add([]byte(strings.Replace(exprGrammar, `"word": "identifier",`, `"word": "identifier", "externals": [{"type":"SYMBOL","name":"number"},{"type":"STRING","value":";"},{"type":"SYMBOL","name":"ext"}], "supertypes": ["_expression", "number"],`, 1)))
	f.Add([]byte(`{"name":"x","rules":{"a":{"type":"CHOICE","members":[]}}}`))
	f.Add([]byte(`{"name":"x","rules":{"a":{"type":"SEQ","members":[]}},"extras":[{"type":"SYMBOL","name":"a"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		done := make(chan any, 1)
		go func() {
			defer func() { done <- recover() }()
			_, _ = generate(data, Options{})
		}()
		select {
		case r := <-done:
			if r != nil {
				t.Fatalf("panic: %v\ninput: %s", r, data)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer after 20s\ninput: %s", data)
		}
	})
}

func TestMalformedGrammarsGiveErrors(t *testing.T) {
	for _, src := range []string{
		`{"name":"x","rules":{"a":{"type":"CHOICE","members":[]}}}`,
		`{"name":"x","rules":{"a":{"type":"SEQ","members":[]}},"extras":[{"type":"SYMBOL","name":"a"}]}`,
		`{"name":"x","rules":{"a":{"type":"STRING","value":"k"}},"extras":[{"type":"SYMBOL","name":"b"}],"rules2":1}`,
		`{"name":"x","rules":{"a":{"type":"SYMBOL","name":"a"}}}`,
		`{"name":"x","word":"a","rules":{"a":{"type":"SEQ","members":[{"type":"SYMBOL","name":"b"},{"type":"SYMBOL","name":"b"}]},"b":{"type":"STRING","value":"q"}}}`,
		`{"name":"x","rules":{"a":{"type":"STRING","value":"k"}},"supertypes":["a"]}`,
		`{"name":"x","rules":{"a":{"type":"PATTERN","value":"(("}}}`,
		`{"name":"x","rules":{"a":{"type":"SYMBOL","name":"e"}},"externals":[{"type":"SEQ","members":[]}]}`,
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("panic on %s: %v", src, r)
				}
			}()
			_, _ = generate([]byte(src), Options{})
		}()
	}
}
