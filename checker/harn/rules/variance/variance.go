package variance

import (
	_ "embed"
	"fmt"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

const code = "HARN-TYP-013"

//go:embed doc.go
var doc string

// Rule is the variance rule.
var Rule = &analysis.Rule{
	Name:  "variance",
	Doc:   analysis.ExtractDoc(doc, "variance"),
	Codes: []string{code},
	Run:   run,
}

// polarity is the direction a position carries values in.
type polarity int

const (
	covariant polarity = iota
	contravariant
	invariant
)

func (p polarity) String() string {
	return [...]string{"covariant", "contravariant", "invariant"}[p]
}

// flip is the polarity inside a parameter of a function type at p.
func (p polarity) flip() polarity {
	switch p {
	case covariant:
		return contravariant
	case contravariant:
		return covariant
	}
	return invariant
}

// position is one type of a declaration with the polarity it starts at.
type position struct {
	t   ast.Type
	pol polarity
}

func run(p *analysis.Pass) {
	for _, d := range p.Facts.VarianceDecls {
		kind, params, positions := describe(d)
		marked := map[string]ast.Variance{}
		for _, tp := range params {
			if tp != nil && tp.Name != nil && tp.Variance != ast.Invariant {
				marked[tp.Name.Name] = tp.Variance
			}
		}
		if len(marked) == 0 {
			continue
		}
		c := &walker{marked: marked}
		for _, pos := range positions {
			if c.walk(pos.t, pos.pol, 0) {
				break
			}
		}
		if c.bad == nil {
			continue
		}
		mark, word := "out", "covariant"
		if marked[c.bad.Name.Name] == ast.In {
			mark, word = "in", "contravariant"
		}
		article := "a"
		if c.pol == invariant {
			article = "an"
		}
		diag := p.Diag(diagnostics.SourceType, code, c.bad.Span, "type parameter '%s' is declared '%s' (%s) but appears in %s %s position in %s", c.bad.Name.Name, mark, word, article, c.pol, kind)
		diag.Help = "remove the " + mark + " mark, or use the parameter only where it is " + word
		p.Report(diag)
	}
}

// describe lists a declaration's kind for messages, its type parameters
// and the positions where they may appear.
func describe(d ast.Stmt) (string, []*ast.TypeParam, []position) {
	var out []position
	add := func(t ast.Type, pol polarity) {
		if t != nil {
			out = append(out, position{t, pol})
		}
	}
	switch d := d.(type) {
	case *ast.FuncDecl:
		for _, prm := range d.Params {
			add(prm.Type, contravariant)
		}
		add(d.ReturnType, covariant)
		return fmt.Sprintf("function '%s'", name(d.Name)), d.TypeParams, out
	case *ast.TypeAlias:
		add(d.Type, covariant)
		return fmt.Sprintf("type alias '%s'", name(d.Name)), d.TypeParams, out
	case *ast.EnumDecl:
		for _, v := range d.Variants {
			if v == nil {
				continue
			}
			for _, f := range v.Fields {
				add(f.Type, covariant)
			}
		}
		return fmt.Sprintf("enum '%s'", name(d.Name)), d.TypeParams, out
	case *ast.StructDecl:
		for _, f := range d.Fields {
			add(f.Type, invariant)
		}
		return fmt.Sprintf("struct '%s'", name(d.Name)), d.TypeParams, out
	case *ast.InterfaceDecl:
		for _, at := range d.Types {
			add(at.Default, invariant)
		}
		for _, m := range d.Methods {
			for _, prm := range m.Params {
				add(prm.Type, contravariant)
			}
			add(m.ReturnType, covariant)
		}
		return fmt.Sprintf("interface '%s'", name(d.Name)), d.TypeParams, out
	}
	return "", nil, nil
}

func name(id *ast.Ident) string {
	if id == nil {
		return ""
	}
	return id.Name
}

// walker finds the first use of a marked parameter in a position its
// mark does not allow.
type walker struct {
	marked map[string]ast.Variance
	bad    *ast.NamedType
	pol    polarity
}

// walk reports whether it found a misplaced use; depth bounds the walk.
func (w *walker) walk(t ast.Type, pol polarity, depth int) bool {
	if t == nil || depth > 64 {
		return false
	}
	switch t := t.(type) {
	case *ast.NamedType:
		if t.Name != nil && len(t.Args) == 0 {
			if v, ok := w.marked[t.Name.Name]; ok {
				if (v == ast.Out && pol != covariant) || (v == ast.In && pol != contravariant) {
					w.bad, w.pol = t, pol
					return true
				}
			}
		}
		// Arguments of containers are invariant (list, dict and user
		// generics, whose own marks are not consulted); those of the
		// produced-only kinds keep the polarity.
		inner := invariant
		switch name(t.Name) {
		case "Iter", "iter", "Stream", "stream", "Generator", "generator", "Result":
			inner = pol
		}
		for _, a := range t.Args {
			if w.walk(a, inner, depth+1) {
				return true
			}
		}
	case *ast.ListType:
		return w.walk(t.Element, invariant, depth+1)
	case *ast.ShapeType:
		for _, f := range t.Fields {
			if w.walk(f.Type, pol, depth+1) {
				return true
			}
		}
	case *ast.UnionType:
		for _, m := range t.Members {
			if w.walk(m, pol, depth+1) {
				return true
			}
		}
	case *ast.IntersectionType:
		for _, m := range t.Members {
			if w.walk(m, pol, depth+1) {
				return true
			}
		}
	case *ast.OptionalType:
		return w.walk(t.Type, pol, depth+1)
	case *ast.FuncType:
		for _, prm := range t.Params {
			if w.walk(prm, pol.flip(), depth+1) {
				return true
			}
		}
		return w.walk(t.Result, pol, depth+1)
	}
	return false
}
