module github.com/harnlang/harn-check

go 1.26
