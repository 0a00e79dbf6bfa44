// Package consts defines the consts rule.
//
// # Rule consts
//
// consts: a constant cannot be assigned (LEIA4002).
//
// `const name := value` (or `const name = value`) binds name for good:
// assigning it with `=`, `+=`, `-=`, `*=`, `/=`, `++` or `--` is an error
// in Leia's specification. The contents of a constant table stay mutable,
// so `limits.max = 3` is fine. The related span points at the
// declaration.
package consts
