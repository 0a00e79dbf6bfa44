// Package siteid defines the siteid rule.
//
// # Rule siteid
//
// siteid: evaluation sites must be recognisable and uniquely named
// (HARN-TYP-033).
//
// A call of harness.llm.evaluate, evaluate_predicate or evaluate_request
// declares an evaluation site. The site manifest and every receipt name it
// by its id, so the id must be a non-empty string literal and unique among
// the sites of one module (one site may still run many times: wrap it in a
// typed helper function to reuse it). evaluate_predicate's question must be
// a non-empty string literal too. The checker must see the call for what
// it is: taking an evaluation method as a value, calling it with `?.`, or
// calling it on a receiver whose static type was erased (any, unknown, a
// bare dict) hides the site and is rejected. The checker follows the
// capability through bindings, containers, record fields and arguments
// whatever their declared type (`const erased: any = harness.llm`), and
// reports an evaluation method called on any erased receiver, since
// nothing proves it is not the capability: evaluate_predicate and
// evaluate_request always, evaluate with three or more arguments. A
// one-argument `evaluate` of untyped data that never held the capability
// is not a site. A computed property of the capability
// (`harness.llm[name](...)`) is a method chosen at run time and declares
// no site either. The runtime refuses such calls before dispatch
// (unavailable/admission_refused, admission_reason non_literal_site).
package siteid
