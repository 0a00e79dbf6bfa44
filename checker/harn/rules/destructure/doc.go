// Package destructure defines the destructure rule.
//
// # Rule destructure
//
// destructure: a pattern or spread takes apart only the kind of value it
// is written for (HARN-TYP-009).
//
// A dict pattern (`let {a, b} = v`) and a dict spread (`{...v}`) need a
// dict, record or struct; a list pattern (`let [a, b] = v`) needs a list,
// and a list spread (`[...v]`) a list. Taking apart another kind of
// value stops the program ("cannot destructure int with {...} pattern");
// the rule reports it, in those words, when the value's type is certain.
// Values of uncertain or union type are left alone.
package destructure
