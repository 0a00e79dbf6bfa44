package leia

import (
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/dsl"
	"github.com/harnlang/harn-check/grammar/generate/input"
	"github.com/harnlang/harn-check/grammar/generate/prepare"
)

// vocab is what a tree of this grammar can contain: node type names, the
// field names each node type can carry, and the grammar as loaded.
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
// prepares it and collects its vocabulary. The result is shared by tests.
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
	v := &vocab{
		input:      g,
		prepared:   p,
		named:      map[string]bool{"ERROR": true},
		anonymous:  map[string]bool{},
		supertypes: map[string]bool{},
		fields:     map[string]map[string]bool{},
		allFields:  map[string]bool{},
	}
	for _, s := range g.Supertypes {
		v.supertypes[s] = true
	}
	for _, r := range g.Rules {
		if !strings.HasPrefix(r.Name, "_") {
			v.named[r.Name] = true
		}
		v.walk(r.Rule, false)
	}
	for _, e := range g.Externals {
		if e.Type == input.Symbol && !strings.HasPrefix(e.Name, "_") {
			v.named[e.Name] = true
		}
	}
	for i, sv := range p.Syntax.Variables {
		set := map[string]bool{}
		for _, f := range p.Fields[i] {
			set[f] = true
			v.allFields[f] = true
		}
		v.fields[sv.Name] = set
	}
	return v, nil
}

// walk records aliases and the strings that become anonymous nodes. Inside
// token() strings are part of one token, not nodes of their own.
func (v *vocab) walk(r *input.Rule, inToken bool) {
	if r == nil {
		return
	}
	switch r.Type {
	case input.String:
		if !inToken {
			v.anonymous[r.Value] = true
		}
	case input.Alias:
		if r.Named {
			v.named[r.Value] = true
		} else {
			v.anonymous[r.Value] = true
		}
	case input.Token, input.ImmediateToken:
		// token("x") and token.immediate("x") are anonymous nodes named "x".
		if c := r.Content; c != nil && c.Type == input.String && !inToken {
			v.anonymous[c.Value] = true
		}
		inToken = true
	}
	for _, m := range r.Members {
		v.walk(m, inToken)
	}
	v.walk(r.Content, inToken)
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
