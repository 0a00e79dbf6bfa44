package infer

import (
	"fmt"
	"github.com/harnlang/harn-check/internal/limits"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
)

func argAt(args []ast.Expr, i int) ast.Expr {
	if i < len(args) {
		if _, spread := args[i].(*ast.Spread); !spread {
			return args[i]
		}
	}
	return nil
}

// literalString returns the value of a non-interpolated string literal.
func literalString(e ast.Expr) (string, bool) {
	s, ok := unparen(e).(*ast.StringLit)
	if !ok {
		return "", false
	}
	return s.Value()
}

// site records an evaluation call. receiverProblem is set when the
// receiver's type was erased.
func (c *checker) site(sc *scope, e *ast.Call, m *ast.Member, receiverProblem string) types.Type {
	method := m.Name.Name
	s := &analysis.Site{
		Source:          c.cfg.Path,
		Method:          method,
		Call:            e,
		Span:            e.Span,
		ReceiverSpan:    m.Span,
		ReceiverProblem: receiverProblem,
	}
	if m.Optional {
		s.ReceiverProblem = "optional method call (?.) of " + method
	}
	pos := c.lineIndex().RuneColumn(e.Span.Start)
	s.Line, s.Column = pos.Line+1, pos.Column+1
	c.facts.Sites = append(c.facts.Sites, s)

	args := c.args(sc, e.Args)
	sig := stdlib.HarnessLlm().Members[method].(*types.Func)
	c.facts.Calls = append(c.facts.Calls, analysis.Call{Node: e, Name: "llm." + method, Sig: sig, Args: args, Builtin: true})

	// Site id.
	if id := argAt(e.Args, 0); id != nil {
		s.IDSpan = id.Pos()
		if v, ok := literalString(id); !ok {
			s.IDProblem = "the site id must be a string literal, not a computed value"
		} else if v == "" {
			s.IDProblem = "the site id must not be empty"
		} else {
			s.ID = v
		}
	} else {
		s.IDSpan = e.Span
		s.IDProblem = "the site id is missing"
	}

	inputIdx := 1
	switch method {
	case stdlib.MethodEvaluate:
		s.OutcomeKind = "EvaluationOutcome"
		if q := argAt(e.Args, 2); q != nil {
			s.QuestionSpan = q.Pos()
			c.readQuestions(s, q)
		} else {
			s.QuestionSpan = e.Span
			s.QuestionProblems = append(s.QuestionProblems, analysis.Problem{Span: e.Span, Message: "the question set argument is missing"})
		}
	case stdlib.MethodEvaluatePredicate:
		s.OutcomeKind = "PredicateOutcome"
		inputIdx = 2
		if q := argAt(e.Args, 1); q != nil {
			s.QuestionSpan = q.Pos()
			if v, ok := literalString(q); !ok {
				s.QuestionTextProblem = "the question must be a string literal"
			} else if v == "" {
				s.QuestionTextProblem = "the question must not be empty"
			} else {
				s.Questions = []analysis.Question{{ID: s.ID, IDSpan: s.IDSpan, Kind: stdlib.KindBoolean, Instructions: v, Span: q.Pos(), Site: s}}
			}
		}
	case stdlib.MethodEvaluateRequest:
		s.OutcomeKind = "EvaluationOutcome"
		s.RuntimeAdmission = true
		if q := argAt(e.Args, 2); q != nil {
			s.QuestionSpan = q.Pos()
			s.QuestionsType = c.facts.TypeOf(q)
		}
	}
	if in := argAt(e.Args, inputIdx); in != nil {
		s.InputSpan = in.Pos()
		s.Input = c.facts.TypeOf(in)
		if id, ok := unparen(in).(*ast.Ident); ok {
			if v := sc.lookup(id.Name); v != nil && v.declared != nil && !v.imported {
				s.InputDeclared = v.declared
			}
		}
	}
	if pe := argAt(e.Args, 3); pe != nil {
		s.Policy = analysis.Policy{Span: pe.Pos(), Present: true, Type: c.facts.TypeOf(pe)}
		c.policies = append(c.policies, pendingPolicy{site: s, expr: pe, sc: sc})
	}

	switch {
	case method == stdlib.MethodEvaluatePredicate:
		s.Outcome = stdlib.Predicate().Types["PredicateOutcome"]
	case method == stdlib.MethodEvaluate && len(s.QuestionProblems) == 0 && len(s.Questions) > 0:
		s.Outcome = stdlib.EvaluationOutcomeFor(c.answers(s))
	case method == stdlib.MethodEvaluateRequest:
		s.Outcome = stdlib.RequestOutcome()
	default:
		s.Outcome = stdlib.Predicate().Types["EvaluationOutcome"]
	}
	return s.Outcome
}

// answers builds the per-question answers record of a readable set and
// remembers which question declared each label union.
func (c *checker) answers(s *analysis.Site) *types.Record {
	common := stdlib.CommonAnswerFields()
	rec := &types.Record{}
	for i := range s.Questions {
		q := &s.Questions[i]
		var t types.Type
		switch q.Kind {
		case stdlib.KindBoolean:
			t = stdlib.BooleanAnswerShape(common)
		case stdlib.KindChoice, stdlib.KindScore:
			if max := c.cfg.Limits.UnionMembers; len(q.Labels) > max {
				c.limitHit(limits.CodeUnion, q.Span, fmt.Sprintf("this %s question has %d labels, more than the limit of %d: its answer's label is checked as a string", q.Kind, len(q.Labels), max),
					fmt.Sprintf("ask with fewer labels, or raise the limit with --%s", limits.FlagUnionMembers))
				if q.Kind == stdlib.KindChoice {
					t = stdlib.ChoiceAnswerShape(common, types.StringType)
				} else {
					t = stdlib.ScoreAnswerShape(common, types.StringType)
				}
				break
			}
			ls := make([]types.Type, len(q.Labels))
			for j, l := range q.Labels {
				ls[j] = types.StringLit(l)
			}
			labels := types.NewUnion(ls...)
			c.facts.Labels[labels] = q
			if q.Kind == stdlib.KindChoice {
				t = stdlib.ChoiceAnswerShape(common, labels)
			} else {
				t = stdlib.ScoreAnswerShape(common, labels)
			}
		}
		rec.Fields = append(rec.Fields, types.Field{Name: q.ID, Type: t})
	}
	return rec
}

// readQuestions reads a literal question set, recording why it cannot be
// read when it cannot.
func (c *checker) readQuestions(s *analysis.Site, q ast.Expr) {
	bad := func(span ast.Span, format string, args ...any) {
		s.QuestionProblems = append(s.QuestionProblems, analysis.Problem{Span: span, Message: fmt.Sprintf(format, args...)})
	}
	d, ok := unparen(q).(*ast.DictLit)
	if !ok {
		bad(q.Pos(), "the question set must be a dict literal of question builders (boolean, choice, score) written at the call, not a variable or computed value")
		return
	}
	if len(d.Entries) == 0 {
		bad(d.Span, "the question set is empty; declare at least one question")
		return
	}
	seen := map[string]ast.Span{}
	for _, en := range d.Entries {
		var id string
		var idSpan ast.Span
		switch {
		case en.Spread:
			bad(en.Span, "a spread cannot be read as questions; write each question in the literal")
			continue
		case en.Name != nil:
			id, idSpan = en.Name.Name, en.Name.Span
		case en.StringKey != nil:
			v, ok := en.StringKey.Value()
			if !ok || v == "" {
				bad(en.StringKey.Span, "a question id must be an identifier or a non-empty string literal")
				continue
			}
			id, idSpan = v, en.StringKey.Span
		default:
			bad(en.Span, "a question id must be an identifier or a non-empty string literal, not a computed key")
			continue
		}
		if first, dup := seen[id]; dup {
			bad(idSpan, "question id %q is declared twice in this set", id)
			s.QuestionProblems[len(s.QuestionProblems)-1].Earlier = &first
			continue
		}
		seen[id] = idSpan
		call, ok := unparen(en.Value).(*ast.Call)
		if !ok {
			bad(en.Value.Pos(), "question %q must be a direct call of boolean, choice or score", id)
			continue
		}
		kt, _ := types.FieldOf(c.facts.TypeOf(call), "kind", false)
		kind := ""
		if kl, ok := types.Unalias(kt).(*types.Literal); ok {
			kind, _ = kl.Value.(string)
		}
		if kind != stdlib.KindBoolean && kind != stdlib.KindChoice && kind != stdlib.KindScore {
			bad(call.Span, "question %q must be built by boolean, choice or score from std/predicate", id)
			continue
		}
		question := analysis.Question{ID: id, IDSpan: idSpan, Kind: kind, Span: call.Span, Site: s}
		ins := argAt(call.Args, 0)
		if ins == nil {
			bad(call.Span, "question %q has no instructions", id)
			continue
		}
		if v, ok := literalString(ins); !ok || v == "" {
			bad(ins.Pos(), "the instructions of question %q must be a non-empty string literal", id)
			continue
		} else {
			question.Instructions = v
		}
		okLabels := true
		labelAt := map[string]int{}
		addLabel := func(l string, span ast.Span) {
			if i, dup := labelAt[l]; dup {
				bad(span, "label %q appears twice in question %q (first on line %d)", l, id, c.lineIndex().Line(question.LabelSpans[i].Start)+1)
				first := question.LabelSpans[i]
				s.QuestionProblems[len(s.QuestionProblems)-1].Earlier = &first
				okLabels = false
				return
			}
			labelAt[l] = len(question.Labels)
			question.Labels = append(question.Labels, l)
			question.LabelSpans = append(question.LabelSpans, span)
		}
		switch kind {
		case stdlib.KindChoice:
			opts := argAt(call.Args, 1)
			od, ok := unparen(opts).(*ast.DictLit)
			if opts == nil || !ok {
				bad(call.Span, "the options of choice question %q must be a dict literal of label: description", id)
				continue
			}
			for _, oe := range od.Entries {
				switch {
				case oe.Name != nil:
					addLabel(oe.Name.Name, oe.Name.Span)
				case oe.StringKey != nil:
					if v, ok := oe.StringKey.Value(); ok && v != "" {
						addLabel(v, oe.StringKey.Span)
						continue
					}
					bad(oe.Span, "a label of question %q must be a literal", id)
					okLabels = false
				default:
					bad(oe.Span, "a label of question %q must be a literal, not a computed or spread key", id)
					okLabels = false
				}
			}
		case stdlib.KindScore:
			lv := argAt(call.Args, 1)
			ll, ok := unparen(lv).(*ast.ListLit)
			if lv == nil || !ok {
				bad(call.Span, "the levels of score question %q must be a list literal of strings", id)
				continue
			}
			for _, el := range ll.Elements {
				if v, ok := literalString(el); ok && v != "" {
					addLabel(v, el.Pos())
				} else {
					bad(el.Pos(), "a level of question %q must be a non-empty string literal", id)
					okLabels = false
				}
			}
		}
		if !okLabels {
			continue
		}
		if kind != stdlib.KindBoolean && len(question.Labels) == 0 {
			bad(call.Span, "%s question %q declares no labels", kind, id)
			continue
		}
		s.Questions = append(s.Questions, question)
	}
	if len(s.QuestionProblems) > 0 {
		s.Questions = nil
	}
}

// finish evaluates site policies once every write in the module is known.
func (c *checker) finish() {
	for _, pp := range c.policies {
		v, reason, param := c.constValue(pp.sc, pp.expr, 0)
		pol := &pp.site.Policy
		pol.Parameter = param
		if m, ok := v.(map[string]any); ok && reason == "" {
			pol.Const = true
			pol.Fields = m
		} else if reason == "" {
			pol.Reason = "the policy is not a record literal"
		} else {
			pol.Reason = reason
		}
	}
}

// constValue evaluates e at compile time. It returns the value (string,
// int64, float64, bool, nil or map[string]any), or a reason it cannot,
// and whether e is a parameter.
func (c *checker) constValue(sc *scope, e ast.Expr, depth int) (any, string, bool) {
	if depth > 16 {
		return nil, "the policy refers to itself", false
	}
	switch e := unparen(e).(type) {
	case *ast.StringLit:
		if v, ok := e.Value(); ok {
			return v, "", false
		}
		return nil, "an interpolated string is computed at run time", false
	case *ast.IntLit:
		return e.Value, "", false
	case *ast.FloatLit:
		return e.Value, "", false
	case *ast.BoolLit:
		return e.Value, "", false
	case *ast.NilLit:
		return nil, "", false
	case *ast.Unary:
		if e.Op == ast.Negate {
			v, r, _ := c.constValue(sc, e.X, depth+1)
			switch n := v.(type) {
			case int64:
				return -n, r, false
			case float64:
				return -n, r, false
			}
		}
		return nil, "the expression is computed at run time", false
	case *ast.DictLit:
		m := map[string]any{}
		for _, en := range e.Entries {
			var key string
			switch {
			case en.Name != nil:
				key = en.Name.Name
			case en.StringKey != nil:
				k, ok := en.StringKey.Value()
				if !ok {
					return nil, "a policy key is computed at run time", false
				}
				key = k
			default:
				return nil, "a policy key is computed at run time", false
			}
			v, r, _ := c.constValue(sc, en.Value, depth+1)
			if r != "" {
				// Only the route fields must be constant.
				if key == "provider" || key == "model" || key == "backend" {
					return nil, fmt.Sprintf("the policy's %s is computed at run time", key), false
				}
				continue
			}
			m[key] = v
		}
		return m, "", false
	case *ast.Ident:
		v := sc.lookup(e.Name)
		if v == nil {
			return nil, fmt.Sprintf("%s is not declared", e.Name), false
		}
		switch {
		case v.kind == kindParam:
			return nil, fmt.Sprintf("the policy is the parameter %s, supplied at run time", e.Name), true
		case v.reassigned:
			return nil, fmt.Sprintf("%s is reassigned, so its value is only known at run time", e.Name), false
		case v.fieldWritten:
			return nil, fmt.Sprintf("a field of %s is written after its declaration, so its value is only known at run time", e.Name), false
		case v.init == nil:
			return nil, fmt.Sprintf("%s has no constant initialiser", e.Name), false
		}
		home := v.home
		if home == nil {
			home = c.module
		}
		return c.constValue(home, v.init, depth+1)
	}
	return nil, "the policy is computed at run time", false
}
