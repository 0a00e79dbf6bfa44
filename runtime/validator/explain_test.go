package validator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/runtime/rhai"
)

// TestExplanationExamples runs the Wrong and Right examples of every RHAI
// explanation page through the checker: the page's code must fire for the
// wrong example only.
func TestExplanationExamples(t *testing.T) {
	checked := 0
	for _, info := range diagnostics.Codes() {
		if !strings.HasPrefix(info.Code, "RHAI-") {
			continue
		}
		t.Run(info.Code, func(t *testing.T) {
			switch info.Wrong.Lang {
			case "rhai":
				checked++
				if got := scriptCodes(info.Wrong.Code); !contains(got, info.Code) {
					t.Errorf("wrong example gives %v, want %s", got, info.Code)
				}
				if got := scriptCodes(info.Right.Code); len(got) != 0 {
					t.Errorf("right example gives %v", got)
				}
			case "toml":
				checked++
				wrongDir := strings.Contains(info.Wrong.Code, "no validators/ directory")
				if got := blueprintCodes(t, info.Wrong.Code, !wrongDir); !contains(got, info.Code) {
					t.Errorf("wrong example gives %v, want %s", got, info.Code)
				}
				if got := blueprintCodes(t, info.Right.Code, true); len(got) != 0 {
					t.Errorf("right example gives %v", got)
				}
			default:
				t.Logf("%s examples are %q; not executable here", info.Code, info.Wrong.Lang)
			}
		})
	}
	if checked < 10 {
		t.Fatalf("only %d RHAI pages have executable examples", checked)
	}
}

func contains(codes []string, code string) bool {
	for _, c := range codes {
		if c == code {
			return true
		}
	}
	return false
}

func scriptCodes(src string) []string {
	if _, err := Compile("example.rhai", src, rhai.Limits{}); err != nil {
		return []string{err.Code}
	}
	return nil
}

// blueprintCodes spawns the example blueprint in a directory holding
// validators/a2ui.rhai (when withValidators) and a sibling shared/ folder.
func blueprintCodes(t *testing.T, src string, withValidators bool) []string {
	root := t.TempDir()
	dir := filepath.Join(root, "agent")
	files := map[string]string{"agent/blueprint.toml": src, "shared/a2ui.rhai": "fn validate(content) { () }"}
	if withValidators {
		files["agent/validators/a2ui.rhai"] = "fn validate(content) { () }"
	}
	for rel, body := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, diags, err := Spawn(filepath.Join(dir, "blueprint.toml"), rhai.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, d := range diags {
		codes = append(codes, d.Code)
	}
	return codes
}
