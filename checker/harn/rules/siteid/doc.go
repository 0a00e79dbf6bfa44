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
// bare dict) hides the site and is rejected. A plain `evaluate` field read
// off untyped data is not a site; an erased receiver is only reported when
// the receiver names the LLM capability (`harness.llm`, `x.llm`, `llm`).
package siteid
