package leia

import (
	"github.com/harnlang/harn-check/checker/leia/analysis"
	"github.com/harnlang/harn-check/checker/leia/rules/agents"
	"github.com/harnlang/harn-check/checker/leia/rules/argtypes"
	"github.com/harnlang/harn-check/checker/leia/rules/arity"
	"github.com/harnlang/harn-check/checker/leia/rules/consts"
	"github.com/harnlang/harn-check/checker/leia/rules/declarations"
	"github.com/harnlang/harn-check/checker/leia/rules/dropped"
	"github.com/harnlang/harn-check/checker/leia/rules/evaluate"
	"github.com/harnlang/harn-check/checker/leia/rules/imports"
	"github.com/harnlang/harn-check/checker/leia/rules/labels"
	"github.com/harnlang/harn-check/checker/leia/rules/models"
	"github.com/harnlang/harn-check/checker/leia/rules/names"
	"github.com/harnlang/harn-check/checker/leia/rules/positional"
	"github.com/harnlang/harn-check/checker/leia/rules/prompts"
	"github.com/harnlang/harn-check/checker/leia/rules/toollists"
	"github.com/harnlang/harn-check/checker/leia/rules/tools"
	"github.com/harnlang/harn-check/checker/leia/rules/turns"
	"github.com/harnlang/harn-check/checker/leia/rules/unused"
	"github.com/harnlang/harn-check/checker/leia/rules/validators"
)

// Rules lists every rule, in the order they run: the language's own rules
// first, then the AI-dialect contracts.
var Rules = []*analysis.Rule{
	names.Rule,
	consts.Rule,
	labels.Rule,
	imports.Rule,
	arity.Rule,
	argtypes.Rule,
	unused.Rule,
	positional.Rule,
	models.Rule,
	tools.Rule,
	declarations.Rule,
	toollists.Rule,
	agents.Rule,
	prompts.Rule,
	turns.Rule,
	evaluate.Rule,
	dropped.Rule,
	validators.Rule,
}
