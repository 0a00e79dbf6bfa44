/**
 * @file Tree-sitter grammar for Harn (.harn), the typed scripting language for
 *       AI workflows.
 *
 * The language is described in the project's Harn language reference
 * (harn-language.md; sections cited as §N below) and the decision-evaluation
 * contract (harn-evaluation-contract.md). The grammar carries no
 * semantics: which names are types, which patterns are legal where, and which
 * call is an evaluation site are the checker's business.
 *
 * Newlines are statement separators, produced by the external scanner
 * (src/scanner.c) only where a statement may end and only when the next line
 * does not continue the expression (§1 "Line continuation"). Everywhere else a
 * newline is ordinary whitespace, so lists, argument lists and dict literals
 * may span lines freely. A line starting with `else`, `catch` or `finally`
 * also continues, and line comments between continued lines are skipped.
 *
 * Choices where the reference leaves room:
 * - `throws` follows the return type and precedes `where`
 *   (`fn f(x) -> R throws E1 | E2 where T: I {`), on declarations, interface
 *   methods, tools and `fn` literals; its type is any type, so a union lists
 *   several error types. This is the order upstream's tree-sitter grammar uses.
 * - The approval primitives `request_approval`, `dual_control`, `ask_user` and
 *   `escalate_to` are reserved words that start a call-like
 *   `approval_expression` whose arguments may be positional or named
 *   (`request_approval("deploy", reviewers: ["a"], quorum: 2)`), as upstream's
 *   runtime parser dispatches them. They stay usable as property names and
 *   bare dict keys.
 * - A plain lexical block is written `block { ... }` (upstream's spelling);
 *   `block {` is one token, so `block` stays an ordinary name elsewhere. A
 *   bare `{` at statement start is a dict or closure expression, as before,
 *   and a struct literal of a type named `block` cannot start a statement.
 * - Explicit type arguments follow a name or a member access
 *   (`map<int>(xs)`, `obj.m<int>()`); the call reading wins over a comparison
 *   only when `>(` completes it.
 * - A line or block comment between continued lines does not end the
 *   statement; a block comment there that itself nests is lexed without
 *   nesting (the scanner's fallback), which only matters for a nested comment
 *   placed between the lines of one expression.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// Operator precedence, lowest first (§5 "Expressions and precedence"). The
// newer grammar puts `**` above unary minus (`-2 ** 2` is `-(2 ** 2)`).
const PREC = {
  assign: -1,
  pipe: 1,
  range: 2,
  ternary: 3,
  or: 4,
  and: 5,
  equality: 6,
  compare: 7,
  additive: 8,
  coalesce: 9,
  multiplicative: 10,
  unary: 11,
  power: 12,
  postfix: 13,
};

// Type operators, lowest first (§7): `T?` binds tighter than `&`, which
// binds tighter than `|`; a function type's return type extends as far right
// as possible.
const TYPE_PREC = {
  function: 0,
  union: 1,
  intersection: 2,
  optional: 3,
};

// Keywords of §1 (snapshot list plus the newer `const`, `throws`, `skill`).
// With `word` set, each is a keyword only where the grammar allows it, so the
// contextual ones (`each`, `settle`, `with`, `where`, `timeout`, `default`,
// `not`, `description`, `summarize`, `exclusive`, `in`/`out` variance) remain
// usable as names elsewhere, and keywords remain usable as property names and
// bare dict keys.
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/;

// Duration units (§1 "Durations"): the spec's six.
const DURATION = /[0-9]+(ms|s|m|h|d|w)/;

const ASSIGNMENT_OPERATORS = ['=', '+=', '-=', '*=', '/=', '%='];

module.exports = grammar({
  name: 'harn',

  word: $ => $.identifier,

  extras: $ => [
    /[ \t\r\n\f]/,
    /\\(\r\n?|\n)/, // `\` at the end of a line joins it with the next (§1); a lone CR ends a line too
    $.line_comment,
    $.block_comment,
  ],

  externals: $ => [
    $._newline, // a statement-separating newline (possibly several lines)
    $.block_comment, // `/* ... */`, nesting
    $.string_content, // literal text inside "..."
    $.multiline_string_content, // literal text inside """..."""
    $.raw_string, // r"..." and r#"..."#
    $._error_sentinel, // never in a rule: tells the scanner it is in error recovery
  ],

  supertypes: $ => [
    $._statement,
    $._declaration,
    $._expression,
    $._type,
    $._pattern,
  ],

  conflicts: $ => [
    // `if x {`: `x` may start a struct literal `x { f: v }` or be the whole
    // condition followed by the block. The struct reading dies at the first
    // entry that is not `name: value`.
    [$._expression, $.struct_expression],

    // `f < T` may be a comparison or the start of explicit type arguments
    // `f<T>(args)`; the call reading wins (dynamic precedence) when both
    // survive to `>(`.
    [$._expression, $.call_expression],
    [$._expression, $.call_expression, $.generic_type],

    // `{ x: T, ... }` may be a dict literal or a closure with typed
    // parameters until `->` or `}` decides, so every type that looks like an
    // expression (names, literals, shapes, function types) stays ambiguous
    // until then.
    [$._expression, $._type],
    [$._expression, $.literal_type],
    [$.negative_literal, $._expression],
    [$.dict, $.shape_type],
    [$._string_literal, $.shape_field],
    [$.closure_parameter, $.shape_field],
    // `{ y = 10` is an assignment in a block or a closure parameter's
    // default until `->` decides.
    [$._expression, $.closure_parameter],
    [$.parameters, $.function_type],
    [$.parameter, $._type],
  ],

  rules: {
    source_file: $ => seq(
      optional($.shebang),
      statementList($, $._top_level_item),
    ),

    shebang: _ => token(seq('#!', /[^\r\n]*/)),

    _top_level_item: $ => choice(
      $.import_declaration,
      $._statement,
    ),

    // ---------------------------------------------------------------------
    // Comments (§1). Line comments are lexed here; block comments nest, so
    // the external scanner lexes them.

    line_comment: _ => token(seq('//', /[^\r\n]*/)), // CR, LF and CRLF end lines

    // The internal twin of the external block comment. The scanner lexes
    // every block comment it is asked for (nesting included); this fallback
    // only runs where the scanner declines a newline because the next line
    // continues the expression and a block comment comes first.
    block_comment: _ => token(seq('/*', /[^*]*\*+([^/*][^*]*\*+)*/, '/')),

    // ---------------------------------------------------------------------
    // Imports (§2)

    import_declaration: $ => seq(
      optional(field('visibility', $.visibility)),
      'import',
      choice(
        field('source', $._string_literal),
        seq(field('names', $.import_list), 'from', field('source', $._string_literal)),
        field('path', $.import_path),
      ),
    ),

    import_list: $ => seq('{', commaSepTrailing(field('name', $.identifier)), '}'),

    // The newer path form `pkg::sub` or `pkg::sub::{x, y}`; right-recursive
    // so that `::` need not decide between a segment and the name list.
    import_path: $ => seq($.identifier, $._import_path_tail),

    _import_path_tail: $ => seq('::', choice(
      field('names', $.import_list),
      seq($.identifier, optional($._import_path_tail)),
    )),

    visibility: _ => 'pub',

    // ---------------------------------------------------------------------
    // Declarations (§3)

    _declaration: $ => choice(
      $.attributed_declaration,
      $.pipeline_declaration,
      $.override_declaration,
      $.function_declaration,
      $.type_alias_declaration,
      $.struct_declaration,
      $.enum_declaration,
      $.interface_declaration,
      $.impl_declaration,
      $.tool_declaration,
      $.skill_declaration,
      $.eval_pack_declaration,
    ),

    attributed_declaration: $ => seq(
      repeat1(field('attribute', $.attribute)),
      field('declaration', choice(
        $.pipeline_declaration,
        $.function_declaration,
        $.type_alias_declaration,
        $.struct_declaration,
        $.enum_declaration,
        $.interface_declaration,
        $.impl_declaration,
        $.tool_declaration,
        $.skill_declaration,
        $.eval_pack_declaration,
      )),
    ),

    attribute: $ => seq(
      '@',
      field('name', $.identifier),
      optional(field('arguments', $.attribute_arguments)),
    ),

    attribute_arguments: $ => seq('(', commaSepTrailing($.attribute_argument), ')'),

    attribute_argument: $ => seq(
      optional(seq(field('name', $.identifier), ':')),
      field('value', $._expression),
    ),

    pipeline_declaration: $ => seq(
      optional(field('visibility', $.visibility)),
      'pipeline',
      field('name', $.identifier),
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $._type))),
      optional(seq('extends', field('parent', $.identifier))),
      field('body', $.block),
    ),

    override_declaration: $ => seq(
      'override',
      field('name', $.identifier),
      field('parameters', $.parameters),
      field('body', $.block),
    ),

    function_declaration: $ => seq(
      optional(field('visibility', $.visibility)),
      optional(field('generator', 'gen')),
      'fn',
      field('name', $.identifier),
      optional(field('type_parameters', $.type_parameters)),
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $._type))),
      optional(field('throws', $.throws_clause)),
      optional(field('where', $.where_clause)),
      field('body', $.block),
    ),

    parameters: $ => seq('(', commaSepTrailing(choice($.parameter, $.rest_parameter)), ')'),

    parameter: $ => seq(
      field('name', $.identifier),
      optional(seq(':', field('type', $._type))),
      optional(seq('=', field('default', $._expression))),
    ),

    rest_parameter: $ => seq(
      '...',
      field('name', $.identifier),
      optional(seq(':', field('type', $._type))),
    ),

    type_parameters: $ => seq('<', commaSepTrailing($.type_parameter), '>'),

    type_parameter: $ => seq(
      optional(field('variance', choice('in', 'out'))),
      field('name', $.identifier),
    ),

    throws_clause: $ => seq('throws', field('type', $._type)),

    where_clause: $ => seq('where', commaSep1($.where_predicate)),

    where_predicate: $ => seq(
      field('name', $.identifier),
      ':',
      field('bound', $._type),
      repeat(seq('+', field('bound', $._type))),
    ),

    type_alias_declaration: $ => seq(
      optional(field('visibility', $.visibility)),
      'type',
      field('name', $.identifier),
      optional(field('type_parameters', $.type_parameters)),
      '=',
      field('type', $._type),
    ),

    struct_declaration: $ => seq(
      optional(field('visibility', $.visibility)),
      'struct',
      field('name', $.identifier),
      optional(field('type_parameters', $.type_parameters)),
      field('body', $.struct_body),
    ),

    struct_body: $ => seq('{', memberList($, $.struct_field), '}'),

    struct_field: $ => seq(
      field('name', $.identifier),
      optional(field('optional', '?')),
      ':',
      field('type', $._type),
    ),

    enum_declaration: $ => seq(
      optional(field('visibility', $.visibility)),
      'enum',
      field('name', $.identifier),
      optional(field('type_parameters', $.type_parameters)),
      field('body', $.enum_body),
    ),

    enum_body: $ => seq('{', memberList($, $.enum_variant), '}'),

    enum_variant: $ => seq(
      field('name', $.identifier),
      optional(seq('(', commaSepTrailing($.variant_field), ')')),
    ),

    // `B(int, string)` has unnamed fields, `C(x: float)` named ones.
    variant_field: $ => seq(
      optional(seq(field('name', $.identifier), ':')),
      field('type', $._type),
    ),

    interface_declaration: $ => seq(
      optional(field('visibility', $.visibility)),
      'interface',
      field('name', $.identifier),
      optional(field('type_parameters', $.type_parameters)),
      field('body', $.interface_body),
    ),

    interface_body: $ => seq(
      '{',
      statementList($, choice($.method_signature, $.associated_type)),
      '}',
    ),

    method_signature: $ => seq(
      'fn',
      field('name', $.identifier),
      optional(field('type_parameters', $.type_parameters)),
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $._type))),
      optional(field('throws', $.throws_clause)),
    ),

    associated_type: $ => seq(
      'type',
      field('name', $.identifier),
      optional(seq('=', field('default', $._type))),
    ),

    impl_declaration: $ => seq(
      'impl',
      field('type', $.identifier),
      field('body', $.impl_body),
    ),

    impl_body: $ => seq(
      '{',
      statementList($, choice($.function_declaration, $.attributed_declaration)),
      '}',
    ),

    tool_declaration: $ => seq(
      optional(field('visibility', $.visibility)),
      'tool',
      field('name', $.identifier),
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $._type))),
      optional(field('throws', $.throws_clause)),
      field('body', $.tool_body),
    ),

    tool_body: $ => seq(
      '{',
      statementList($, choice($.description, $._statement)),
      '}',
    ),

    description: $ => seq('description', field('value', $._string_literal)),

    skill_declaration: $ => seq(
      optional(field('visibility', $.visibility)),
      'skill',
      field('name', $.identifier),
      field('body', $.skill_body),
    ),

    skill_body: $ => seq('{', statementList($, $.skill_field), '}'),

    skill_field: $ => seq(
      field('name', $.identifier),
      field('value', $._expression),
    ),

    eval_pack_declaration: $ => seq(
      optional(field('visibility', $.visibility)),
      'eval_pack',
      field('name', $.identifier),
      optional(field('id', $._string_literal)),
      field('body', $.eval_pack_body),
    ),

    eval_pack_body: $ => seq(
      '{',
      statementList($, choice($.eval_pack_field, $.summarize_block, $._statement)),
      '}',
    ),

    eval_pack_field: $ => seq(
      field('name', $.identifier),
      ':',
      field('value', $._expression),
    ),

    summarize_block: $ => seq('summarize', field('body', $.block)),

    // ---------------------------------------------------------------------
    // Statements (§4)

    _statement: $ => choice(
      $._declaration,
      $.variable_declaration,
      $.assignment,
      $.return_statement,
      $.throw_statement,
      $.break_statement,
      $.continue_statement,
      $.for_statement,
      $.while_statement,
      $.guard_statement,
      $.require_statement,
      $.defer_statement,
      $.mutex_statement,
      $.select_statement,
      $.yield_statement,
      $.emit_statement,
      $.block_statement,
      $._expression,
    ),

    block: $ => seq('{', statementList($, $._statement), '}'),

    // `block { ... }`: a plain lexical scope (§4 "Scoping"). `block {` is
    // one token so that `block` remains an ordinary name.
    block_statement: $ => seq(
      alias(token(prec(1, /block[ \t]*\{/)), 'block {'),
      statementList($, $._statement),
      '}',
    ),

    // `let`/`var` take a pattern; `const` takes a name (checked later). Which
    // of them is mutable depends on the Harn version (§4), so the grammar
    // only records the keyword.
    variable_declaration: $ => seq(
      field('kind', choice('let', 'var', 'const')),
      field('pattern', $._pattern),
      optional(seq(':', field('type', $._type))),
      '=',
      field('value', $._expression),
    ),

    assignment: $ => prec.right(PREC.assign, seq(
      field('left', $._expression),
      field('operator', choice(...ASSIGNMENT_OPERATORS)),
      field('right', $._expression),
    )),

    return_statement: $ => seq('return', optional(field('value', $._expression))),

    throw_statement: $ => seq('throw', field('value', $._expression)),

    break_statement: _ => 'break',

    continue_statement: _ => 'continue',

    for_statement: $ => seq(
      'for',
      field('pattern', $._pattern),
      'in',
      field('iterable', $._expression),
      field('body', $.block),
    ),

    while_statement: $ => seq(
      'while',
      field('condition', $._expression),
      field('body', $.block),
    ),

    guard_statement: $ => seq(
      'guard',
      field('condition', $._expression),
      'else',
      field('alternative', $.block),
    ),

    require_statement: $ => seq(
      'require',
      field('condition', $._expression),
      optional(seq(',', field('message', $._expression))),
    ),

    defer_statement: $ => seq('defer', field('body', $.block)),

    mutex_statement: $ => seq('mutex', field('body', $.block)),

    select_statement: $ => seq(
      'select',
      '{',
      statementList($, choice($.select_case, $.select_timeout, $.select_default)),
      '}',
    ),

    select_case: $ => seq(
      field('name', $.identifier),
      'from',
      field('channel', $._expression),
      field('body', $.block),
    ),

    select_timeout: $ => seq(
      'timeout',
      field('duration', $._expression),
      field('body', $.block),
    ),

    select_default: $ => seq('default', field('body', $.block)),

    yield_statement: $ => seq('yield', optional(field('value', $._expression))),

    emit_statement: $ => seq('emit', field('value', $._expression)),

    // ---------------------------------------------------------------------
    // Patterns (§4 binding patterns and match arms). One pattern language
    // serves `let`, `for` and `match`; the checker rejects what a context
    // does not allow (literals in a `let`, defaults in a match arm).

    _pattern: $ => choice(
      $.identifier,
      $.wildcard_pattern,
      $._literal_pattern,
      $.or_pattern,
      $.dict_pattern,
      $.list_pattern,
      $.pair_pattern,
      $.variant_pattern,
    ),

    wildcard_pattern: _ => '_',

    _literal_pattern: $ => choice(
      $._string_literal,
      $.integer,
      $.float,
      $.duration,
      $.negative_literal,
      $.true,
      $.false,
      $.nil,
    ),

    negative_literal: $ => seq('-', field('value', choice($.integer, $.float))),

    or_pattern: $ => prec.left(seq(
      field('left', $._pattern),
      '|',
      field('right', $._pattern),
    )),

    dict_pattern: $ => seq(
      '{',
      commaSepTrailing(choice($.dict_pattern_entry, $.rest_pattern)),
      '}',
    ),

    dict_pattern_entry: $ => seq(
      field('key', choice($.identifier, $.string)),
      optional(seq(':', field('pattern', $._pattern))),
      optional(seq('=', field('default', $._expression))),
    ),

    list_pattern: $ => seq(
      '[',
      commaSepTrailing(choice($.list_pattern_element, $.rest_pattern)),
      ']',
    ),

    list_pattern_element: $ => seq(
      field('pattern', $._pattern),
      optional(seq('=', field('default', $._expression))),
    ),

    rest_pattern: $ => seq('...', field('name', $.identifier)),

    pair_pattern: $ => seq(
      '(',
      field('first', $._pattern),
      ',',
      field('second', $._pattern),
      ')',
    ),

    // `Shape.Circle(r)`, `Color.Red`, `Result.Ok(v)`, `Ok(v)`.
    variant_pattern: $ => choice(
      seq(
        field('enum', $.identifier),
        '.',
        field('variant', $.identifier),
        optional(field('arguments', $.pattern_arguments)),
      ),
      seq(
        field('variant', $.identifier),
        field('arguments', $.pattern_arguments),
      ),
    ),

    pattern_arguments: $ => seq('(', commaSepTrailing($._pattern), ')'),

    // ---------------------------------------------------------------------
    // Expressions (§5)

    _expression: $ => choice(
      $.identifier,
      $.integer,
      $.float,
      $.duration,
      $.true,
      $.false,
      $.nil,
      $.string,
      $.multiline_string,
      $.raw_string,
      $.list,
      $.dict,
      $.closure,
      $.function_expression,
      $.struct_expression,
      $.parenthesized_expression,
      $.call_expression,
      $.member_expression,
      $.subscript_expression,
      $.slice_expression,
      $.propagation_expression,
      $.unary_expression,
      $.rethrow_expression,
      $.binary_expression,
      $.conditional_expression,
      $.range_expression,
      $.pipe_expression,
      $.if_expression,
      $.match_expression,
      $.try_expression,
      $.retry_expression,
      $.deadline_expression,
      $.parallel_expression,
      $.spawn_expression,
      $.approval_expression,
    ),

    parenthesized_expression: $ => seq('(', field('expression', $._expression), ')'),

    call_expression: $ => choice(
      prec(PREC.postfix, seq(
        field('function', $._expression),
        field('arguments', $.arguments),
      )),
      // Explicit type arguments `map<int, string>(xs, f)` follow a plain
      // name only; `f < x` stays a comparison unless `>(` completes the call.
      prec.dynamic(1, seq(
        field('function', choice($.identifier, $.member_expression)),
        field('type_arguments', $.type_arguments),
        field('arguments', $.arguments),
      )),
    ),

    arguments: $ => seq('(', commaSepTrailing(choice($._expression, $.spread_element)), ')'),

    member_expression: $ => prec(PREC.postfix, seq(
      field('object', $._expression),
      field('operator', choice('.', '?.')),
      field('property', $.identifier),
    )),

    // `xs[i]`, `xs?.[i]` and the legacy `xs?[i]`.
    subscript_expression: $ => prec(PREC.postfix, seq(
      field('object', $._expression),
      field('operator', choice('[', '?.[', token.immediate('?['))),
      field('index', $._expression),
      ']',
    )),

    slice_expression: $ => prec(PREC.postfix, seq(
      field('object', $._expression),
      field('operator', choice('[', '?.[', token.immediate('?['))),
      optional(field('start', $._expression)),
      ':',
      optional(field('end', $._expression)),
      ']',
    )),

    // Result propagation `expr?`: the `?` touches its operand, which is how it
    // differs from the ternary's `?` (§5 notes).
    propagation_expression: $ => prec(PREC.postfix, seq(
      field('operand', $._expression),
      token.immediate('?'),
    )),

    unary_expression: $ => prec.right(PREC.unary, seq(
      field('operator', choice('!', '-')),
      field('operand', $._expression),
    )),

    // `try* expr` rethrows into the nearest enclosing catch.
    rethrow_expression: $ => prec.right(PREC.unary, seq(
      'try',
      token.immediate('*'),
      field('operand', $._expression),
    )),

    binary_expression: $ => {
      const table = [
        [prec.left, PREC.or, '||'],
        [prec.left, PREC.and, '&&'],
        [prec.left, PREC.equality, choice('==', '!=')],
        [prec.left, PREC.compare, choice('<', '>', '<=', '>=', 'in', seq('not', 'in'))],
        [prec.left, PREC.additive, choice('+', '-')],
        [prec.left, PREC.coalesce, '??'],
        [prec.left, PREC.multiplicative, choice('*', '/', '%')],
        [prec.right, PREC.power, '**'],
      ];
      return choice(...table.map(([assoc, level, operator]) =>
        // @ts-ignore
        assoc(level, seq(
          field('left', $._expression),
          field('operator', operator),
          field('right', $._expression),
        )),
      ));
    },

    conditional_expression: $ => prec.right(PREC.ternary, seq(
      field('condition', $._expression),
      '?',
      field('consequence', $._expression),
      ':',
      field('alternative', $._expression),
    )),

    range_expression: $ => prec.left(PREC.range, seq(
      field('start', $._expression),
      'to',
      field('end', $._expression),
      optional(field('exclusive', 'exclusive')),
    )),

    pipe_expression: $ => prec.left(PREC.pipe, seq(
      field('left', $._expression),
      '|>',
      field('right', $._expression),
    )),

    // Right-associative so that `guard if a {} else {} else {}` gives the
    // first `else` to the `if`.
    if_expression: $ => prec.right(seq(
      'if',
      field('condition', $._expression),
      field('consequence', $.block),
      optional(seq('else', field('alternative', choice($.block, $.if_expression)))),
    )),

    match_expression: $ => seq(
      'match',
      field('value', $._expression),
      field('body', $.match_body),
    ),

    // Arms end with a block, so they need no separator between them
    // (`match k { 1 -> { a } _ -> { b } }`); newlines, `;` and `,` are
    // allowed anywhere.
    match_body: $ => seq('{', repeat(choice($.match_arm, $._newline, ';', ',')), '}'),

    match_arm: $ => seq(
      field('pattern', $._pattern),
      optional(seq('if', field('guard', $._expression))),
      '->',
      field('body', $.block),
    ),

    try_expression: $ => seq(
      'try',
      field('body', $.block),
      optional(field('catch', $.catch_clause)),
      optional(field('finally', $.finally_clause)),
    ),

    catch_clause: $ => seq(
      'catch',
      optional(choice(
        seq(
          '(',
          field('name', $.identifier),
          optional(seq(':', field('type', $._type))),
          ')',
        ),
        field('name', $.identifier),
      )),
      field('body', $.block),
    ),

    finally_clause: $ => seq('finally', field('body', $.block)),

    retry_expression: $ => seq(
      'retry',
      field('count', $._expression),
      field('body', $.block),
    ),

    deadline_expression: $ => seq(
      'deadline',
      field('duration', $._expression),
      field('body', $.block),
    ),

    // `parallel N { i -> ... }`, `parallel each xs { x -> ... }`,
    // `parallel settle xs with {max_concurrent: 4} { x -> ... }`;
    // `parallel each xs { ... } as stream` yields results as they finish.
    parallel_expression: $ => prec.right(seq(
      'parallel',
      optional(field('mode', choice('each', 'settle'))),
      field('value', $._expression),
      optional(seq('with', field('options', $._expression))),
      field('body', choice($.closure, $.block)),
      optional(field('as_stream', $.as_stream)),
    )),

    as_stream: _ => seq('as', 'stream'),

    spawn_expression: $ => seq('spawn', field('body', $.block)),

    // Human-in-the-loop primitives (§1 newer keywords):
    // `request_approval("deploy", reviewers: ["a"], quorum: 2)`.
    approval_expression: $ => seq(
      field('primitive', choice('request_approval', 'dual_control', 'ask_user', 'escalate_to')),
      field('arguments', $.approval_arguments),
    ),

    approval_arguments: $ => seq(
      '(',
      commaSepTrailing(choice($.named_argument, $._expression, $.spread_element)),
      ')',
    ),

    named_argument: $ => seq(
      field('name', $.identifier),
      ':',
      field('value', $._expression),
    ),

    closure: $ => seq(
      '{',
      optional(field('parameters', $.closure_parameters)),
      '->',
      statementList($, $._statement),
      '}',
    ),

    closure_parameters: $ => commaSep1Trailing($.closure_parameter),

    // A default (`{ x, y = 10 -> x + y }`) reads like an assignment in a
    // block until `->` decides.
    closure_parameter: $ => seq(
      field('name', $.identifier),
      optional(seq(':', field('type', $._type))),
      optional(seq('=', field('default', $._expression))),
    ),

    function_expression: $ => seq(
      'fn',
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $._type))),
      optional(field('throws', $.throws_clause)),
      field('body', $.block),
    ),

    // `Point { x: 3, y: 4 }`
    struct_expression: $ => seq(
      field('name', $.identifier),
      field('body', $.field_initializer_list),
    ),

    field_initializer_list: $ => seq('{', commaSepTrailing($.field_initializer), '}'),

    field_initializer: $ => seq(
      field('name', $.identifier),
      ':',
      field('value', $._expression),
    ),

    list: $ => seq('[', commaSepTrailing(choice($._expression, $.spread_element)), ']'),

    // `{}` is the empty dict. Bare keys (keywords included) are strings;
    // `[expr]` keys are computed.
    dict: $ => seq('{', commaSepTrailing(choice($.dict_entry, $.spread_element)), '}'),

    dict_entry: $ => seq(
      field('key', choice($.identifier, $._string_literal, $.computed_key)),
      ':',
      field('value', $._expression),
    ),

    computed_key: $ => seq('[', field('expression', $._expression), ']'),

    spread_element: $ => seq('...', field('value', $._expression)),

    // ---------------------------------------------------------------------
    // Literals (§1)

    identifier: _ => IDENTIFIER,

    integer: _ => /[0-9]+/,

    float: _ => /[0-9]+\.[0-9]+/,

    duration: _ => DURATION,

    true: _ => 'true',
    false: _ => 'false',
    nil: _ => 'nil',

    _string_literal: $ => choice($.string, $.multiline_string, $.raw_string),

    string: $ => seq(
      '"',
      repeat(choice($.string_content, $.escape_sequence, $.interpolation)),
      '"',
    ),

    // Raw apart from interpolation: a backslash is literal text.
    multiline_string: $ => seq(
      '"""',
      repeat(choice($.multiline_string_content, $.interpolation)),
      '"""',
    ),

    escape_sequence: _ => token.immediate(/\\[^\r\n]/),

    interpolation: $ => seq('${', field('expression', $._expression), '}'),

    // ---------------------------------------------------------------------
    // Types (§7)

    _type: $ => choice(
      typeName($),
      $.generic_type,
      $.list_type,
      $.shape_type,
      $.union_type,
      $.intersection_type,
      $.optional_type,
      $.literal_type,
      $.function_type,
      $.parenthesized_type,
    ),

    generic_type: $ => seq(
      field('name', typeName($)),
      field('arguments', $.type_arguments),
    ),

    type_arguments: $ => seq('<', commaSep1Trailing($._type), '>'),

    // `[T]` is `list<T>`.
    list_type: $ => seq('[', field('element', $._type), ']'),

    shape_type: $ => seq('{', commaSepTrailing($.shape_field), '}'),

    shape_field: $ => seq(
      field('name', choice($.identifier, $.string)),
      optional(field('optional', '?')),
      ':',
      field('type', $._type),
    ),

    union_type: $ => prec.left(TYPE_PREC.union, seq(
      field('left', $._type),
      '|',
      field('right', $._type),
    )),

    intersection_type: $ => prec.left(TYPE_PREC.intersection, seq(
      field('left', $._type),
      '&',
      field('right', $._type),
    )),

    optional_type: $ => prec(TYPE_PREC.optional, seq(field('type', $._type), '?')),

    // `"pass" | "fail"`, `0 | 1 | -1`
    literal_type: $ => field('value', choice($.string, $.integer, $.negative_literal)),

    function_type: $ => prec.right(TYPE_PREC.function, seq(
      'fn',
      '(',
      commaSepTrailing(field('parameter', $._type)),
      ')',
      optional(seq('->', field('return_type', $._type))),
    )),

    parenthesized_type: $ => seq('(', field('type', $._type), ')'),
  },
});

/**
 * A type name: an identifier shown as `type_identifier`.
 *
 * @param {GrammarSymbols<string>} $
 */
function typeName($) {
  return alias($.identifier, $.type_identifier);
}

/**
 * A separator between statements: a significant newline or `;`.
 *
 * @param {GrammarSymbols<string>} $
 */
function separator($) {
  return choice($._newline, ';');
}

/**
 * Items separated by newlines or `;`, with an optional trailing separator.
 * Separators are only valid right after an item, so the scanner reports a
 * newline there and nowhere else; blank lines fold into one separator.
 *
 * @param {GrammarSymbols<string>} $
 * @param {RuleOrLiteral} rule
 */
function statementList($, rule) {
  return optional(seq(
    rule,
    repeat(seq(separator($), rule)),
    optional(separator($)),
  ));
}

/**
 * Items separated by newlines, `;` or commas (struct fields, enum variants,
 * match arms), with an optional trailing separator.
 *
 * @param {GrammarSymbols<string>} $
 * @param {RuleOrLiteral} rule
 */
function memberList($, rule) {
  const sep = choice($._newline, ';', ',');
  return optional(seq(rule, repeat(seq(sep, rule)), optional(sep)));
}

/**
 * One or more comma-separated items.
 *
 * @param {RuleOrLiteral} rule
 */
function commaSep1(rule) {
  return seq(rule, repeat(seq(',', rule)));
}

/**
 * One or more comma-separated items with an optional trailing comma.
 *
 * @param {RuleOrLiteral} rule
 */
function commaSep1Trailing(rule) {
  return seq(commaSep1(rule), optional(','));
}

/**
 * Zero or more comma-separated items with an optional trailing comma.
 *
 * @param {RuleOrLiteral} rule
 */
function commaSepTrailing(rule) {
  return optional(commaSep1Trailing(rule));
}
