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
//     import), which are keywords only in front of their forms.
//
// The scanner keeps no state between tokens: everything it decides is local
// to the characters ahead, so serialization writes nothing.

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>

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
  ERROR_SENTINEL,
};

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
    if (kind == CONTENT_STRING && (c == '"' || c == '\\' || c == '\n')) {
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
      // `quote {` or `quote! {`
      if (!valid_symbols[QUOTE_KEYWORD] || !scan_word(lexer, "quote")) {
        return false;
      }
      if (lexer->lookahead != '!') {
        skip_space(lexer);
      }
      if (lexer->lookahead != '{' && lexer->lookahead != '!') {
        return false;
      }
      lexer->result_symbol = QUOTE_KEYWORD;
      return true;
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
      // `flow {` after a legacy agent's configuration, read as one token
      // up to and including the brace.
      if (!valid_symbols[FLOW_KEYWORD] || !scan_word(lexer, "flow")) {
        return false;
      }
      skip_space(lexer);
      if (lexer->lookahead != '{') {
        return false;
      }
      advance(lexer);
      lexer->mark_end(lexer);
      lexer->result_symbol = FLOW_KEYWORD;
      return true;
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

void *tree_sitter_leia_external_scanner_create(void) { return NULL; }

void tree_sitter_leia_external_scanner_destroy(void *payload) { (void)payload; }

unsigned tree_sitter_leia_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}

void tree_sitter_leia_external_scanner_deserialize(void *payload, const char *buffer,
                                                    unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

// end_of_file reports the zero-width token that ends the top-level
// statement list.
static bool end_of_file(TSLexer *lexer) {
  lexer->mark_end(lexer);
  lexer->result_symbol = END_OF_FILE;
  return true;
}

bool tree_sitter_leia_external_scanner_scan(void *payload, TSLexer *lexer,
                                            const bool *valid_symbols) {
  (void)payload;
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

  if (valid_symbols[INFINITE_LOOP] && lexer->lookahead == '{') {
    lexer->mark_end(lexer);
    lexer->result_symbol = INFINITE_LOOP;
    return true;
  }

  if ((lexer->lookahead == 't' && valid_symbols[TOOL_KEYWORD]) ||
      (lexer->lookahead == 'e' && valid_symbols[EVALUATE_KEYWORD]) ||
      (lexer->lookahead == 'f' && valid_symbols[FLOW_KEYWORD]) ||
      (lexer->lookahead == 's' && valid_symbols[SELECT_KEYWORD]) ||
      (lexer->lookahead == 'q' && valid_symbols[QUOTE_KEYWORD]) ||
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
