// Package interfaces defines the interfaces rule.
//
// # Rule interfaces
//
// interfaces: a type passed where an interface bounds a type parameter
// implements it (HARN-TYP-011).
//
// Interfaces are satisfied implicitly: a struct or enum satisfies one when
// its `impl` block has every method the interface declares, with as many
// parameters (besides self), parameter types that fit and a result type
// that fits. An associated type (`type Item = int`) takes the type the
// implementation uses where the interface names it, which must fit its
// default. At a call of `fn f<T>(x: T) where T: Iface`, an argument of a
// declared type that does not satisfy Iface is reported with the first
// reason, in upstream Harn's words: "Type 'Box' does not satisfy
// interface 'Sizable': method 'size' returns 'string', expected 'int'
// (required by constraint `where T: Sizable`)". Interfaces and types the
// module does not declare (imported ones) are not judged.
package interfaces
