; Languages embedded in tagged templates. The tag names the language for
; the common dialects; `$` runs a shell command.

((tagged_string
  tag: (identifier) @injection.language
  body: (template
    (template_content) @injection.content))
  (#any-of? @injection.language "sql" "json" "html" "css" "yaml")
  (#set! injection.combined))

((tagged_string
  tag: (identifier) @injection.language
  body: (fenced_template
    (template_content) @injection.content))
  (#any-of? @injection.language "sql" "json" "html" "css" "yaml")
  (#set! injection.combined))

((tagged_string
  tag: (identifier) @_tag
  body: (fenced_template
    (template_content) @injection.content))
  (#eq? @_tag "md")
  (#set! injection.language "markdown")
  (#set! injection.combined))

((tagged_string
  tag: (identifier) @_tag
  body: (template
    (template_content) @injection.content))
  (#eq? @_tag "re")
  (#set! injection.language "regex"))

((tagged_string
  "$"
  body: (template
    (template_content) @injection.content))
  (#set! injection.language "bash")
  (#set! injection.combined))

((comment) @injection.content
  (#set! injection.language "comment"))
