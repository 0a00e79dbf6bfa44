/**
 * @file Leia grammar for tree-sitter
 * @license MIT
 *
 * Leia is a Lua-like scripting language with Go-style `:=` declarations and
 * tagged dialect forms (`tool {...}`, `agent {...}`, prompt`...`). The
 * language is described in docs/spec/index.md of never-labs/leia; section
 * names below refer to that document and to our digest in
 * shared/reference/leia-language.md.
 *
 * Newlines are ordinary whitespace: statements and table fields need no
 * separator. Where two readings of juxtaposed tokens compete (`a\n(b)`,
 * `a\n-b`), the longer expression wins, exactly as Leia's own parser does.
 *
 * The external scanner (src/scanner.c) decides what one-token lookahead
 * cannot: whether a `:` starts a method call (`obj:m(`) or ends a key or
 * label, where a tagged template starts (no space between tag and body), and
 * the contents of strings, templates and fenced raw blocks.
 */

/* eslint-disable arrow-parens */
/* eslint-disable camelcase */
/* eslint-disable-next-line spaced-comment */
/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// Operator precedence, weakest first (spec "Operator precedence"; the
// grammar appendix puts `**` above unary and takes a unary right operand).
const PREC = {
  or: 1,
  and: 2,
  compare: 3,
  concat: 4,
  additive: 5,
  multiplicative: 6,
  unary: 7,
  power: 8,
  postfix: 9,
  // A statement keyword followed by its operand keeps the operand
  // (`return x`, `ch <- v`) rather than ending the statement.
  statement: 10,
};

// Leia reserves func return if else elseif for range break continue in var go
// chan defer const goto true false nil (spec "Keywords"). They are keywords
// here wherever they start a form; the grammar declares no `reserved` set
// because ABI 14 parsers cannot carry one, so a reserved word in a position
// no keyword fits (`t.range`) reads as a name and the checker rejects it.

// Contextual words (agent, tool, evaluate, flow, select, quote, import) are
// plain names except in front of their forms (spec "Keywords": `agent :=
// "x"` is legal). They are no keyword tokens: the scanner reports each one
// only where its form follows, with the lookahead Leia's parser uses
// (`tool name(`, `agent name {`, `select {`, ...). Keyword tokens that can
// also be names made the tree-sitter runtime's error recovery loop forever
// on unterminated nested blocks (`func f() { select { default:`).

// Element types of dense typed arrays (`[]i64{1, 2}`).
const DENSE_TYPES = ['i32', 'i64', 'f32', 'f64', 'bool'];

const decimal = /[0-9](_?[0-9])*/;

/**
 * One or more `rule`, separated by commas.
 * @param {RuleOrLiteral} rule
 * @returns {SeqRule}
 */
function commaSep1(rule) {
  return seq(rule, repeat(seq(',', rule)));
}

/**
 * Zero or more `rule`, separated by commas, with an optional trailing comma.
 * @param {RuleOrLiteral} rule
 * @returns {ChoiceRule}
 */
function commaSepTrailing(rule) {
  return optional(seq(commaSep1(rule), optional(',')));
}

/**
 * Zero or more `rule`, each optionally followed by `,` or `;` (table and list
 * entries: the separators are optional in practice).
 * @param {RuleOrLiteral} rule
 * @returns {RepeatRule}
 */
function looseList(rule) {
  return repeat(seq(rule, optional(choice(',', ';'))));
}

module.exports = grammar({
  name: 'leia',

  externals: $ => [
    // `:` that begins a method call: followed on the same line by a name and
    // `(` (spec "Method calls"; `ident:` is otherwise a label or a key).
    $._method_colon,
    // `:` after a table key; offered only where a key can end.
    $._pair_colon,
    // `:` ending a select case (`case <-ch: f()` is not a method call).
    $._case_colon,
    // Body of a double-quoted string between escapes and `${`.
    $._string_content,
    // Opening delimiter of a tagged template, only directly after the tag
    // (`tag\`...\``, `tag!\`...\``, `tag\`\`\`...\`\`\``).
    $._template_start,
    $._fenced_template_start,
    // Template bodies up to the closing delimiter or `${`.
    $._template_content,
    $._fenced_template_content,
    // Zero-width, right after `for` when a `{` follows: the loop has no
    // header, so the `{` opens its body, never a table in a header.
    $._infinite_loop,
    // The words `tool` and `evaluate`, each only where its form follows:
    // `tool name (`, `evaluate` and a string; and `flow {` (both tokens).
    $._tool_keyword,
    $._evaluate_keyword,
    $._flow_keyword,
    // `select {` at statement start; `quote {` / `quote! {`; `import`
    // followed by a path, an alias and a path, or `(`.
    $._select_keyword,
    $._quote_keyword,
    $._import_keyword,
    // `agent` before a declaration (`agent name(`, `agent name {`, `agent
    // defaults {`), and before a literal (`agent(` or `agent {`).
    $._agent_declaration_keyword,
    $._agent_keyword,
    // An untagged fenced raw block: ```...```, no escapes, no interpolation.
    $.fenced_string,
    // Zero-width, at the end of the input, ending the top-level statement
    // list. Only the top level expects it, so the minimised table cannot
    // merge a nested state with its top-level twin (an external lookahead
    // keeps states apart): no state inside an open block then reduces on
    // end-of-input, which is what let the runtime's recovery at the end of
    // the file loop forever (tree-sitter/tree-sitter#1617).
    $._end_of_file,
    // `quote` before a field block (`quote { body: ... }`): the scanner
    // looks past the brace, and a first entry written `key:` or `"key":`
    // makes the body table fields rather than statements.
    $._quote_fields_keyword,
    // The q dialect's raw source block (spec "Tagged Dialects"): `q` before
    // `{` or `! {`, the opening brace, the raw q text (balanced braces,
    // q strings and comments skipped, `${` ends it for an interpolation)
    // and the closing brace. The scanner keeps the brace depth of each open
    // block as its state.
    $._q_open,
    $._q_lbrace,
    $._q_content,
    $._q_close,
    // A number immediately followed by letters, digits, `_` or `.` in a
    // way no literal rule accepts (`1name`, `1__2`, `1e_2`, `0xfg`): one
    // token, so the mistake is one lexical error rather than a number
    // followed by a name (spec "Numbers": `_` only between digits). The
    // scanner reads the whole run and leaves valid literals to the lexer.
    $.malformed_number,
    // Zero-width, between two top-level statements (before the comments
    // above the second) when the second starts with a word that cannot
    // continue the first; hidden, so the tree is the same without it. The
    // second statement's first token is then read in the state after the
    // break, the state it is read in again when an edit elsewhere is
    // reparsed, so tree-sitter reuses the statement whole. Without it,
    // that token was read as the lookahead ending the previous statement,
    // with other valid tokens, and every top-level statement after an
    // edit was rebuilt.
    $._statement_break,
    // The `{` opening the body of an if, elseif or for statement: after a
    // header that may end in a name, a `{` there opens the body and never
    // a tagged block's table (`if ready {`).
    $._body_open,
    // Never produced: valid only where a return statement can end, so the
    // scanner reports no _statement_break there: at the top level a word
    // after `return` is its operand (`return\nx`).
    $._return_end,
    // Never produced: present only so the scanner can recognise error
    // recovery (every symbol valid).
    $._error_sentinel,
  ],

  extras: $ => [
    /\s/,
    $.comment,
    $.directive,
  ],

  supertypes: $ => [
    $._statement,
    $._expression,
  ],

  // No `word` token. Tree-sitter reuses a word token (the identifier) only
  // in the very parse state it was shifted in; after an edit elsewhere a
  // top-level statement is reparsed one step of reductions earlier, so
  // every statement starting with a name was rebuilt from its parts.
  // Without it keywords are ordinary tokens of the lexer, read where the
  // grammar has them (`t.range` is a name). `identifier` is the first
  // rule after source_file so that its symbol comes before every other
  // operand's: error recovery inserts the lowest-numbered missing token
  // that fits (`total := a +` is missing a name).

  conflicts: $ => [
    // `{[k]: v}` against `{[k]}` (a one-element list as a positional entry):
    // only the `:` after `]` tells them apart.
    [$.list, $.computed_pair],
  ],

  rules: {
    source_file: $ => seq(
      optional($.shebang),
      repeat(choice(seq($._statement, optional($._statement_break)), ';')),
      optional($._end_of_file),
    ),

    identifier: _ => /[A-Za-z_][A-Za-z0-9_]*/,

    // `#!/usr/bin/env leia` on the first line is a comment (spec "Source
    // text"), so a script can be executable.
    shebang: _ => token(seq('#!', /[^\r\n]*/)),

    // ----------------------------------------------------------------------
    // Statements (spec "Statements")

    _statement: $ => choice(
      $.expression_statement,
      $.short_var_declaration,
      $.assignment_statement,
      $.compound_assignment,
      $.inc_statement,
      $.dec_statement,
      $.send_statement,
      $.const_declaration,
      $.function_declaration,
      $.if_statement,
      $.for_statement,
      $.select_statement,
      $.return_statement,
      $.break_statement,
      $.continue_statement,
      $.goto_statement,
      $.label_statement,
      $.go_statement,
      $.defer_statement,
      $.import_declaration,
      $.evaluate_statement,
      // Legacy declaration forms (GScript and early Leia).
      $.tool_declaration,
      $.agent_declaration,
      $.agent_defaults,
      $.budget_statement,
    ),

    block: $ => seq('{', repeat(choice($._statement, ';')), '}'),

    // The body of an if, elseif or for statement, a block in the tree.
    _header_block: $ => seq(alias($._body_open, '{'), repeat(choice($._statement, ';')), '}'),

    expression_statement: $ => $._expression,

    expression_list: $ => commaSep1($._expression),

    short_var_declaration: $ => seq(
      field('left', $.expression_list),
      ':=',
      field('right', $.expression_list),
    ),

    assignment_statement: $ => seq(
      field('left', $.expression_list),
      '=',
      field('right', $.expression_list),
    ),

    compound_assignment: $ => seq(
      field('left', $._expression),
      field('operator', choice('+=', '-=', '*=', '/=')),
      field('right', $._expression),
    ),

    inc_statement: $ => seq(field('operand', $._expression), '++'),

    dec_statement: $ => seq(field('operand', $._expression), '--'),

    send_statement: $ => prec(PREC.statement, seq(
      field('channel', $._expression),
      '<-',
      field('value', $._expression),
    )),

    const_declaration: $ => seq(
      'const',
      commaSep1(field('name', $.identifier)),
      choice(':=', '='),
      field('value', $.expression_list),
    ),

    function_declaration: $ => seq(
      'func',
      field('name', $.identifier),
      field('parameters', $.parameters),
      field('body', $.block),
    ),

    if_statement: $ => seq(
      'if',
      field('condition', $._expression),
      field('consequence', alias($._header_block, $.block)),
      repeat(field('alternative', $.elseif_clause)),
      optional(field('alternative', $.else_clause)),
    ),

    // `elseif` (the grammar appendix) and `else if` (newer examples).
    elseif_clause: $ => seq(
      choice('elseif', seq('else', 'if')),
      field('condition', $._expression),
      field('consequence', alias($._header_block, $.block)),
    ),

    else_clause: $ => seq('else', field('body', $.block)),

    for_statement: $ => seq(
      'for',
      choice(
        $._infinite_loop,
        field('condition', $._expression),
        field('clause', $.for_clause),
        field('clause', $.range_clause),
      ),
      field('body', alias($._header_block, $.block)),
    ),

    // Left associativity: in `for ;; {` the `{` is the body, not a table
    // expression statement as the update.
    for_clause: $ => prec.left(seq(
      optional(field('initializer', $._simple_statement)),
      ';',
      optional(field('condition', $._expression)),
      ';',
      optional(field('update', $._simple_statement)),
    )),

    _simple_statement: $ => choice(
      $.expression_statement,
      $.short_var_declaration,
      $.assignment_statement,
      $.compound_assignment,
      $.inc_statement,
      $.dec_statement,
      $.send_statement,
    ),

    range_clause: $ => seq(
      field('left', $.expression_list),
      ':=',
      'range',
      field('right', $._expression),
    ),

    select_statement: $ => seq(
      alias($._select_keyword, 'select'),
      '{',
      repeat(choice($.communication_case, $.default_case)),
      '}',
    ),

    communication_case: $ => seq(
      'case',
      field('communication', choice(
        $.send_statement,
        $.receive_statement,
        $._expression,
      )),
      alias($._case_colon, ':'),
      repeat(choice($._statement, ';')),
    ),

    receive_statement: $ => seq(
      field('left', $.expression_list),
      choice(':=', '='),
      field('right', $._expression),
    ),

    default_case: $ => seq(
      'default',
      ':',
      repeat(choice($._statement, ';')),
    ),

    return_statement: $ => prec.right(PREC.statement, seq(
      'return',
      optional(field('values', $.expression_list)),
      optional($._return_end),
    )),

    break_statement: _ => 'break',

    continue_statement: _ => 'continue',

    goto_statement: $ => seq('goto', field('label', $.identifier)),

    label_statement: $ => seq(field('name', $._name), ':'),

    go_statement: $ => seq('go', field('call', $._expression)),

    defer_statement: $ => seq('defer', field('call', $._expression)),

    // `import "json"`, `import p "path"`, `import ( "a"  b "c" )`,
    // legacy `import "go:net/http" as http`.
    import_declaration: $ => prec(PREC.statement, seq(
      alias($._import_keyword, 'import'),
      choice(
        $.import_spec,
        seq('(', repeat(choice($.import_spec, ';')), ')'),
      ),
    )),

    import_spec: $ => prec.right(choice(
      seq(
        optional(field('alias', $.identifier)),
        field('path', $._string_literal),
      ),
      seq(
        field('path', $._string_literal),
        'as',
        field('alias', $.identifier),
      ),
    )),

    // `evaluate "name" { ... }` (ai-dialect "Evaluate Blocks").
    evaluate_statement: $ => seq(
      alias($._evaluate_keyword, 'evaluate'),
      field('name', $._string_literal),
      field('body', $.block),
    ),

    // Legacy `tool name(params) { ... }`; its `//leia:requires` and
    // `//leia:param` directives are the directive comments just above it.
    tool_declaration: $ => seq(
      alias($._tool_keyword, 'tool'),
      field('name', $.identifier),
      field('parameters', $.parameters),
      field('body', $.block),
    ),

    // Legacy `agent name(params) { config } flow { ... }`.
    agent_declaration: $ => prec(PREC.statement, seq(
      alias($._agent_declaration_keyword, 'agent'),
      field('name', $.identifier),
      optional(field('parameters', $.parameters)),
      field('config', $.table),
      optional(field('flow', alias($._flow_block, $.block))),
    )),

    // `flow { statements }` after a legacy agent's configuration. The
    // scanner reads `flow {` as one token (a separate `{` after a `flow`
    // keyword made the runtime's error recovery loop on an unterminated
    // flow inside another block); the node is a block like any other.
    _flow_block: $ => seq(
      alias($._flow_keyword, 'flow'),
      repeat(choice($._statement, ';')),
      '}',
    ),

    // Legacy `agent defaults { ... }`.
    agent_defaults: $ => seq(
      alias($._agent_declaration_keyword, 'agent'),
      'defaults',
      field('config', $.table),
    ),

    // Legacy `budget { limits } { statements }`: a tagged block whose tag
    // should be `budget`, followed by a statement block.
    budget_statement: $ => prec(PREC.statement, seq(
      field('limits', $.tagged_block),
      field('body', $.block),
    )),

    // ----------------------------------------------------------------------
    // Expressions (spec "Expressions", grammar appendix)

    _expression: $ => choice(
      $.unary_expression,
      $.binary_expression,
      $._primary_expression,
    ),

    _primary_expression: $ => choice(
      $._name,
      $.integer,
      $.float,
      $.duration,
      $.malformed_number,
      $.true,
      $.false,
      $.nil,
      $.vararg_expression,
      $.chan,
      $._string_literal,
      $.parenthesized_expression,
      $.function_literal,
      $.call_expression,
      $.method_call_expression,
      $.index_expression,
      $.field_expression,
      $.table,
      $.list,
      $.dense_array,
      $.tagged_block,
      $.tagged_string,
      $.quote_block,
      $.q_block,
      $.agent_expression,
    ),

    // A name (kept as a rule of its own so that tags, keys and labels
    // read alike).
    _name: $ => $.identifier,

    _string_literal: $ => choice(
      $.string,
      $.single_string,
      $.raw_string,
      $.fenced_string,
    ),

    parenthesized_expression: $ => seq('(', field('expression', $._expression), ')'),

    vararg_expression: _ => '...',

    // `chan` as the argument of make(chan) / make(chan, n).
    chan: _ => 'chan',

    unary_expression: $ => prec(PREC.unary, seq(
      field('operator', choice('!', '-', '#', '^', '<-')),
      field('operand', $._expression),
    )),

    binary_expression: $ => {
      /** @type {[number, RuleOrLiteral, boolean][]} */
      const table = [
        [PREC.or, '||', false],
        [PREC.and, '&&', false],
        [PREC.compare, choice('==', '!=', '<', '<=', '>', '>='), false],
        [PREC.concat, '..', true],
        [PREC.additive, choice('+', '-', '|', '^'), false],
        [PREC.multiplicative, choice('*', '/', '%', '<<', '>>', '&', '&^'), false],
        [PREC.power, '**', true],
      ];
      return choice(...table.map(([p, op, right]) => (right ? prec.right : prec.left)(p, seq(
        field('left', $._expression),
        field('operator', op),
        field('right', $._expression),
      ))));
    },

    call_expression: $ => prec(PREC.postfix, seq(
      field('function', $._primary_expression),
      field('arguments', $.arguments),
    )),

    method_call_expression: $ => prec(PREC.postfix, seq(
      field('receiver', $._primary_expression),
      alias($._method_colon, ':'),
      field('method', $.identifier),
      field('arguments', $.arguments),
    )),

    arguments: $ => seq('(', commaSepTrailing($._expression), ')'),

    index_expression: $ => prec(PREC.postfix, seq(
      field('object', $._primary_expression),
      '[',
      field('index', $._expression),
      ']',
    )),

    field_expression: $ => prec(PREC.postfix, seq(
      field('object', $._primary_expression),
      '.',
      field('field', $.identifier),
    )),

    function_literal: $ => seq(
      'func',
      field('parameters', $.parameters),
      field('body', $.block),
    ),

    parameters: $ => seq(
      '(',
      commaSepTrailing(choice($.identifier, $.variadic_parameter)),
      ')',
    ),

    // `...` or `name...` (last parameter only; the checker says so).
    variadic_parameter: $ => seq(optional(field('name', $.identifier)), '...'),

    // `{k: v, [e]: v, "k": v, positional}`; separators optional.
    table: $ => seq('{', looseList(choice($.pair, $.computed_pair, $._expression)), '}'),

    pair: $ => seq(
      field('key', choice($._name, $.string, $.single_string)),
      alias($._pair_colon, ':'),
      field('value', $._expression),
    ),

    computed_pair: $ => seq(
      '[',
      field('key', $._expression),
      ']',
      alias($._pair_colon, ':'),
      field('value', $._expression),
    ),

    list: $ => seq('[', looseList(field('element', $._expression)), ']'),

    // `[]i64{1, 2}`, `[3]f64{...}`: the size is written like a list.
    dense_array: $ => seq(
      field('size', $.list),
      field('type', choice(...DENSE_TYPES)),
      field('body', $.table),
    ),

    // ----------------------------------------------------------------------
    // Tagged dialects (spec "Tagged Dialects")

    // `tag { fields }`, `tag! { fields }`: model, tool, turn, prompt, and the
    // legacy models and messages blocks are all of this shape.
    // `name {` is a tagged block in statements and values: a table after a
    // name would also start a new statement or table entry, which reads the
    // same text with the same continuations, so the tagged block wins
    // statically (no GLR split, whose nodes incremental parsing cannot
    // reuse). After an if/elseif/for header the `{` opens the body (as
    // composite literals in Go): there it is another token, _body_open.
    tagged_block: $ => prec(1, seq(
      field('tag', $._name),
      optional(field('bang', token.immediate('!'))),
      field('body', $.table),
    )),

    // `tag\`raw ${x}\``, `tag!\`...\``, `tag\`\`\`...\`\`\``, `$\`echo ${x}\``.
    tagged_string: $ => seq(
      field('tag', choice($._name, '$')),
      optional(field('bang', token.immediate('!'))),
      field('body', choice($.template, $.fenced_template)),
    ),

    // `quote { statements }`: the one tag whose block holds statements;
    // `quote { body: {...} }`, whose first entry is a `key:`, holds table
    // fields instead (the scanner decides, see _quote_fields_keyword).
    quote_block: $ => choice(
      seq(
        alias($._quote_keyword, 'quote'),
        optional(field('bang', token.immediate('!'))),
        field('body', $.block),
      ),
      seq(
        alias($._quote_fields_keyword, 'quote'),
        optional(field('bang', token.immediate('!'))),
        field('body', $.table),
      ),
    ),

    // `q { raw q source }` / `q! { ... }`: the q dialect's raw brace block.
    // The body is q text, not Leia fields; `${expr}` interpolates.
    q_block: $ => seq(
      alias($._q_open, 'q'),
      optional(field('bang', token.immediate('!'))),
      alias($._q_lbrace, '{'),
      repeat(choice(alias($._q_content, $.q_content), $.interpolation)),
      alias($._q_close, '}'),
    ),

    // `agent { fields }` (current), and the legacy literal forms
    // `agent(params) { config } [flow { ... }]`, `agent { config } flow { ... }`.
    agent_expression: $ => seq(
      alias($._agent_keyword, 'agent'),
      optional(field('parameters', $.parameters)),
      field('config', $.table),
      optional(field('flow', alias($._flow_block, $.block))),
    ),

    template: $ => seq(
      alias($._template_start, '`'),
      repeat(choice(alias($._template_content, $.template_content), $.interpolation)),
      token.immediate('`'),
    ),

    fenced_template: $ => seq(
      alias($._fenced_template_start, '```'),
      repeat(choice(alias($._fenced_template_content, $.template_content), $.interpolation)),
      token.immediate('```'),
    ),

    // ----------------------------------------------------------------------
    // Literals (spec "Lexical elements")

    integer: _ => token(choice(
      /0[xX][0-9a-fA-F](_?[0-9a-fA-F])*/,
      /0[bB][01](_?[01])*/,
      /0[oO][0-7](_?[0-7])*/,
      decimal,
    )),

    float: _ => token(choice(
      seq(decimal, '.', decimal, optional(seq(/[eE][+-]?/, decimal))),
      seq(decimal, /[eE][+-]?/, decimal),
    )),

    // Legacy duration literals (`time: 30s`); newer code writes seconds or
    // the duration`250ms` dialect.
    duration: _ => token(seq(
      decimal,
      optional(seq('.', decimal)),
      choice('ns', 'us', 'ms', 's', 'm', 'h'),
    )),

    true: _ => 'true',
    false: _ => 'false',
    nil: _ => 'nil',

    // "..." with escapes and ${expr} interpolation.
    string: $ => seq(
      '"',
      repeat(choice(
        alias($._string_content, $.string_content),
        $.escape_sequence,
        $.interpolation,
      )),
      token.immediate('"'),
    ),

    // '...' with escapes, no interpolation.
    single_string: $ => seq(
      '\'',
      repeat(choice(
        alias(token.immediate(prec(1, /[^'\\\n]+/)), $.string_content),
        $.escape_sequence,
      )),
      token.immediate('\''),
    ),

    // `...`: raw, no escapes, no interpolation (untagged).
    raw_string: _ => token(seq('`', /[^`]*/, '`')),

    escape_sequence: _ => token.immediate(seq(
      '\\',
      choice(
        /x[0-9a-fA-F]{2}/,
        /u[0-9a-fA-F]{4}/,
        /U[0-9a-fA-F]{8}/,
        /[0-9]{1,3}/,
        // Known escapes (\\ \" \' \a \b \f \n \r \t \v) and, as Leia's lexer
        // does, any other character kept as written.
        /[^xuU0-9\n]/,
      ),
    )),

    interpolation: $ => seq(
      token.immediate('${'),
      field('expression', $._expression),
      '}',
    ),

    // `// text` and `/* text */` (block comments do not nest).
    comment: _ => token(choice(
      seq('//', /[^\r\n]*/),
      seq('/*', /[^*]*\*+([^/*][^*]*\*+)*/, '/'),
    )),

    // `//leia:kind args` (and the older `//gscript:` spelling): file
    // directives and the declaration-local directives of legacy tools.
    directive: _ => token(prec(1, seq(
      choice('//leia:', '//gscript:'),
      /[^\r\n]*/,
    ))),
  },
});
