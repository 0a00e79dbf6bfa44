// An ESM grammar that inherits from base.js and overrides, extends and reuses
// base rules, including the previous value passed as the second argument.
import base from './base.js';

export default grammar(base, {
  name: 'calc_plus',
  externals: ($, previous) => previous.concat([$.raw]),
  extras: ($, previous) => previous.concat([$.pragma]),
  conflicts: ($, previous) => previous.concat([[$.binary]]),
  inline: ($, previous) => previous,
  supertypes: ($, previous) => previous.concat([$._expr]),
  reserved: {
    global: ($, previous) => previous.concat(['while']),
  },
  rules: {
    _statement: ($, previous) => choice(previous, $.while_stmt),
    while_stmt: $ => seq('while', $._expr, '{', repeat($._statement), '}'),
    pragma: _ => token(prec(-1, seq('#!', /.*/))),
    raw_use: $ => $.raw,
  },
});
