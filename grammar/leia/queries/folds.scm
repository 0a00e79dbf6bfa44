; Foldable regions.

[
  (block)
  (table)
  (list)
  (arguments)
  (if_statement)
  (for_statement)
  (select_statement)
  (communication_case)
  (default_case)
  (import_declaration)
  (fenced_string)
  (fenced_template)
  (comment)
] @fold
