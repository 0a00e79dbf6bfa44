; Strings passed to the regex builtins are regular expressions.
((call_expression
  function: (identifier) @_name
  arguments: (arguments
    .
    [(string (string_content) @injection.content) (raw_string) @injection.content]))
  (#any-of? @_name "regex_match" "regex_replace" "regex_captures" "regex_split")
  (#set! injection.language "regex"))

; Doc comments are markdown.
((block_comment) @injection.content
  (#match? @injection.content "^/\\*\\*")
  (#set! injection.language "markdown"))
