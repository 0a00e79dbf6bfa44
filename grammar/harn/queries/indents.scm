; Indentation: the contents of braces, brackets and parentheses indent one
; level; the closing delimiter dedents.
[
  (block)
  (block_statement)
  (struct_body)
  (enum_body)
  (interface_body)
  (impl_body)
  (tool_body)
  (skill_body)
  (eval_pack_body)
  (match_body)
  (closure)
  (dict)
  (list)
  (arguments)
  (parameters)
  (import_list)
  (shape_type)
  (field_initializer_list)
  (select_statement)
] @indent.begin

["}" "]" ")"] @indent.branch @indent.end

[(multiline_string) (block_comment)] @indent.ignore
