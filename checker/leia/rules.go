package leia

import "github.com/harnlang/harn-check/checker/leia/analysis"

// Rules lists every rule, in the order they run.
var Rules = []*analysis.Rule{}
