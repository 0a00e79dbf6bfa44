// External scanner for the Harn tree-sitter grammar.
//
// It lexes what the grammar's regular expressions cannot:
//
//   _newline                  a newline that ends a statement. It is only
//                             produced where the parser accepts a separator,
//                             and not when the next non-blank line starts with
//                             an operator that continues the expression
//                             (`|>`, `&&`, `.`, `?.`, `??`, ...) or with
//                             `else`, `catch` or `finally`. Blank lines fold
//                             into the same token; line and block comments
//                             between the lines are looked through.
//   block_comment             `/* ... */`, which nests.
//   string_content            text inside "...", up to a quote, a backslash,
//                             `${` or the end of the line.
//   multiline_string_content  text inside """...""", up to `"""` or
//                             `${`; a backslash is literal there.
//   raw_string                r"..." and r#"..."# (any number of #).
//
// The scanner keeps no state between tokens, so serialize writes nothing.

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum TokenType {
  NEWLINE,
  BLOCK_COMMENT,
  STRING_CONTENT,
  MULTILINE_STRING_CONTENT,
  RAW_STRING,
  ERROR_SENTINEL,
};

static inline void advance(TSLexer *lexer) { lexer->advance(lexer, false); }

static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }

static inline bool is_identifier_char(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static inline bool is_horizontal_space(int32_t c) {
  return c == ' ' || c == '\t' || c == '\f';
}

// is_newline reports whether c ends a line: LF, or CR (alone, or the first
// half of CRLF, whose LF then ends the same line break). Editors and the
// language server treat a lone CR as a line break, so the scanner does too;
// otherwise a file with old Mac line endings would be one line, and its
// first `//` would comment out the rest.
static inline bool is_newline(int32_t c) {
  return c == '\n' || c == '\r';
}

// scan_string_content lexes literal text of a single-line string. It stops
// before `"`, `\`, `${` and a newline, and fails if it consumed nothing.
static bool scan_string_content(TSLexer *lexer) {
  bool has_content = false;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer) || c == '"' || c == '\\' || is_newline(c)) {
      break;
    }
    if (c == '$') {
      lexer->mark_end(lexer);
      advance(lexer);
      if (lexer->lookahead == '{') {
        if (!has_content) {
          return false;
        }
        lexer->result_symbol = STRING_CONTENT;
        return true;
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
  lexer->mark_end(lexer);
  lexer->result_symbol = STRING_CONTENT;
  return true;
}

// scan_multiline_string_content lexes literal text of a """ string,
// newlines, lone quotes and backslashes included. It stops before `"""`
// and `${`.
static bool scan_multiline_string_content(TSLexer *lexer) {
  bool has_content = false;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer)) {
      break;
    }
    if (c == '$') {
      lexer->mark_end(lexer);
      advance(lexer);
      if (lexer->lookahead == '{') {
        if (!has_content) {
          return false;
        }
        lexer->result_symbol = MULTILINE_STRING_CONTENT;
        return true;
      }
      has_content = true;
      continue;
    }
    if (c == '"') {
      lexer->mark_end(lexer);
      int quotes = 0;
      while (lexer->lookahead == '"' && quotes < 3) {
        advance(lexer);
        quotes++;
      }
      if (quotes == 3) {
        if (!has_content) {
          return false;
        }
        lexer->result_symbol = MULTILINE_STRING_CONTENT;
        return true;
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
  lexer->mark_end(lexer);
  lexer->result_symbol = MULTILINE_STRING_CONTENT;
  return true;
}

// scan_block_comment lexes a nesting block comment; the lexer is at `/`.
// An unclosed comment still becomes a comment that runs to the end of the
// file, so that the parser can report it instead of a cascade of errors.
static bool scan_block_comment(TSLexer *lexer) {
  advance(lexer);
  if (lexer->lookahead != '*') {
    return false;
  }
  advance(lexer);
  unsigned depth = 1;
  while (depth > 0) {
    if (lexer->eof(lexer)) {
      break;
    }
    int32_t c = lexer->lookahead;
    advance(lexer);
    if (c == '/' && lexer->lookahead == '*') {
      advance(lexer);
      depth++;
    } else if (c == '*' && lexer->lookahead == '/') {
      advance(lexer);
      depth--;
    }
  }
  lexer->mark_end(lexer);
  lexer->result_symbol = BLOCK_COMMENT;
  return true;
}

// scan_raw_string lexes r"..." or r#"..."#; the lexer is at `r`. The body
// may not span lines.
static bool scan_raw_string(TSLexer *lexer) {
  advance(lexer);
  unsigned hashes = 0;
  while (lexer->lookahead == '#') {
    advance(lexer);
    hashes++;
  }
  if (lexer->lookahead != '"') {
    return false;
  }
  advance(lexer);
  for (;;) {
    if (lexer->eof(lexer) || is_newline(lexer->lookahead)) {
      return false;
    }
    if (lexer->lookahead == '"') {
      advance(lexer);
      unsigned closing = 0;
      while (closing < hashes && lexer->lookahead == '#') {
        advance(lexer);
        closing++;
      }
      if (closing == hashes) {
        lexer->mark_end(lexer);
        lexer->result_symbol = RAW_STRING;
        return true;
      }
      continue;
    }
    advance(lexer);
  }
}

// continues_expression reports whether the line starting at the lexer's
// position continues the previous one. It may consume characters; the caller
// has already marked the end of the newline token.
static bool continues_expression(TSLexer *lexer) {
  int32_t c = lexer->lookahead;
  // Comments between the lines of a chain are skipped: the line after them
  // decides. (The parser's lexer then reads them as extras; a block comment
  // there goes through the grammar's internal block_comment twin, since this
  // scanner has declined the token.)
  while (c == '/') {
    advance(lexer);
    if (lexer->lookahead == '/') {
      while (!lexer->eof(lexer) && !is_newline(lexer->lookahead)) {
        advance(lexer);
      }
    } else if (lexer->lookahead == '*') {
      advance(lexer);
      unsigned depth = 1;
      while (depth > 0 && !lexer->eof(lexer)) {
        int32_t d = lexer->lookahead;
        advance(lexer);
        if (d == '/' && lexer->lookahead == '*') {
          advance(lexer);
          depth++;
        } else if (d == '*' && lexer->lookahead == '/') {
          advance(lexer);
          depth--;
        }
      }
    } else {
      return true; // a `/` starting a line continues a division
    }
    while (is_newline(lexer->lookahead) || is_horizontal_space(lexer->lookahead)) {
      advance(lexer);
    }
    if (lexer->eof(lexer)) {
      return false;
    }
    c = lexer->lookahead;
  }
  switch (c) {
    case '.': // member access, `...` cannot start a statement
    case '?': // `?.`, `??`, ternary `?`
    case '|': // `|>`, `||`, or-patterns
    case '&': // `&&`
    case '+':
    case '*': // `*` and `**`
    case '%':
    case '<':
    case '>':
    case ':': // the `:` of a ternary
      return true;
    case '=':
      advance(lexer);
      return lexer->lookahead == '=';
    case '!':
      advance(lexer);
      return lexer->lookahead == '=';
    case '-':
      // `-` may be a unary minus; only `->` (a match arm on its own line)
      // continues.
      advance(lexer);
      return lexer->lookahead == '>';
    default:
      break;
  }
  if (c == 'e' || c == 'c' || c == 'f') {
    // `else`, `catch` and `finally` belong to the construct before them.
    char word[8];
    unsigned length = 0;
    while (is_identifier_char(lexer->lookahead)) {
      if (length == sizeof word - 1) {
        return false;
      }
      word[length++] = (char)lexer->lookahead;
      advance(lexer);
    }
    word[length] = '\0';
    return strcmp(word, "else") == 0 || strcmp(word, "catch") == 0 || strcmp(word, "finally") == 0;
  }
  return false;
}

// scan_newline is called with the lexer at a newline.
static bool scan_newline(TSLexer *lexer) {
  while (is_newline(lexer->lookahead) || is_horizontal_space(lexer->lookahead)) {
    bool newline = is_newline(lexer->lookahead);
    advance(lexer);
    if (newline) {
      lexer->mark_end(lexer);
    }
  }
  if (lexer->eof(lexer)) {
    lexer->result_symbol = NEWLINE;
    return true;
  }
  if (continues_expression(lexer)) {
    return false;
  }
  lexer->result_symbol = NEWLINE;
  return true;
}

void *tree_sitter_harn_external_scanner_create(void) { return NULL; }

void tree_sitter_harn_external_scanner_destroy(void *payload) { (void)payload; }

unsigned tree_sitter_harn_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}

void tree_sitter_harn_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

bool tree_sitter_harn_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols) {
  (void)payload;
  // In error recovery every symbol is valid; string content would then
  // swallow arbitrary text, so it is only lexed when the parser asks for it.
  bool recovering = valid_symbols[ERROR_SENTINEL];

  if (!recovering) {
    if (valid_symbols[STRING_CONTENT]) {
      return scan_string_content(lexer);
    }
    if (valid_symbols[MULTILINE_STRING_CONTENT]) {
      return scan_multiline_string_content(lexer);
    }
  }

  // Newlines where no separator is valid are whitespace; skipping them here
  // lets a block comment or raw string on the next line reach this scanner.
  for (;;) {
    while (is_horizontal_space(lexer->lookahead)) {
      skip(lexer);
    }
    if (!is_newline(lexer->lookahead)) {
      break;
    }
    if (valid_symbols[NEWLINE]) {
      return scan_newline(lexer);
    }
    skip(lexer);
  }

  if (lexer->lookahead == '/' && valid_symbols[BLOCK_COMMENT]) {
    return scan_block_comment(lexer);
  }

  if (lexer->lookahead == 'r' && valid_symbols[RAW_STRING]) {
    return scan_raw_string(lexer);
  }

  return false;
}
