; Harn syntax highlighting.

; Comments and the shebang
[(line_comment) (block_comment)] @comment
(shebang) @keyword.directive

; Literals
[(string) (multiline_string)] @string
(raw_string) @string
(escape_sequence) @string.escape
(interpolation
  "${" @punctuation.special
  "}" @punctuation.special)
[(integer) (float)] @number
(duration) @number
[(true) (false)] @boolean
(nil) @constant.builtin

; Types
(type_identifier) @type
(type_parameter name: (identifier) @type)
(struct_declaration name: (identifier) @type)
(enum_declaration name: (identifier) @type)
(interface_declaration name: (identifier) @type)
(type_alias_declaration name: (identifier) @type)
(impl_declaration type: (identifier) @type)
(struct_expression name: (identifier) @type)
(where_predicate name: (identifier) @type)
(associated_type name: (identifier) @type)
(enum_variant name: (identifier) @constant)
(variant_pattern enum: (identifier) @type)
(variant_pattern variant: (identifier) @constant)

; Functions
(function_declaration name: (identifier) @function)
(method_signature name: (identifier) @function.method)
(pipeline_declaration name: (identifier) @function)
(override_declaration name: (identifier) @function)
(tool_declaration name: (identifier) @function)
(call_expression function: (identifier) @function.call)
(call_expression
  function: (member_expression property: (identifier) @function.method.call))

; Variables and properties
(parameter name: (identifier) @variable.parameter)
(rest_parameter name: (identifier) @variable.parameter)
(closure_parameter name: (identifier) @variable.parameter)
(member_expression property: (identifier) @property)
(dict_entry key: (identifier) @property)
(field_initializer name: (identifier) @property)
(struct_field name: (identifier) @property)
(shape_field name: (identifier) @property)
(eval_pack_field name: (identifier) @property)
(skill_field name: (identifier) @property)
(dict_pattern_entry key: (identifier) @property)
(wildcard_pattern) @variable.builtin
((identifier) @variable.builtin
  (#any-of? @variable.builtin "self" "harness" "_"))
(attribute "@" @attribute name: (identifier) @attribute)
(attribute_argument name: (identifier) @property)
(import_list name: (identifier) @module)
(import_path (identifier) @module)
(visibility) @keyword.modifier

; Keywords
[
  "import" "from" "pipeline" "extends" "override" "fn" "gen" "type" "struct"
  "enum" "interface" "impl" "tool" "skill" "eval_pack" "description"
  "summarize" "throws" "where"
] @keyword
["let" "var" "const"] @keyword
["if" "else" "match" "guard"] @keyword.conditional
["for" "while" "retry" "parallel" "each" "settle" "with"] @keyword.repeat
["return" "yield" "emit"] @keyword.return
[(break_statement) (continue_statement)] @keyword.repeat
["try" "catch" "finally" "throw"] @keyword.exception
["require" "defer" "deadline" "mutex" "select" "timeout" "default" "spawn" "block {"] @keyword
["request_approval" "dual_control" "ask_user" "escalate_to"] @function.builtin
(named_argument name: (identifier) @variable.parameter)
["in" "not" "to" "exclusive"] @keyword.operator
["in" "out"] @keyword.modifier

; Operators and punctuation
[
  "=" "+=" "-=" "*=" "/=" "%=" "==" "!=" "<" ">" "<=" ">=" "&&" "||" "!"
  "+" "-" "*" "/" "%" "**" "??" "|>" "|" "&" "?" "->" "..." "?." "?.[" "::"
] @operator
["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," "." ":" ";"] @punctuation.delimiter
