// Package manifest builds the `harn.predicate_sites.v2` document: the list
// of every place a Harn program asks a model a question, what it asks, and
// digests that let an auditor prove later that the questions did not
// change. It reads the facts the checker recorded about each evaluation
// site; it never re-derives a question set itself.
//
// # Document
//
//	{"schema": "harn.predicate_sites.v2",
//	 "sites": [{"source", "id", "question_set_sha256", "questions": [
//	              {"id", "kind", "instructions_sha256", "option_count"}],
//	            "input_type_sha256", "outcome_schema", "effects",
//	            "line", "column", "runtime_admission"?}]}
//
// Sites are sorted by source, line, column and id. `runtime_admission:
// true` marks an evaluate_request site, whose question set is bound at run
// time: its question_set_sha256 is null and its questions list is empty
// (not yet bound, not "no questions"); the key is omitted on other sites.
// line and column are 1-based, the column counted in Unicode code points,
// at the start of the call. effects is always ["llm.write"]. outcome_schema
// names the outcome union the site returns: OutcomeEvaluation for evaluate
// and evaluate_request, OutcomePredicate for evaluate_predicate.
//
// # Question-set digest (question_set_sha256)
//
// Lower-case hex SHA-256 over this byte string, built per question in
// declared order:
//
//	lp(id) lp(kind) lp(instructions) u64(len(labels)) lp(label_1) ... lp(label_n)
//
// where u64(n) is n as 8 bytes little-endian and lp(s) is u64(len(s))
// followed by the UTF-8 bytes of s. kind is "boolean", "choice" or
// "score"; labels are a choice's label keys or a score's levels in declared
// order, none for a boolean. evaluate_predicate contributes one boolean
// question whose id is the site id and whose instructions are the question
// text. The layout is order-significant and length-delimited, so renaming
// a question, relabelling, or reordering questions or labels changes the
// digest, while formatting and unrelated code do not.
//
// instructions_sha256 is the lower-case hex SHA-256 of the instruction
// bytes; option_count is the number of labels (0 for a boolean).
//
// # Input-type digest (input_type_sha256)
//
// Lower-case hex SHA-256 of the canonical serialisation of the declared
// input type defined by lang/harn/types.Canonical: aliases expanded,
// record fields sorted by name, union members sorted, no whitespace.
package manifest
