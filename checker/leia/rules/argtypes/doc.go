// Package argtypes defines the argtypes rule.
//
// # Rule argtypes
//
// argtypes: an argument to a builtin whose type the standard-library
// table rules out fails at run time with "bad argument" (LEIA4013).
//
// Every function of the table (lang/leia/stdlib) has typed parameters and
// results. An argument's type is known when it is a literal (string,
// number, boolean, nil, table, function), the result of another builtin
// (its first result, typed by the table), an operator whose result type
// is fixed (comparison and `!` give a boolean; `..` of strings or numbers
// a string; arithmetic on numbers a number), or a name declared once with
// such a value and never assigned again. Only conversions the runtime
// would refuse are reported: a string parameter takes a number (the
// runtime converts it), a number parameter takes a string that reads as a
// number, an integer parameter refuses a number with a fraction. A nil
// argument is reported only for a parameter that is neither optional nor
// nullable. Boolean parameters are never reported (the runtime tests
// truthiness), nor are parameters typed any or with a kind the checker
// does not track (channel, file, matrix, ...).
package argtypes
