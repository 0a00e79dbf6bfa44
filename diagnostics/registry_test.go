package diagnostics

import (
	"strings"
	"testing"
)

func TestRegistryPagesLoad(t *testing.T) {
	if err := RegistryError(); err != nil {
		t.Fatal(err)
	}
	if len(Codes()) == 0 {
		t.Fatal("no codes registered")
	}
	for _, c := range Codes() {
		if strings.HasSuffix(c.Summary, ".") {
			t.Errorf("%s: summary ends with a period", c.Code)
		}
		if c.Wrong.Code == c.Right.Code {
			t.Errorf("%s: wrong and right examples are identical", c.Code)
		}
	}
}

func TestParsePageRejectsMalformed(t *testing.T) {
	good := "---\ncode: TEST-FIX-999\nseverity: warning\nsummary: s\n---\n# T\n## Wrong\n```x\na\n```\n## Right\n```x\nb\n```\n"
	info, err := parsePage(good)
	if err != nil {
		t.Fatalf("good page: %v", err)
	}
	if info.Severity != Warning || info.Title != "T" || info.Wrong.Code != "a\n" || info.Right.Lang != "x" {
		t.Errorf("parsed %+v", info)
	}
	for name, page := range map[string]string{
		"no front matter": "# T\n",
		"bad severity":    strings.Replace(good, "warning", "fatal", 1),
		"bad code":        strings.Replace(good, "TEST-FIX-999", "harn-1", 1),
		"no right":        good[:strings.Index(good, "## Right")],
		"no title":        strings.Replace(good, "# T\n", "", 1),
		"unknown key":     strings.Replace(good, "summary:", "summery:", 1),
	} {
		if _, err := parsePage(page); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
