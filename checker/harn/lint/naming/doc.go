// Package naming defines the naming-convention lint rule.
//
// # Rule naming-convention
//
// naming-convention: functions and tools are snake_case, types PascalCase (HARN-LNT-003).
//
// A warning, on by default.
//
// Reported: a function (declared anywhere, methods of impl blocks
// included) or tool whose name is not snake_case — lower-case ASCII
// letters, digits and underscores, starting with a letter or an
// underscore — and a struct, enum, interface or type alias whose name is
// not PascalCase — ASCII letters and digits, starting with an upper-case
// letter. The message suggests the converted name. No fix: a rename has
// to reach every use, in other modules too, which an editor's rename
// does.
package naming
