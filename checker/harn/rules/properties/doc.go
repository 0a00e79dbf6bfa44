// Package properties defines the properties rule.
//
// # Rule properties
//
// properties: a property is read only from a value that has properties
// (HARN-TYP-008).
//
// Dicts, records, structs, enums and pairs have fields; lists and strings
// have `count` and `empty` (lists also `first` and `last`). An int, a
// float, a bool or nil has none, and reading `x.name` from one stops the
// program ("cannot access property `name` on int"). The rule reports such
// a read when the receiver's type is certain; `x?.name` on nil is fine,
// and reads from values of uncertain or union type are left alone.
package properties
