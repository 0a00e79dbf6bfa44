package lsp

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/version"
	"github.com/harnlang/harn-check/lsp/cache"
)

// ExplainPages writes the explanation page of every registered code into
// dir as CODE.md, in the form `harn-check explain CODE` prints, and returns
// an Options.ExplainHref linking each code to its page's file: URI. Pages
// already present are rewritten only when their content differs.
func ExplainPages(dir string) (func(code string) string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for _, info := range diagnostics.Codes() {
		page := fmt.Sprintf("%s (%s): %s\n\n%s", info.Code, info.Severity, info.Summary, info.Explanation)
		p := filepath.Join(abs, info.Code+".md")
		if old, err := os.ReadFile(p); err == nil && string(old) == page {
			continue
		}
		if err := os.WriteFile(p, []byte(page), 0o644); err != nil {
			return nil, err
		}
	}
	return func(code string) string {
		if _, ok := diagnostics.Lookup(code); !ok {
			return ""
		}
		return cache.PathToURI(filepath.Join(abs, code+".md"))
	}, nil
}

// DefaultExplainDir is where leia-lsp keeps the explanation pages it links:
// leia-lsp/<version>/explain under the user cache directory.
func DefaultExplainDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "leia-lsp", version.Version, "explain"), nil
}
