package effects_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/lint/effects"
)

func TestLongRunningWithoutCleanup(t *testing.T) {
	analysistest.Run(t, "testdata/long-running-without-cleanup", harn.Checker, effects.LongRunningWithoutCleanup)
}

func TestPROpenWithoutSecretScan(t *testing.T) {
	analysistest.Run(t, "testdata/pr-open-without-secret-scan", harn.Checker, effects.PROpenWithoutSecretScan)
}

func TestUnhandledApprovalResult(t *testing.T) {
	analysistest.Run(t, "testdata/unhandled-approval-result", harn.Checker, effects.UnhandledApprovalResult)
}

func TestPromptInjectionRisk(t *testing.T) {
	analysistest.Run(t, "testdata/prompt-injection-risk", harn.Checker, effects.PromptInjectionRisk)
}

func TestConnectorEffectPolicy(t *testing.T) {
	analysistest.Run(t, "testdata/connector-effect-policy", harn.Checker, effects.ConnectorEffectPolicy)
}

func TestUntypedDictAccess(t *testing.T) {
	analysistest.Run(t, "testdata/untyped-dict-access", harn.Checker, effects.UntypedDictAccess)
}
