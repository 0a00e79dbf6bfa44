package docs_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/lint/docs"
)

func TestMissingHarndoc(t *testing.T) {
	analysistest.Run(t, "testdata/missing-harndoc", harn.Checker, docs.MissingHarndoc)
}

func TestLegacyDocComment(t *testing.T) {
	analysistest.Run(t, "testdata/legacy-doc-comment", harn.Checker, docs.LegacyDocComment)
	analysistest.RunFixes(t, "testdata/legacy-doc-comment/fix", harn.Checker, docs.LegacyDocComment)
}

func TestRequireFileHeader(t *testing.T) {
	analysistest.Run(t, "testdata/require-file-header", harn.Checker, docs.RequireFileHeader)
	analysistest.RunFixes(t, "testdata/require-file-header/fix", harn.Checker, docs.RequireFileHeader)
}

func TestHeaderTitle(t *testing.T) {
	for in, want := range map[string]string{
		"triage_bot.harn":        "Triage bot.",
		"dir/Release-NOTES.harn": "Release notes.",
		"why?.harn":              "Why?",
		"_.harn":                 "Module.",
	} {
		if got := docs.HeaderTitle(in); got != want {
			t.Errorf("HeaderTitle(%q) = %q, want %q", in, got, want)
		}
	}
}
