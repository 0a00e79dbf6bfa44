module github.com/harnlang/harn-check

go 1.26

require (
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-go v0.25.0
	github.com/tree-sitter/tree-sitter-json v0.24.8
)

require github.com/mattn/go-pointer v0.0.1 // indirect
