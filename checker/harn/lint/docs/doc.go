// Package docs defines the Harn lint rules about documentation comments:
// HarnDoc (`/** ... */`) on public functions, the `/** */` form for doc
// comments, and an optional file header.
//
// # Rule missing-harndoc
//
// missing-harndoc: a public function without a /** */ doc comment (HARN-LNT-024).
//
// A warning, on by default.
//
// Reported: a `pub fn`, at the top level or in an impl block, whose
// declaration (attributes included) is not directly preceded by a
// `/** ... */` comment with some text in it; the comment ends on the line
// above. `///` and `//` comments do not count (legacy-doc-comment
// reports those). No fix: the words are the author's.
//
// # Rule legacy-doc-comment
//
// legacy-doc-comment: a // or /// doc comment instead of /** */ (HARN-LNT-049).
//
// A warning, on by default.
//
// Reported: a block of `//` or `///` line comments, each alone on its
// line, on the lines directly above a declaration — any top-level
// declaration, and public ones nested in bodies and impl blocks. The fix
// rewrites the block as one `/** ... */` comment at the same indentation
// (on one line when it fits in 100 columns), keeping the text.
//
// # Rule require-file-header
//
// require-file-header: a file not starting with a /** */ header (HARN-LNT-045, opt-in).
//
// A warning, opt-in as upstream's: select it by name or code.
//
// Reported: a file whose first text, after blank lines and a `#!` line,
// is not `/**`. The fix inserts a header whose title is the file name in
// words: `triage_bot.harn` gets `/**\n * Triage bot.\n */`.
package docs
