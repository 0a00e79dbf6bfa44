package difftest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Mode selects what the "ours" side of a comparison is built from.
type Mode string

const (
	// ModeAuto uses the generator when grammar/generate declares Generate,
	// else falls back to ModeOfficial (the harness checking itself).
	ModeAuto Mode = "auto"
	// ModeGenerated always uses our generator; its absence is an error.
	ModeGenerated Mode = "generated"
	// ModeOfficial compares the official parser with itself, proving the
	// harness (builds, protocol, samples, edits, mutations) without the
	// generator.
	ModeOfficial Mode = "official"
)

// ModeFromEnv reads $HARN_DIFFTEST_OURS (auto, generated, official; empty
// means auto).
func ModeFromEnv() (Mode, error) {
	switch m := Mode(os.Getenv("HARN_DIFFTEST_OURS")); m {
	case "":
		return ModeAuto, nil
	case ModeAuto, ModeGenerated, ModeOfficial:
		return m, nil
	default:
		return "", fmt.Errorf("HARN_DIFFTEST_OURS=%q: want auto, generated or official", m)
	}
}

// RepoRoot returns the directory of the go.mod of the current module.
func RepoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("difftest: go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("difftest: not inside a Go module")
	}
	return filepath.Dir(mod), nil
}

// GeneratorPresent reports whether package grammar/generate under repoRoot
// has a non-test file declaring `func Generate(`.
func GeneratorPresent(repoRoot string) bool {
	files, _ := filepath.Glob(filepath.Join(repoRoot, "grammar", "generate", "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err == nil && bytes.Contains(data, []byte("\nfunc Generate(")) {
			return true
		}
	}
	return false
}

// Resolve turns ModeAuto into ModeGenerated or ModeOfficial.
func Resolve(m Mode, repoRoot string) Mode {
	if m != ModeAuto {
		return m
	}
	if GeneratorPresent(repoRoot) {
		return ModeGenerated
	}
	return ModeOfficial
}

// BuildDriver compiles internal/gendriver with -tags harn_gen into dir and
// returns the binary's path.
func BuildDriver(ctx context.Context, repoRoot, dir string) (string, error) {
	bin := filepath.Join(dir, "gendriver")
	cmd := exec.CommandContext(ctx, "go", "build", "-tags", "harn_gen", "-o", bin,
		"./grammar/generate/difftest/internal/gendriver")
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("difftest: building the generator driver: %v\n%s", err, truncate(string(out), 4000))
	}
	return bin, nil
}

var abiRe = regexp.MustCompile(`(?m)^#define LANGUAGE_VERSION (\d+)`)

// TargetABI returns the ABI our parser should be generated with to be
// comparable with the official parser in officialSrc: 15 when the official
// parser.c is ABI 15 (reserved words change which inputs parse), else 14.
// $HARN_DIFFTEST_ABI=14 or 15 overrides it.
func TargetABI(officialSrc string) (int, error) {
	switch v := os.Getenv("HARN_DIFFTEST_ABI"); v {
	case "14":
		return 14, nil
	case "15":
		return 15, nil
	case "":
	default:
		return 0, fmt.Errorf("HARN_DIFFTEST_ABI=%q: want 14 or 15", v)
	}
	data, err := os.ReadFile(filepath.Join(officialSrc, "parser.c"))
	if err != nil {
		return 0, err
	}
	if m := abiRe.FindSubmatch(data); m != nil && string(m[1]) == "15" {
		return 15, nil
	}
	return 14, nil
}

// GenerateOurs runs the driver on officialSrc/grammar.json and lays out a
// parser source directory in outDir: our parser.c and tree_sitter/parser.h
// (ABI from TargetABI), plus the hand-written scanner and its helper headers
// copied from the official package (a scanner is not generated).
func GenerateOurs(ctx context.Context, driver, officialSrc, outDir string) error {
	if err := os.RemoveAll(outDir); err != nil {
		return err
	}
	abi, err := TargetABI(officialSrc)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, driver, "-abi", strconv.Itoa(abi), "-o", outDir, filepath.Join(officialSrc, "grammar.json"))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("our generator failed on %s: %v\n%s", filepath.Join(officialSrc, "grammar.json"), err, truncate(string(out), 4000))
	}
	for _, name := range []string{"scanner.c", "scanner.cc", "tree_sitter/alloc.h", "tree_sitter/array.h"} {
		data, err := os.ReadFile(filepath.Join(officialSrc, filepath.FromSlash(name)))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		dst := filepath.Join(outDir, filepath.FromSlash(name))
		if _, err := os.Stat(dst); err == nil {
			continue // the generator wrote its own
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
