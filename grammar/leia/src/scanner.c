// External scanner for the Leia grammar (grammar/leia/grammar.js).
//
// It decides what the generated lexer cannot with one token of lookahead:
//
//   - a `:` that starts a method call (`obj:m(`) against a `:` that ends a
//     table key, a select case or a label;
//   - the opening delimiter of a tagged template, which must touch its tag
//     (`tag` + "`" or "```", no whitespace between);
//   - the text of double-quoted strings and of templates, which runs up to
//     the closing delimiter, an escape or `${`;
//   - untagged fenced raw blocks ("```" ... "```"), which have no escapes;
//   - a `for` with no header (`for {`), so that its `{` opens the body;
//   - the contextual words (agent, tool, evaluate, flow, select, quote,
//     import), which are keywords only in front of their forms, and whether
//     a quote block holds statements or fields;
//   - the q dialect's raw brace block (`q { select ... }`), whose body is q
//     text with balanced braces and `${expr}` interpolations;
//   - a number literal run together with letters (`1name`, `1__2`), which is
//     one malformed token.
//
// The only state is a stack with one frame per open q raw block (its brace
// depth and whether a q string is open), so that the text after an
// interpolation resumes at the right depth; it is serialized with every
// token. Everything else is decided from the characters ahead.

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Token types, in the order of `externals` in grammar.js.
enum TokenType {
  METHOD_COLON,
  PAIR_COLON,
  CASE_COLON,
  STRING_CONTENT,
  TEMPLATE_START,
  FENCED_TEMPLATE_START,
  TEMPLATE_CONTENT,
  FENCED_TEMPLATE_CONTENT,
  INFINITE_LOOP,
  TOOL_KEYWORD,
  EVALUATE_KEYWORD,
  FLOW_KEYWORD,
  SELECT_KEYWORD,
  QUOTE_KEYWORD,
  IMPORT_KEYWORD,
  AGENT_DECLARATION_KEYWORD,
  AGENT_KEYWORD,
  FENCED_STRING,
  END_OF_FILE,
  QUOTE_FIELDS_KEYWORD,
  Q_OPEN,
  Q_LBRACE,
  Q_CONTENT,
  Q_CLOSE,
  MALFORMED_NUMBER,
  STATEMENT_BREAK,
  BODY_OPEN,
  RETURN_END,
  ERROR_SENTINEL,
};

// Nesting limit of q raw blocks (a q block inside an interpolation of
// another). Deeper blocks are not recognised; the parser reports them.
#define Q_MAX_FRAMES 32

// One open q raw block: the depth of unclosed `{` in its text and whether
// its text stopped (at an interpolation) inside a q string.
typedef struct {
  uint16_t depth;
  uint8_t in_string;
} QFrame;

typedef struct {
  uint8_t count;
  QFrame frames[Q_MAX_FRAMES];
} Scanner;

// What ends a run of content.
enum ContentKind {
  CONTENT_STRING,  // "...": ends at ", \, newline or ${
  CONTENT_TEMPLATE,  // `...`: ends at ` or ${
  CONTENT_FENCED,  // ```...```: ends at ``` or ${
};

static inline void advance(TSLexer *lexer) { lexer->advance(lexer, false); }

static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }

static inline bool is_space(int32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static inline bool is_ident_start(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool is_ident_char(int32_t c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}

// scan_content consumes content of the given kind. The token ends at the
// last mark_end, so a `$` that turns out to start `${` stays outside it.
static bool scan_content(TSLexer *lexer, enum ContentKind kind, enum TokenType type) {
  bool has_content = false;
  for (;;) {
    lexer->mark_end(lexer);
    if (lexer->eof(lexer)) {
      break;
    }
    int32_t c = lexer->lookahead;
    if (kind == CONTENT_STRING && (c == '"' || c == '\\' || c == '\n' || c == '\r')) {
      break;
    }
    if (kind == CONTENT_TEMPLATE && c == '`') {
      break;
    }
    if (kind == CONTENT_FENCED && c == '`') {
      // One or two backticks are text; three close the block.
      advance(lexer);
      if (lexer->lookahead == '`') {
        advance(lexer);
        if (lexer->lookahead == '`') {
          break;
        }
      }
      has_content = true;
      continue;
    }
    if (c == '$') {
      advance(lexer);
      if (lexer->lookahead == '{') {
        break;
      }
      has_content = true;
      continue;
    }
    advance(lexer);
    has_content = true;
  }
  if (!has_content) {
    return false;
  }
  lexer->result_symbol = type;
  return true;
}

// scan_template_start reads the delimiter right after a tag (or its `!`).
// No whitespace is skipped: `tag \`x\`` is a name followed by a raw string.
static bool scan_template_start(TSLexer *lexer, const bool *valid_symbols) {
  advance(lexer);
  lexer->mark_end(lexer);
  if (lexer->lookahead == '`') {
    advance(lexer);
    if (lexer->lookahead == '`' && valid_symbols[FENCED_TEMPLATE_START]) {
      advance(lexer);
      lexer->mark_end(lexer);
      lexer->result_symbol = FENCED_TEMPLATE_START;
      return true;
    }
  }
  // "`" alone, or "``" (an empty template): the token is the first backtick.
  if (valid_symbols[TEMPLATE_START]) {
    lexer->result_symbol = TEMPLATE_START;
    return true;
  }
  return false;
}

// scan_colon handles a `:` that is not part of `:=`. Where a key can end
// it is always the key's colon (`{a: f(x)}` is a pair, as in Leia's
// parser), and where a select case can end it ends the case; otherwise it
// starts a method call only when a name and `(` follow on the same line,
// and is left to the grammar's own `:` (labels) else.
static bool scan_colon(TSLexer *lexer, const bool *valid_symbols) {
  advance(lexer);
  if (lexer->lookahead == '=') {
    return false;
  }
  lexer->mark_end(lexer);
  if (valid_symbols[PAIR_COLON]) {
    lexer->result_symbol = PAIR_COLON;
    return true;
  }
  if (valid_symbols[CASE_COLON]) {
    lexer->result_symbol = CASE_COLON;
    return true;
  }
  if (!valid_symbols[METHOD_COLON]) {
    return false;
  }
  while (lexer->lookahead == ' ' || lexer->lookahead == '\t') {
    advance(lexer);
  }
  if (!is_ident_start(lexer->lookahead)) {
    return false;
  }
  while (is_ident_char(lexer->lookahead)) {
    advance(lexer);
  }
  while (lexer->lookahead == ' ' || lexer->lookahead == '\t') {
    advance(lexer);
  }
  if (lexer->lookahead != '(') {
    return false;
  }
  lexer->result_symbol = METHOD_COLON;
  return true;
}

// scan_word consumes `word` when it is the whole name at the lookahead and
// marks the token's end after it.
static bool scan_word(TSLexer *lexer, const char *word) {
  for (int i = 0; word[i]; i++) {
    if (lexer->lookahead != word[i]) {
      return false;
    }
    advance(lexer);
  }
  if (is_ident_char(lexer->lookahead)) {
    return false;
  }
  lexer->mark_end(lexer);
  return true;
}

static void skip_space(TSLexer *lexer) {
  while (is_space(lexer->lookahead)) {
    advance(lexer);
  }
}

// skip_name consumes an identifier; false if none starts here.
static bool skip_name(TSLexer *lexer) {
  if (!is_ident_start(lexer->lookahead)) {
    return false;
  }
  while (is_ident_char(lexer->lookahead)) {
    advance(lexer);
  }
  return true;
}

static inline bool is_quote(int32_t c) { return c == '"' || c == '\'' || c == '`'; }

// scan_agent decides between the two `agent` keywords. A declaration
// (statement start only) is `agent name(` or `agent name {` (including
// `agent defaults {`); a literal is `agent(` or `agent {`.
static bool scan_agent(TSLexer *lexer, const bool *valid_symbols) {
  if (!scan_word(lexer, "agent")) {
    return false;
  }
  skip_space(lexer);
  if (lexer->lookahead == '(' || lexer->lookahead == '{') {
    if (!valid_symbols[AGENT_KEYWORD]) {
      return false;
    }
    lexer->result_symbol = AGENT_KEYWORD;
    return true;
  }
  if (!valid_symbols[AGENT_DECLARATION_KEYWORD] || !skip_name(lexer)) {
    return false;
  }
  skip_space(lexer);
  if (lexer->lookahead != '(' && lexer->lookahead != '{') {
    return false;
  }
  lexer->result_symbol = AGENT_DECLARATION_KEYWORD;
  return true;
}

// skip_blank skips spaces and tabs (not newlines).
static void skip_blank(TSLexer *lexer) {
  while (lexer->lookahead == ' ' || lexer->lookahead == '\t') {
    advance(lexer);
  }
}

// quote_body_is_fields looks past the `{` of a quote block (the lexer is
// just after it) at its first entry: `name:` (not `:=`, and not a method
// call `name:m(`) or `"key":` / `'key':` make the body table fields.
static bool quote_body_is_fields(TSLexer *lexer) {
  skip_space(lexer);
  int32_t c = lexer->lookahead;
  if (c == '"' || c == '\'') {
    advance(lexer);
    while (!lexer->eof(lexer) && lexer->lookahead != c && lexer->lookahead != '\n' && lexer->lookahead != '\r') {
      if (lexer->lookahead == '\\') {
        advance(lexer);
      }
      advance(lexer);
    }
    if (lexer->lookahead != c) {
      return false;
    }
    advance(lexer);
    skip_blank(lexer);
    return lexer->lookahead == ':';
  }
  if (!skip_name(lexer)) {
    return false;
  }
  skip_blank(lexer);
  if (lexer->lookahead != ':') {
    return false;
  }
  advance(lexer);
  if (lexer->lookahead == '=') {
    return false;
  }
  skip_blank(lexer);
  if (skip_name(lexer)) {
    skip_blank(lexer);
    if (lexer->lookahead == '(') {
      return false;
    }
  }
  return true;
}

// scan_quote continues after the `q` of `quote`: the keyword when a block
// follows, QUOTE_FIELDS_KEYWORD when that block's first entry is a key.
static bool scan_quote(TSLexer *lexer, const bool *valid_symbols) {
  if (!valid_symbols[QUOTE_KEYWORD] && !valid_symbols[QUOTE_FIELDS_KEYWORD]) {
    return false;
  }
  const char *rest = "uote";
  for (int i = 0; rest[i]; i++) {
    if (lexer->lookahead != rest[i]) {
      return false;
    }
    advance(lexer);
  }
  if (is_ident_char(lexer->lookahead)) {
    return false;
  }
  lexer->mark_end(lexer);
  if (lexer->lookahead == '!') {
    advance(lexer);
  }
  skip_space(lexer);
  if (lexer->lookahead != '{') {
    return false;
  }
  advance(lexer);
  if (valid_symbols[QUOTE_FIELDS_KEYWORD] && quote_body_is_fields(lexer)) {
    lexer->result_symbol = QUOTE_FIELDS_KEYWORD;
    return true;
  }
  if (!valid_symbols[QUOTE_KEYWORD]) {
    return false;
  }
  lexer->result_symbol = QUOTE_KEYWORD;
  return true;
}

// scan_q_open continues after a `q`: the tag of a q raw block when `{` or
// `! {` follows (the token is the `q` alone).
static bool scan_q_open(TSLexer *lexer, const bool *valid_symbols) {
  if (!valid_symbols[Q_OPEN] || is_ident_char(lexer->lookahead)) {
    return false;
  }
  lexer->mark_end(lexer);
  if (lexer->lookahead == '!') {
    advance(lexer);
  }
  skip_space(lexer);
  if (lexer->lookahead != '{') {
    return false;
  }
  lexer->result_symbol = Q_OPEN;
  return true;
}

// scan_q_lbrace reads the `{` that opens a q raw block and pushes its
// frame.
static bool scan_q_lbrace(Scanner *s, TSLexer *lexer) {
  while (is_space(lexer->lookahead)) {
    skip(lexer);
  }
  if (lexer->lookahead != '{' || s->count >= Q_MAX_FRAMES) {
    return false;
  }
  advance(lexer);
  lexer->mark_end(lexer);
  s->frames[s->count].depth = 0;
  s->frames[s->count].in_string = 0;
  s->count++;
  lexer->result_symbol = Q_LBRACE;
  return true;
}

// scan_q_body reads q text up to the closing brace of the innermost open
// block or an interpolation, or the closing brace itself. Braces inside q
// strings ("...", with backslash escapes) and q comments (a `/` at the
// start of a line or after a blank, to the end of the line) do not count.
static bool scan_q_body(Scanner *s, TSLexer *lexer, const bool *valid_symbols) {
  if (s->count == 0) {
    return false;
  }
  QFrame *f = &s->frames[s->count - 1];
  bool has_content = false;
  // A q comment starts at a `/` after a blank or a line break; the first
  // character of a run follows a brace or an interpolation, never a blank.
  bool after_blank = false;
  for (;;) {
    lexer->mark_end(lexer);
    if (lexer->eof(lexer)) {
      break;
    }
    int32_t c = lexer->lookahead;
    if (f->in_string) {
      if (c == '$') {
        advance(lexer);
        if (lexer->lookahead == '{') {
          break;
        }
        has_content = true;
        continue;
      }
      if (c == '\\') {
        advance(lexer);
        if (!lexer->eof(lexer)) {
          advance(lexer);
        }
      } else {
        if (c == '"') {
          f->in_string = 0;
        }
        advance(lexer);
      }
      has_content = true;
      after_blank = false;
      continue;
    }
    if (c == '}' && f->depth == 0) {
      break;
    }
    if (c == '$') {
      advance(lexer);
      if (lexer->lookahead == '{') {
        break;
      }
      has_content = true;
      after_blank = false;
      continue;
    }
    if (c == '/' && after_blank) {
      // A q comment runs to the end of the line (LF, CR or CRLF).
      while (!lexer->eof(lexer) && lexer->lookahead != '\n' && lexer->lookahead != '\r') {
        advance(lexer);
      }
      has_content = true;
      continue;
    }
    if (c == '"') {
      f->in_string = 1;
    } else if (c == '{') {
      if (f->depth < UINT16_MAX) {
        f->depth++;
      }
    } else if (c == '}') {
      f->depth--;
    }
    after_blank = is_space(c);
    advance(lexer);
    has_content = true;
  }
  if (has_content && valid_symbols[Q_CONTENT]) {
    lexer->result_symbol = Q_CONTENT;
    return true;
  }
  if (!has_content && lexer->lookahead == '}' && f->depth == 0 && !f->in_string && valid_symbols[Q_CLOSE]) {
    advance(lexer);
    lexer->mark_end(lexer);
    s->count--;
    lexer->result_symbol = Q_CLOSE;
    return true;
  }
  return false;
}

static inline bool is_digit(int32_t c) { return c >= '0' && c <= '9'; }

static inline bool is_hex(int32_t c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// digits_ok reports whether t[*i..] starts with a run of digits (as tested
// by ok) with `_` only between two of them, and advances *i past it.
static bool digits_ok(const char *t, int n, int *i, bool (*ok)(int32_t)) {
  if (*i >= n || !ok(t[*i])) {
    return false;
  }
  (*i)++;
  while (*i < n) {
    if (t[*i] == '_') {
      if (*i + 1 >= n || !ok(t[*i + 1])) {
        return false;
      }
      (*i)++;
    } else if (!ok(t[*i])) {
      break;
    }
    (*i)++;
  }
  return true;
}

static bool is_dec_digit(int32_t c) { return is_digit(c); }
static bool is_hex_digit(int32_t c) { return is_hex(c); }
static bool is_bin_digit(int32_t c) { return c == '0' || c == '1'; }
static bool is_oct_digit(int32_t c) { return c >= '0' && c <= '7'; }

// number_ok reports whether t (n bytes) is one of the literal forms the
// grammar lexes: a prefixed or decimal integer, a float, or a legacy
// duration.
static bool number_ok(const char *t, int n) {
  int i = 0;
  if (n >= 2 && t[0] == '0') {
    bool (*ok)(int32_t) = NULL;
    switch (t[1]) {
      case 'x': case 'X': ok = is_hex_digit; break;
      case 'b': case 'B': ok = is_bin_digit; break;
      case 'o': case 'O': ok = is_oct_digit; break;
    }
    if (ok != NULL) {
      i = 2;
      return digits_ok(t, n, &i, ok) && i == n;
    }
  }
  if (!digits_ok(t, n, &i, is_dec_digit)) {
    return false;
  }
  if (i == n) {
    return true;
  }
  bool fraction = false;
  if (t[i] == '.') {
    i++;
    if (!digits_ok(t, n, &i, is_dec_digit)) {
      return false;
    }
    fraction = true;
    if (i == n) {
      return true;
    }
  }
  if (t[i] == 'e' || t[i] == 'E') {
    int j = i + 1;
    if (j < n && (t[j] == '+' || t[j] == '-')) {
      j++;
    }
    if (digits_ok(t, n, &j, is_dec_digit) && j == n) {
      return true;
    }
  }
  // Legacy durations: 30s, 1.5h, 250ms.
  const char *units[] = {"ns", "us", "ms", "s", "m", "h"};
  for (int u = 0; u < 6; u++) {
    int len = (int)strlen(units[u]);
    if (n - i == len && strncmp(t + i, units[u], len) == 0) {
      return true;
    }
  }
  (void)fraction;
  return false;
}

// scan_number reads the run of characters a number literal could extend
// over (letters, digits, `_`, a `.` followed by one of those, a sign after
// an exponent `e`) and reports it as MALFORMED_NUMBER unless it is a valid
// literal, which the generated lexer then reads.
static bool scan_number(TSLexer *lexer) {
  char text[64];
  int n = 0;
  bool truncated = false;
  bool prefixed = false;
  for (;;) {
    int32_t c = lexer->lookahead;
    bool take = is_ident_char(c);
    if (!take && c == '.' && n > 0) {
      // Only a `.` followed by a letter or digit continues the run: `1..2`
      // is a range, `1.5` a float.
      advance(lexer);
      if (!is_ident_char(lexer->lookahead)) {
        break;
      }
      if (n < (int)sizeof(text)) {
        text[n++] = '.';
      } else {
        truncated = true;
      }
      continue;
    }
    if (!take && (c == '+' || c == '-') && n > 0 && !prefixed && (text[n - 1] == 'e' || text[n - 1] == 'E') &&
        !truncated) {
      take = true;
    }
    if (!take) {
      break;
    }
    if (n < (int)sizeof(text)) {
      text[n++] = (char)c;
    } else {
      truncated = true;
    }
    if (n == 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
      prefixed = true;
    }
    advance(lexer);
    lexer->mark_end(lexer);
  }
  if (!truncated && number_ok(text, n)) {
    return false;
  }
  lexer->result_symbol = MALFORMED_NUMBER;
  return true;
}

// scan_flow_brace ends `flow {` after a legacy agent's configuration, read
// as one token up to and including the brace, once the word is read.
static bool scan_flow_brace(TSLexer *lexer) {
  skip_space(lexer);
  if (lexer->lookahead != '{') {
    return false;
  }
  advance(lexer);
  lexer->mark_end(lexer);
  lexer->result_symbol = FLOW_KEYWORD;
  return true;
}

// scan_contextual reports a contextual word as a keyword only in front of
// its form; anywhere else it stays a name, so `tool := x`, `select := 1`
// and `flow {` as a tagged block after other code keep working.
static bool scan_contextual(TSLexer *lexer, const bool *valid_symbols) {
  switch (lexer->lookahead) {
    case 'a':
      return scan_agent(lexer, valid_symbols);
    case 's':
      // `select {`
      if (!valid_symbols[SELECT_KEYWORD] || !scan_word(lexer, "select")) {
        return false;
      }
      skip_space(lexer);
      if (lexer->lookahead != '{') {
        return false;
      }
      lexer->result_symbol = SELECT_KEYWORD;
      return true;
    case 'q':
      // `quote {`, `quote! {` (statements or fields), or the q dialect's
      // raw block `q {` / `q! {`.
      advance(lexer);
      if (lexer->lookahead == 'u') {
        return scan_quote(lexer, valid_symbols);
      }
      return scan_q_open(lexer, valid_symbols);
    case 'i':
      // `import "p"`, `import alias "p"`, `import (`
      if (!valid_symbols[IMPORT_KEYWORD] || !scan_word(lexer, "import")) {
        return false;
      }
      skip_space(lexer);
      if (skip_name(lexer)) {
        skip_space(lexer);
        if (!is_quote(lexer->lookahead)) {
          return false;
        }
      } else if (!is_quote(lexer->lookahead) && lexer->lookahead != '(') {
        return false;
      }
      lexer->result_symbol = IMPORT_KEYWORD;
      return true;
    case 't':
      // `tool name(` (a legacy tool declaration).
      if (!valid_symbols[TOOL_KEYWORD] || !scan_word(lexer, "tool")) {
        return false;
      }
      skip_space(lexer);
      if (!skip_name(lexer)) {
        return false;
      }
      skip_space(lexer);
      if (lexer->lookahead != '(') {
        return false;
      }
      lexer->result_symbol = TOOL_KEYWORD;
      return true;
    case 'e':
      // `evaluate "name"` (also with a single-quoted or raw name).
      if (!valid_symbols[EVALUATE_KEYWORD] || !scan_word(lexer, "evaluate")) {
        return false;
      }
      skip_space(lexer);
      if (!is_quote(lexer->lookahead)) {
        return false;
      }
      lexer->result_symbol = EVALUATE_KEYWORD;
      return true;
    case 'f':
      if (!valid_symbols[FLOW_KEYWORD] || !scan_word(lexer, "flow")) {
        return false;
      }
      return scan_flow_brace(lexer);
  }
  return false;
}

// scan_fenced_string reads a whole untagged ```...``` block. An unterminated
// block is not a token; the grammar then reports the stray backticks.
static bool scan_fenced_string(TSLexer *lexer) {
  for (int i = 0; i < 3; i++) {
    if (lexer->lookahead != '`') {
      return false;
    }
    advance(lexer);
  }
  for (;;) {
    if (lexer->eof(lexer)) {
      return false;
    }
    if (lexer->lookahead != '`') {
      advance(lexer);
      continue;
    }
    advance(lexer);
    if (lexer->lookahead != '`') {
      continue;
    }
    advance(lexer);
    if (lexer->lookahead != '`') {
      continue;
    }
    advance(lexer);
    lexer->mark_end(lexer);
    lexer->result_symbol = FENCED_STRING;
    return true;
  }
}

void *tree_sitter_leia_external_scanner_create(void) { return calloc(1, sizeof(Scanner)); }

void tree_sitter_leia_external_scanner_destroy(void *payload) { free(payload); }

// Serialized form: the frame count, then three bytes per frame (depth low,
// depth high, in_string).
unsigned tree_sitter_leia_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *s = (Scanner *)payload;
  unsigned n = 0;
  buffer[n++] = (char)s->count;
  for (uint8_t i = 0; i < s->count; i++) {
    buffer[n++] = (char)(s->frames[i].depth & 0xff);
    buffer[n++] = (char)(s->frames[i].depth >> 8);
    buffer[n++] = (char)s->frames[i].in_string;
  }
  return n;
}

void tree_sitter_leia_external_scanner_deserialize(void *payload, const char *buffer,
                                                    unsigned length) {
  Scanner *s = (Scanner *)payload;
  memset(s, 0, sizeof(*s));
  if (length == 0) {
    return;
  }
  uint8_t count = (uint8_t)buffer[0];
  if (count > Q_MAX_FRAMES || length < 1 + 3u * count) {
    return;
  }
  s->count = count;
  for (uint8_t i = 0; i < count; i++) {
    const unsigned char *f = (const unsigned char *)buffer + 1 + 3 * i;
    s->frames[i].depth = (uint16_t)(f[0] | (f[1] << 8));
    s->frames[i].in_string = f[2];
  }
}

// end_of_file reports the zero-width token that ends the top-level
// statement list.
static bool end_of_file(TSLexer *lexer) {
  lexer->mark_end(lexer);
  lexer->result_symbol = END_OF_FILE;
  return true;
}

// Words that continue a top-level statement which could also end before
// them: `else`/`elseif` after an if statement, `as` after an import path, a
// dense array's element type after `[]` or `[n]`, and a legacy agent's
// `flow {`. No break is reported before them (the parser then reads on as
// without the break). TestStatementBreakWords (grammar/leia/binding) keeps
// this list equal to the words the parse table shifts where a break is
// valid.
static const char *const CONTINUATION_WORDS[] = {"as", "bool", "else", "elseif", "f32", "f64", "flow", "i32", "i64"};

// continues_statement reports whether w[0:n] is one of CONTINUATION_WORDS.
static bool continues_statement(const char *w, int n) {
  for (size_t i = 0; i < sizeof(CONTINUATION_WORDS) / sizeof(CONTINUATION_WORDS[0]); i++) {
    if ((int)strlen(CONTINUATION_WORDS[i]) == n && strncmp(w, CONTINUATION_WORDS[i], n) == 0) {
      return true;
    }
  }
  return false;
}

// scan_statement_break reports STATEMENT_BREAK, zero-width at the current
// position, when the next token past spaces and comments is a word that
// starts a new statement. It reads ahead without moving the token's end.
static bool scan_statement_break(TSLexer *lexer, const bool *valid_symbols) {
  lexer->mark_end(lexer);
  bool commented = false;
  for (;;) {
    while (is_space(lexer->lookahead)) {
      advance(lexer);
    }
    if (lexer->lookahead != '/') {
      break;
    }
    advance(lexer);
    commented = true;
    if (lexer->lookahead == '/') {
      while (!lexer->eof(lexer) && lexer->lookahead != '\n' && lexer->lookahead != '\r') {
        advance(lexer);
      }
      continue;
    }
    if (lexer->lookahead != '*') {
      return false;
    }
    advance(lexer);
    for (;;) {
      if (lexer->eof(lexer)) {
        return false;
      }
      if (lexer->lookahead != '*') {
        advance(lexer);
        continue;
      }
      advance(lexer);
      if (lexer->lookahead == '/') {
        advance(lexer);
        break;
      }
    }
  }
  if (!is_ident_start(lexer->lookahead)) {
    return false;
  }
  char w[8];
  int n = 0;
  while (is_ident_char(lexer->lookahead)) {
    if (n < (int)sizeof(w)) {
      w[n] = (char)lexer->lookahead;
    }
    n++;
    advance(lexer);
  }
  if (n <= (int)sizeof(w) && continues_statement(w, n)) {
    // The word is read now, so `flow {` is reported here when it is
    // valid, and only when no comment came before it (the token would
    // then hold the comment).
    if (!commented && valid_symbols[FLOW_KEYWORD] && n == 4 && strncmp(w, "flow", 4) == 0) {
      return scan_flow_brace(lexer);
    }
    return false;
  }
  lexer->result_symbol = STATEMENT_BREAK;
  return true;
}

bool tree_sitter_leia_external_scanner_scan(void *payload, TSLexer *lexer,
                                            const bool *valid_symbols) {
  Scanner *s = (Scanner *)payload;
  // During error recovery every symbol is valid; let the generated lexer
  // decide then.
  if (valid_symbols[ERROR_SENTINEL]) {
    return false;
  }

  // The end of the input, where the top level may end (see grammar.js).
  if (valid_symbols[END_OF_FILE] && lexer->eof(lexer)) {
    return end_of_file(lexer);
  }

  // Content tokens: no whitespace skipping, it belongs to the text.
  if (valid_symbols[STRING_CONTENT]) {
    return scan_content(lexer, CONTENT_STRING, STRING_CONTENT);
  }
  if (valid_symbols[TEMPLATE_CONTENT]) {
    return scan_content(lexer, CONTENT_TEMPLATE, TEMPLATE_CONTENT);
  }
  if (valid_symbols[FENCED_TEMPLATE_CONTENT]) {
    return scan_content(lexer, CONTENT_FENCED, FENCED_TEMPLATE_CONTENT);
  }

  // The text of a q raw block, or its closing brace.
  if (valid_symbols[Q_CONTENT] || valid_symbols[Q_CLOSE]) {
    return scan_q_body(s, lexer, valid_symbols);
  }

  // A template opening touches its tag.
  if ((valid_symbols[TEMPLATE_START] || valid_symbols[FENCED_TEMPLATE_START]) &&
      lexer->lookahead == '`') {
    return scan_template_start(lexer, valid_symbols);
  }

  while (is_space(lexer->lookahead)) {
    skip(lexer);
  }

  if (valid_symbols[END_OF_FILE] && lexer->eof(lexer)) {
    return end_of_file(lexer);
  }

  if (valid_symbols[Q_LBRACE]) {
    return scan_q_lbrace(s, lexer);
  }

  // Only a word or a comment can lead to a break; any other token is read
  // as before.
  if (valid_symbols[STATEMENT_BREAK] && !valid_symbols[RETURN_END] && (is_ident_start(lexer->lookahead) || lexer->lookahead == '/')) {
    return scan_statement_break(lexer, valid_symbols);
  }

  if (valid_symbols[MALFORMED_NUMBER] && is_digit(lexer->lookahead)) {
    return scan_number(lexer);
  }

  // After an if, elseif or for header, `{` opens the body.
  if (valid_symbols[BODY_OPEN] && !valid_symbols[INFINITE_LOOP] && lexer->lookahead == '{') {
    advance(lexer);
    lexer->mark_end(lexer);
    lexer->result_symbol = BODY_OPEN;
    return true;
  }

  if (valid_symbols[INFINITE_LOOP] && lexer->lookahead == '{') {
    lexer->mark_end(lexer);
    lexer->result_symbol = INFINITE_LOOP;
    return true;
  }

  if ((lexer->lookahead == 't' && valid_symbols[TOOL_KEYWORD]) ||
      (lexer->lookahead == 'e' && valid_symbols[EVALUATE_KEYWORD]) ||
      (lexer->lookahead == 'f' && valid_symbols[FLOW_KEYWORD]) ||
      (lexer->lookahead == 's' && valid_symbols[SELECT_KEYWORD]) ||
      (lexer->lookahead == 'q' &&
       (valid_symbols[QUOTE_KEYWORD] || valid_symbols[QUOTE_FIELDS_KEYWORD] || valid_symbols[Q_OPEN])) ||
      (lexer->lookahead == 'i' && valid_symbols[IMPORT_KEYWORD]) ||
      (lexer->lookahead == 'a' &&
       (valid_symbols[AGENT_KEYWORD] || valid_symbols[AGENT_DECLARATION_KEYWORD]))) {
    return scan_contextual(lexer, valid_symbols);
  }

  if (lexer->lookahead == ':' &&
      (valid_symbols[PAIR_COLON] || valid_symbols[CASE_COLON] || valid_symbols[METHOD_COLON])) {
    return scan_colon(lexer, valid_symbols);
  }

  if (lexer->lookahead == '`' && valid_symbols[FENCED_STRING]) {
    return scan_fenced_string(lexer);
  }

  return false;
}
