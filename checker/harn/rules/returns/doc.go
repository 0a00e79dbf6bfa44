// Package returns defines the returns rule.
//
// # Rule returns
//
// returns: a returned value must fit the function's declared result type
// (HARN-TYP-004).
//
// In a function or pipeline that declares `-> T`, `return value` whose
// type is certain and not assignable to T is reported, in upstream Harn's
// words: "return type doesn't match: expected int, got string". Values whose type is uncertain (any,
// unknown, open records, anything containing them) are never reported,
// and neither are values of if, match, try and block expressions, whose
// inferred types are approximations.
package returns
