; Indentation (nvim-treesitter captures).

[
  (block)
  (table)
  (list)
  (arguments)
  (parameters)
  (communication_case)
  (default_case)
] @indent.begin

[
  "}"
  "]"
  ")"
] @indent.branch @indent.end

(communication_case
  "case" @indent.branch)

(default_case
  "default" @indent.branch)

[
  (fenced_string)
  (fenced_template)
  (raw_string)
] @indent.ignore

(comment) @indent.auto
