// harn-check grammar DSL shim: evaluates a tree-sitter grammar.js and prints
// its grammar.json on stdout. Usage: node shim.mjs /abs/path/grammar.js
// Written for harn-check; it mirrors the documented behaviour of the
// tree-sitter DSL (rule constructors, the `$` proxy, inheritance).

import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const SCHEMA_URL =
  "https://tree-sitter.github.io/tree-sitter/assets/schemas/grammar.schema.json";

// Sym is a reference to a named rule or external token.
class Sym {
  constructor(name) {
    this.type = "SYMBOL";
    this.name = name;
  }
}

// UnknownName is what `$.x` yields when x is neither a rule nor an external.
// It is only legal as a named alias target; used anywhere else it throws.
class UnknownName extends ReferenceError {
  constructor(name) {
    super(`Undefined symbol '${name}'`);
    this.symbol = new Sym(name);
  }
}

// RustRegex carries a pattern written in Rust regex syntax verbatim.
class RustRegex {
  constructor(value) {
    this.value = value;
  }
}

function toRule(value) {
  if (value === undefined) {
    throw new Error("Undefined symbol");
  }
  if (value === null) {
    throw new TypeError("Invalid rule: null");
  }
  if (typeof value === "string" || value instanceof String) {
    return { type: "STRING", value: String(value) };
  }
  if (value instanceof RegExp) {
    const out = { type: "PATTERN", value: value.source };
    if (value.flags) out.flags = value.flags;
    return out;
  }
  if (value instanceof RustRegex) {
    return { type: "PATTERN", value: value.value };
  }
  if (value instanceof UnknownName) {
    throw value;
  }
  if (typeof value.type === "string") {
    return value;
  }
  throw new TypeError(`Invalid rule: ${value}`);
}

// oneRule rejects extra arguments (a common mistake: optional(a, b) meaning
// seq), except when called as an Array.prototype.map callback.
function oneRule(args, expected, fname, what = "rule") {
  const viaMap =
    args.length === expected + 2 &&
    typeof args[expected] === "number" &&
    Array.isArray(args[expected + 1]);
  if (args.length > expected && !viaMap) {
    throw new Error(
      `The \`${fname}\` function takes one ${what} argument; ` +
        `got ${args.length - expected + 1}. Did you mean to call \`seq\`?`,
    );
  }
}

function needPrec(value, fname) {
  if (value === undefined || value === null) {
    throw new Error(`${fname}: missing precedence value`);
  }
}

function blank() {
  return { type: "BLANK" };
}

function eof() {
  return { type: "EOF" };
}

function seq(...members) {
  return { type: "SEQ", members: members.map(toRule) };
}

function choice(...members) {
  return { type: "CHOICE", members: members.map(toRule) };
}

function optional(rule) {
  oneRule(arguments, 1, "optional");
  return choice(rule, blank());
}

function repeat(rule) {
  oneRule(arguments, 1, "repeat");
  return { type: "REPEAT", content: toRule(rule) };
}

function repeat1(rule) {
  oneRule(arguments, 1, "repeat1");
  return { type: "REPEAT1", content: toRule(rule) };
}

function precNode(type, fname, value, rule) {
  needPrec(value, fname);
  return { type, value, content: toRule(rule) };
}

function prec(value, rule) {
  oneRule(arguments, 2, "prec");
  return precNode("PREC", "prec", value, rule);
}
prec.left = function (value, rule) {
  oneRule(arguments, 2, "prec.left");
  if (rule === undefined || rule === null) [value, rule] = [0, value];
  return precNode("PREC_LEFT", "prec.left", value, rule);
};
prec.right = function (value, rule) {
  oneRule(arguments, 2, "prec.right");
  if (rule === undefined || rule === null) [value, rule] = [0, value];
  return precNode("PREC_RIGHT", "prec.right", value, rule);
};
prec.dynamic = function (value, rule) {
  oneRule(arguments, 2, "prec.dynamic");
  return precNode("PREC_DYNAMIC", "prec.dynamic", value, rule);
};

function token(rule) {
  oneRule(arguments, 1, "token", "literal");
  return { type: "TOKEN", content: toRule(rule) };
}
token.immediate = function (rule) {
  oneRule(arguments, 1, "token.immediate", "literal");
  return { type: "IMMEDIATE_TOKEN", content: toRule(rule) };
};

function alias(rule, target) {
  const content = toRule(rule);
  if (typeof target === "string" || target instanceof String) {
    return { type: "ALIAS", content, named: false, value: String(target) };
  }
  if (target instanceof UnknownName) {
    return { type: "ALIAS", content, named: true, value: target.symbol.name };
  }
  if (target && target.type === "SYMBOL" && typeof target.name === "string") {
    return { type: "ALIAS", content, named: true, value: target.name };
  }
  throw new Error(`Invalid alias value ${target}`);
}

function field(name, rule) {
  return { type: "FIELD", name, content: toRule(rule) };
}

function reserved(setName, rule) {
  if (typeof setName !== "string") {
    throw new Error(`Invalid reserved word set name: ${setName}`);
  }
  return { type: "RESERVED", content: toRule(rule), context_name: setName };
}

function sym(name) {
  return new Sym(name);
}

// ruleProxy builds `$`. With known == null every name is accepted (used while
// evaluating externals); otherwise unknown names yield an UnknownName marker.
function ruleProxy(known) {
  return new Proxy(
    {},
    {
      get(_, name) {
        if (typeof name !== "string") return undefined;
        if (known === null || Object.prototype.hasOwnProperty.call(known, name)) {
          return new Sym(name);
        }
        return new UnknownName(name);
      },
    },
  );
}

const IDENT = /^[a-zA-Z_]\w*$/;

function mustBeFunction(value, what) {
  if (typeof value !== "function") {
    throw new Error(`Grammar's '${what}' property must be a function.`);
  }
}

function mustBeArray(value, message) {
  if (!Array.isArray(value)) throw new Error(message);
  return value;
}

function grammar(base, options) {
  let inherits;
  if (options === undefined) {
    options = base;
    base = {
      name: null,
      rules: {},
      extras: [toRule(/\s/)],
      conflicts: [],
      externals: [],
      inline: [],
      supertypes: [],
      precedences: [],
      reserved: {},
    };
  } else {
    base = base.grammar;
    inherits = base.name;
  }

  const name = options.name;
  if (typeof name !== "string") {
    throw new Error("Grammar's 'name' property must be a string.");
  }
  if (!IDENT.test(name)) {
    throw new Error(
      `Grammar name '${name}' must start with a letter or '_' and contain only word characters.`,
    );
  }

  let externals = base.externals;
  if (options.externals) {
    mustBeFunction(options.externals, "externals");
    const any = ruleProxy(null);
    externals = mustBeArray(
      options.externals.call(any, any, base.externals),
      "Grammar's 'externals' property must return an array of rules.",
    ).map(toRule);
  }

  const known = {};
  for (const k of Object.keys(options.rules || {})) known[k] = true;
  for (const k of Object.keys(base.rules)) known[k] = true;
  for (const ext of externals) {
    if (typeof ext.name === "string") known[ext.name] = true;
  }
  const $ = ruleProxy(known);

  const rules = Object.assign({}, base.rules);
  if (options.rules) {
    if (typeof options.rules !== "object") {
      throw new Error("Grammar's 'rules' property must be an object.");
    }
    for (const [ruleName, fn] of Object.entries(options.rules)) {
      if (typeof fn !== "function") {
        throw new Error(`Grammar rules must all be functions. '${ruleName}' rule is not.`);
      }
      const body = fn.call($, $, base.rules[ruleName]);
      if (body === undefined) {
        throw new Error(`Rule '${ruleName}' returned undefined.`);
      }
      try {
        rules[ruleName] = toRule(body);
      } catch (e) {
        e.message = `rule '${ruleName}': ${e.message}`;
        throw e;
      }
    }
  }

  // Like the reference DSL, this extends the base grammar's reserved object
  // in place.
  const reservedSets = base.reserved;
  if (options.reserved) {
    if (typeof options.reserved !== "object") {
      throw new Error("Grammar's 'reserved' property must be an object.");
    }
    for (const [setName, fn] of Object.entries(options.reserved)) {
      if (typeof fn !== "function") {
        throw new Error(`Grammar reserved word sets must all be functions. '${setName}' is not.`);
      }
      reservedSets[setName] = mustBeArray(
        fn.call($, $, base.reserved[setName]),
        `Reserved word set '${setName}' must return an array of rules.`,
      ).map(toRule);
    }
  }

  let extras = base.extras.slice();
  if (options.extras) {
    mustBeFunction(options.extras, "extras");
    extras = mustBeArray(
      options.extras.call($, $, base.extras),
      "Grammar's 'extras' function must return an array.",
    ).map(toRule);
  }

  let word = base.word;
  if (options.word) {
    const w = options.word.call($, $);
    word = w && w.name;
    if (typeof word !== "string") {
      throw new Error("Grammar's 'word' property must be a named rule.");
    }
    if (w instanceof UnknownName) {
      throw new Error(`Grammar's 'word' rule '${w.symbol.name}' is not defined.`);
    }
  }

  let conflicts = base.conflicts;
  if (options.conflicts) {
    mustBeFunction(options.conflicts, "conflicts");
    const prior = base.conflicts.map((set) => set.map(sym));
    const msg = "Grammar's conflicts must be an array of arrays of rules.";
    conflicts = mustBeArray(options.conflicts.call($, $, prior), msg).map((set) =>
      mustBeArray(set, msg).map((s) => toRule(s).name),
    );
  }

  let inline = base.inline;
  if (options.inline) {
    mustBeFunction(options.inline, "inline");
    const prior = base.inline.map(sym);
    const seen = new Set();
    inline = [];
    for (const s of mustBeArray(
      options.inline.call($, $, prior),
      "Grammar's inline must be an array of rules.",
    )) {
      if (s instanceof UnknownName) {
        process.stderr.write(`Warning: inline rule '${s.symbol.name}' is not defined.\n`);
        continue;
      }
      if (seen.has(s.name)) {
        process.stderr.write(`Warning: duplicate inline rule '${s.name}'\n`);
        continue;
      }
      seen.add(s.name);
      inline.push(s.name);
    }
  }

  let supertypes = base.supertypes;
  if (options.supertypes) {
    mustBeFunction(options.supertypes, "supertypes");
    const prior = base.supertypes.map(sym);
    supertypes = mustBeArray(
      options.supertypes.call($, $, prior),
      "Grammar's supertypes must be an array of rules.",
    ).map((s) => {
      if (s instanceof UnknownName) {
        throw new Error(`Supertype rule \`${s.symbol.name}\` is not defined.`);
      }
      return s.name;
    });
  }

  let precedences = base.precedences;
  if (options.precedences) {
    mustBeFunction(options.precedences, "precedences");
    const msg = "Grammar's precedences must be an array of arrays of rules.";
    precedences = mustBeArray(options.precedences.call($, $, base.precedences), msg).map(
      (list) => mustBeArray(list, msg).map(toRule),
    );
  }

  if (Object.keys(rules).length === 0) {
    throw new Error("Grammar must have at least one rule.");
  }

  return {
    grammar: {
      name,
      inherits,
      word,
      rules,
      extras,
      conflicts,
      precedences,
      externals,
      inline,
      supertypes,
      reserved: reservedSets,
    },
  };
}

Object.assign(globalThis, {
  alias,
  blank,
  eof,
  choice,
  optional,
  prec,
  repeat,
  repeat1,
  reserved,
  seq,
  sym,
  token,
  grammar,
  field,
  RustRegex,
});

const target = process.argv[2];
if (!target) {
  process.stderr.write("usage: node shim.mjs GRAMMAR_JS\n");
  process.exitCode = 2;
} else {
  const mod = await import(pathToFileURL(resolve(target)).href);
  const loaded = (mod.default && mod.default.grammar) || mod.grammar;
  if (!loaded) {
    throw new Error(`${target} does not export a grammar (module.exports = grammar({...}))`);
  }
  const doc = { $schema: SCHEMA_URL, ...loaded };
  process.stdout.write(JSON.stringify(doc, null, 2));
}
