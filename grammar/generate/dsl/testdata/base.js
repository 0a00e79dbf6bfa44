// A small base grammar exercising most of the DSL (CommonJS).
const PREC = { sum: 1, product: 2, call: 5 };

module.exports = grammar({
  name: 'calc',
  word: $ => $.identifier,
  extras: $ => [/\s/, $.comment],
  externals: $ => [$._indent, $.heredoc, 'end'],
  inline: $ => [$._expr, $._expr, $.not_a_rule],
  supertypes: $ => [$._statement],
  conflicts: $ => [[$.call, $.group]],
  precedences: $ => [['call', $.binary], ['sum', 'product']],
  reserved: {
    global: $ => ['let', 'if'],
    props: _ => [],
  },
  rules: {
    program: $ => repeat($._statement),
    _statement: $ => choice($.let_stmt, $.expr_stmt),
    let_stmt: $ => seq(
      reserved('global', 'let'),
      field('name', $.identifier),
      optional(seq('=', field('value', $._expr))),
      token.immediate(';'),
    ),
    expr_stmt: $ => seq($._expr, ';'),
    _expr: $ => choice($.binary, $.call, $.group, $.number, $.identifier, $.string),
    binary: $ => choice(
      ...[['+', PREC.sum], ['*', PREC.product]].map(([op, p]) =>
        prec.left(p, seq(field('left', $._expr), field('operator', op), field('right', $._expr)))),
      prec.right(seq($._expr, '^', $._expr)),
      prec.left(seq($._expr, '-', $._expr)),
    ),
    call: $ => prec.dynamic(2, prec('call', seq($.identifier, '(', repeat1($._expr), ')'))),
    group: $ => seq('(', alias($._expr, $.inner), ')'),
    number: _ => token(choice(/\d+/, /0x[0-9a-f]+/i)),
    string: $ => seq('"', alias(/[^"]*/, 'text'), alias($.heredoc, $.doc), '"'),
    identifier: _ => /[a-z_]\w*/,
    comment: _ => token(seq('#', /.*/)),
    nothing: _ => blank(),
    rust: _ => new RustRegex('\\p{XID_Start}'),
    listed: $ => seq(...['a', 'b'].map(optional)),
  },
});
