package analysis

import (
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/lang/harn/types"
)

// Site is what the checker knows about one evaluation call
// (`recv.evaluate`, `recv.evaluate_predicate`, `recv.evaluate_request`).
// The site manifest reads these facts; it never re-derives them.
type Site struct {
	// Source is the module the call is in (the checked file's path or the
	// resolved import path).
	Source string
	// Method is "evaluate", "evaluate_predicate" or "evaluate_request".
	Method string
	// Call is the call expression; Span is its span, Line and Column the
	// 1-based position of its start (columns count bytes). Call is nil in
	// the sites a run's shared module graph keeps for importers once the
	// module's own rules have run.
	Call         *ast.Call
	Span         ast.Span
	Line, Column int

	// ID is the site id when the first argument is a non-empty literal;
	// IDSpan covers that argument.
	ID     string
	IDSpan ast.Span
	// IDProblem says why the id is not usable ("" when it is).
	IDProblem string
	// QuestionTextProblem says why evaluate_predicate's question is not a
	// usable literal ("" when it is).
	QuestionTextProblem string
	// ReceiverProblem says why the receiver does not declare a site: an
	// optional call or an erased receiver type ("" when fine).
	ReceiverProblem string
	// ReceiverSpan covers the receiver and method name.
	ReceiverSpan ast.Span

	// Questions is the literal question set in declared order (for
	// evaluate_predicate, the one boolean question named by the site).
	Questions []Question
	// QuestionSpan covers the question-set argument.
	QuestionSpan ast.Span
	// QuestionProblems list why the question set cannot be read; empty
	// when it was read (always empty for evaluate_request).
	QuestionProblems []Problem
	// RuntimeAdmission marks evaluate_request: questions and policy are
	// bound at run time.
	RuntimeAdmission bool

	// Input is the state/input argument's inferred type; InputDeclared is
	// its declared type when the argument names an annotated binding or
	// parameter of this module (nil otherwise); InputSpan covers it.
	Input         types.Type
	InputDeclared types.Type
	InputSpan     ast.Span
	// QuestionsType is the inferred type of evaluate_request's question
	// argument.
	QuestionsType types.Type

	// Policy is the const-evaluated policy argument.
	Policy Policy

	// Outcome is the site's result type; OutcomeKind is
	// "EvaluationOutcome" or "PredicateOutcome".
	Outcome     types.Type
	OutcomeKind string

	// Problems are filled by rules: a site with any problem declares no
	// manifest entry.
	Problems []string
}

// Declared reports whether the site declares a manifest entry: its id,
// receiver, question set, input and policy were all accepted.
func (s *Site) Declared() bool { return len(s.Problems) == 0 }

// Reject records that a rule refused the site.
func (s *Site) Reject(code string) { s.Problems = append(s.Problems, code) }

// Question is one question of a literal question set.
type Question struct {
	ID           string
	IDSpan       ast.Span
	Kind         string // "boolean", "choice" or "score"
	Instructions string
	Labels       []string
	LabelSpans   []ast.Span
	// Span covers the builder call.
	Span ast.Span
	// Site is the site asking the question.
	Site *Site
}

// Problem is a located reason, optionally pointing at an earlier
// location (the first declaration of a duplicated id or label).
type Problem struct {
	Span    ast.Span
	Message string
	// Earlier, when set, is where the duplicated thing first appears.
	Earlier *ast.Span
}

// Policy is what const evaluation learnt about a policy argument.
type Policy struct {
	// Span covers the policy argument (zero when absent).
	Span ast.Span
	// Present is set when a policy argument was passed.
	Present bool
	// Const is set when the value is known at compile time; Fields then
	// holds every field whose value is a literal (string, float64, int64,
	// bool or nil).
	Const  bool
	Fields map[string]any
	// Parameter is set when the policy is a parameter of the enclosing
	// function: the caller supplies it and the route is checked there.
	Parameter bool
	// Reason says why the policy is not constant ("" when it is).
	Reason string
	// Type is the policy argument's inferred type.
	Type types.Type
}

// String returns a string field of a constant policy.
func (p Policy) String(name string) (string, bool) {
	v, ok := p.Fields[name].(string)
	return v, ok
}

// LabelsRelated points at a question's declared labels: one related span
// covering them all, named after the question.
func LabelsRelated(q *Question) []diagnostics.Related {
	if len(q.LabelSpans) == 0 {
		return nil
	}
	span := q.LabelSpans[0].Cover(q.LabelSpans[len(q.LabelSpans)-1])
	return []diagnostics.Related{{Span: Span(span), Message: "labels of question " + q.ID + " declared here"}}
}
