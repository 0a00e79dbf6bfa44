; Scopes, definitions and references for Harn.

[
  (source_file)
  (block)
  (block_statement)
  (closure)
  (function_declaration)
  (function_expression)
  (pipeline_declaration)
  (override_declaration)
  (tool_declaration)
  (for_statement)
  (match_arm)
  (catch_clause)
] @local.scope

(function_declaration name: (identifier) @local.definition.function)
(parameter name: (identifier) @local.definition.parameter)
(rest_parameter name: (identifier) @local.definition.parameter)
(closure_parameter name: (identifier) @local.definition.parameter)
(variable_declaration pattern: (identifier) @local.definition.var)
(for_statement pattern: (identifier) @local.definition.var)
(match_arm pattern: (identifier) @local.definition.var)
(dict_pattern_entry key: (identifier) @local.definition.var)
(dict_pattern_entry pattern: (identifier) @local.definition.var)
(list_pattern_element pattern: (identifier) @local.definition.var)
(pair_pattern (identifier) @local.definition.var)
(rest_pattern name: (identifier) @local.definition.var)
(pattern_arguments (identifier) @local.definition.var)
(catch_clause name: (identifier) @local.definition.var)
(select_case name: (identifier) @local.definition.var)
(import_list name: (identifier) @local.definition.import)

(identifier) @local.reference
