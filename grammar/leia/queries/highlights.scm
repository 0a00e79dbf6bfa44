; Highlights for Leia. The first pattern that matches a node wins, so the
; specific patterns come before the general ones.

; Comments and directives

(directive) @keyword.directive

(comment) @comment @spell

(shebang) @keyword.directive

; Tags of the AI dialect, then any other tag

((tagged_block
  tag: (identifier) @keyword)
  (#any-of? @keyword "model" "tool" "turn" "prompt" "models" "messages" "budget"))

(tagged_block
  tag: (identifier) @function.macro)

(tagged_string
  tag: (identifier) @function.macro)

(q_block
  "q" @function.macro)

(malformed_number) @number

(tagged_string
  "$" @function.macro)

; Declarations

(function_declaration
  name: (identifier) @function)

(tool_declaration
  name: (identifier) @function)

(agent_declaration
  name: (identifier) @function)

(parameters
  (identifier) @variable.parameter)

(variadic_parameter
  name: (identifier) @variable.parameter)

(const_declaration
  name: (identifier) @constant)

(import_spec
  alias: (identifier) @module)

(label_statement
  name: (identifier) @label)

(goto_statement
  label: (identifier) @label)

; Calls

(method_call_expression
  method: (identifier) @function.method.call)

(call_expression
  function: (field_expression
    field: (identifier) @function.method.call))

(call_expression
  function: (identifier) @function.builtin
  (#any-of? @function.builtin
    "assert" "error" "pcall" "xpcall" "print" "require" "tostring" "tonumber" "type"
    "setmetatable" "getmetatable" "rawget" "rawset" "rawequal" "rawlen" "make" "close"
    "cap" "append" "spread" "pairs" "ipairs"))

(call_expression
  function: (identifier) @function.call)

; Fields and keys

(pair
  key: (identifier) @property)

(field_expression
  field: (identifier) @property)

; Literals

[
  (string)
  (single_string)
  (raw_string)
  (fenced_string)
  (template)
  (fenced_template)
  (q_content)
] @string

(escape_sequence) @string.escape

(interpolation
  [
    "${"
    "}"
  ] @punctuation.special)

(integer) @number

(duration) @number

(float) @number.float

[
  (true)
  (false)
] @boolean

(nil) @constant.builtin

(vararg_expression) @variable.builtin

(chan) @type.builtin

[
  "i32"
  "i64"
  "f32"
  "f64"
  "bool"
] @type.builtin

; Keywords

[
  "func"
] @keyword.function

[
  "return"
] @keyword.return

[
  "if"
  "else"
  "elseif"
] @keyword.conditional

[
  "for"
  "range"
  (break_statement)
  (continue_statement)
] @keyword.repeat

[
  "import"
  "as"
] @keyword.import

[
  "const"
  "goto"
  "go"
  "defer"
  "select"
  "case"
  "default"
  "evaluate"
  "quote"
  "tool"
  "agent"
  "defaults"
  "flow"
] @keyword

; Operators and punctuation

[
  "+"
  "-"
  "*"
  "/"
  "%"
  "**"
  ".."
  "#"
  "!"
  "=="
  "!="
  "<"
  "<="
  ">"
  ">="
  "&&"
  "||"
  "&"
  "|"
  "^"
  "&^"
  "<<"
  ">>"
  "<-"
  "="
  ":="
  "+="
  "-="
  "*="
  "/="
  "++"
  "--"
  "..."
] @operator

[
  "("
  ")"
  "["
  "]"
  "{"
  "}"
] @punctuation.bracket

[
  ","
  ";"
  "."
  ":"
] @punctuation.delimiter

[
  "`"
  "```"
] @punctuation.special

; Everything else that is a name

(identifier) @variable
