package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/lsp"
	"github.com/harnlang/harn-check/lsp/cache"
)

func TestExplainPages(t *testing.T) {
	dir := t.TempDir()
	href, err := lsp.ExplainPages(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		code, wantPrefix string
	}{
		{"HARN-TYP-036", "HARN-TYP-036 (error): question set of an evaluation site cannot be read statically\n\n# HARN-TYP-036"},
		{"HARN-CHK-001", "HARN-CHK-001 (info): "},
		{"FAKE-BAD-001", ""},
	} {
		h := href(tc.code)
		if tc.wantPrefix == "" {
			if h != "" {
				t.Errorf("%s: unregistered code linked to %q", tc.code, h)
			}
			continue
		}
		if want := cache.PathToURI(filepath.Join(dir, tc.code+".md")); h != want {
			t.Errorf("%s: href %q, want %q", tc.code, h, want)
		}
		page, err := os.ReadFile(cache.URIToPath(h))
		if err != nil || !strings.HasPrefix(string(page), tc.wantPrefix) {
			t.Errorf("%s: page %.80q (%v), want prefix %q", tc.code, page, err, tc.wantPrefix)
		}
	}
}
