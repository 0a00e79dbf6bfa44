package leia

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate"
	"github.com/harnlang/harn-check/grammar/generate/dsl"
	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

// vocab is what a tree of this grammar can contain, read from the
// node-types.json the generator writes: node type names, the field names
// each node type can carry, and the grammar as loaded and prepared.
type vocab struct {
	input    *input.Grammar
	prepared *prepare.Grammar
	// named and anonymous node types that can appear in a tree.
	named     map[string]bool
	anonymous map[string]bool
	// supertypes may appear in queries but never in a tree.
	supertypes map[string]bool
	// fields[node] is the set of field names nodes of that type carry.
	fields map[string]map[string]bool
	// allFields is the union of fields.
	allFields map[string]bool
}

var (
	vocabOnce sync.Once
	vocabVal  *vocab
	vocabErr  error
)

// loadVocab evaluates grammar.js (through Node.js, as the generator does),
// prepares and generates it, and collects its vocabulary. The result is
// shared by tests.
func loadVocab(t *testing.T) *vocab {
	t.Helper()
	vocabOnce.Do(func() {
		vocabVal, vocabErr = buildVocab(filepath.Join(".", "grammar.js"))
	})
	if vocabErr != nil {
		t.Fatal(vocabErr)
	}
	return vocabVal
}

func buildVocab(path string) (*vocab, error) {
	js, err := dsl.GrammarJSON(path)
	if err != nil {
		return nil, err
	}
	g, err := input.Parse(js)
	if err != nil {
		return nil, err
	}
	p, err := prepare.Prepare(g)
	if err != nil {
		return nil, err
	}
	out, err := generate.Generate(js, generate.Options{})
	if err != nil {
		return nil, err
	}
	var types []struct {
		Type     string `json:"type"`
		Named    bool   `json:"named"`
		Fields   map[string]json.RawMessage
		Subtypes []json.RawMessage
	}
	if err := json.Unmarshal(out.NodeTypesJSON, &types); err != nil {
		return nil, fmt.Errorf("node-types.json: %w", err)
	}
	v := &vocab{
		input:      g,
		prepared:   p,
		named:      map[string]bool{"ERROR": true},
		anonymous:  map[string]bool{},
		supertypes: map[string]bool{},
		fields:     map[string]map[string]bool{},
		allFields:  map[string]bool{},
	}
	for _, nt := range types {
		switch {
		case len(nt.Subtypes) > 0:
			v.supertypes[nt.Type] = true
		case nt.Named:
			v.named[nt.Type] = true
		default:
			v.anonymous[nt.Type] = true
		}
		set := map[string]bool{}
		for f := range nt.Fields {
			set[f] = true
			v.allFields[f] = true
		}
		if nt.Named {
			v.fields[nt.Type] = set
		}
	}
	return v, nil
}

// namedTypes returns the visible named node types, sorted.
func (v *vocab) namedTypes() []string {
	var out []string
	for n := range v.named {
		if n != "ERROR" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// nodeFields returns the fields a node type can carry. Aliased nodes (such
// as template_content) carry none.
func (v *vocab) nodeFields(node string) map[string]bool {
	return v.fields[node]
}
