// Package nativestate defines the nativestate rule.
//
// # Rule nativestate
//
// nativestate: a native decision route needs a bounded input
// (HARN-LNT-079, lint `unbounded-native-decision-state`, a warning).
//
// Native decision routes admit a request only when its encoded input has a
// finite size bound. When a site's policy const-evaluates to
// backend: "native_decision" and the declared type of its state or input
// argument (aliases resolved) contains string, list<T>, dict<K, V>, any or
// an open record anywhere, the request may be refused as state_too_large
// at run time. Finite types are int, bool, float, literal unions and
// records built only from those. Not reported for structured_llm, for
// unannotated bindings (an argument that is not a name with a declared
// type) or for types declared in other modules.
package nativestate
