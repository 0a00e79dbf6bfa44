// Package jsonschema validates JSON values against JSON Schema: the
// one implementation behind output schemas (runtime/validator) and Leia's
// llm.validate_output (runtime/leia/ai).
//
// It implements the validation vocabulary of draft 2020-12 and reads the
// spellings of the earlier drafts (04, 06, 07, 2019-09) that a schema
// naming them in $schema uses: `items` as an array with `additionalItems`,
// `dependencies`, `definitions`, boolean `exclusiveMaximum`/`Minimum`
// (04), `id` (04), and $ref hiding its sibling keywords (07 and earlier).
// `format`, `content*` and the meta-data keywords are annotations and are
// not asserted (the 2020-12 default).
//
// Invariants:
//
//   - Nothing is done at package initialisation: a binary that links the
//     package pays for it only when it compiles a schema. (The library
//     this replaces compiled every draft's meta-schema at start-up, about
//     half of harn-check's start-up time.)
//   - A schema never loads anything: a $ref that does not resolve inside
//     the schema document (another file, a URL, a meta-schema) is a
//     compile error.
//   - Compile checks the schema's own shape (keyword value types, regular
//     expressions, resolvable references) and returns an error for a
//     schema that is not well formed; it never panics on any input.
//   - Validation is bounded: $ref cycles that consume no input are cut,
//     and nesting deeper than MaxDepth is an error, not a stack overflow.
//
// Values are what encoding/json decodes into `any` (with or without
// UseNumber), plus the Go integer and float types.
package jsonschema
