; Scopes, definitions and references for Leia. Every block is a scope
; (spec "Blocks"); `:=` declares in the current block.

(source_file) @local.scope

(block) @local.scope

(function_literal) @local.scope

(function_declaration) @local.scope

(for_statement) @local.scope

(function_declaration
  name: (identifier) @local.definition.function)

(tool_declaration
  name: (identifier) @local.definition.function)

(agent_declaration
  name: (identifier) @local.definition.function)

(parameters
  (identifier) @local.definition.parameter)

(variadic_parameter
  name: (identifier) @local.definition.parameter)

(short_var_declaration
  left: (expression_list
    (identifier) @local.definition.var))

(range_clause
  left: (expression_list
    (identifier) @local.definition.var))

(receive_statement
  left: (expression_list
    (identifier) @local.definition.var))

(const_declaration
  name: (identifier) @local.definition.constant)

(import_spec
  alias: (identifier) @local.definition.import)

(label_statement
  name: (identifier) @local.definition.label)

(identifier) @local.reference
