package leia_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	leia "github.com/harnlang/harn-check/checker/leia"
	"github.com/harnlang/harn-check/diagnostics"
)

// TestCleanPrograms checks Leia programs written in upstream's style (both
// dialect styles, tools, agents, turns, models, evaluate blocks, the core
// language) and the repository's clean examples: no diagnostic at all.
func TestCleanPrograms(t *testing.T) {
	files, _ := filepath.Glob("testdata/clean/*.leia")
	examples, _ := filepath.Glob("../../examples/leia/*.leia")
	files = append(files, examples...)
	if len(files) < 10 {
		t.Fatalf("only %d clean programs", len(files))
	}
	// The examples are real files: the validators they name are read
	// from disk.
	disk := *explainHost
	disk.ReadFile = os.ReadFile
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range leia.Check(f, src, leia.Options{Host: &disk}).Diagnostics {
			t.Errorf("%s: %s %s %s", f, d.Severity, d.Code, d.Message)
		}
	}
}

// upstreamDir is a local copy of upstream Leia's files (never committed):
// LEIA_UPSTREAM, or the team's shared cache.
func upstreamDir() string {
	if d := os.Getenv("LEIA_UPSTREAM"); d != "" {
		return d
	}
	return "/work/upstream/gscript"
}

// knownUpstream lists the error diagnostics upstream's own programs are
// expected to get, as "relative/path CODE": a program that tests a failure
// on purpose.
// None today: calls made to see them fail (math.sin() in a pcall thunk) are
// no longer counted by the arity rule.
var knownUpstream = map[string]bool{}

// TestUpstreamPrograms checks every upstream Leia program of the local
// copy and the runnable examples of upstream's specification (```leia run
// blocks): no error diagnostic except the known ones. It skips, saying
// why, when there is no copy.
func TestUpstreamPrograms(t *testing.T) {
	root := upstreamDir()
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no upstream Leia copy at %s (set LEIA_UPSTREAM): %v", root, err)
	}
	var programs, specBlocks, errors int
	var found []string
	check := func(name string, src []byte) {
		for _, d := range leia.Check(name, src, leia.Options{Host: explainHost}).Diagnostics {
			if d.Severity != diagnostics.Error {
				continue
			}
			rel, _ := filepath.Rel(root, strings.SplitN(name, "#", 2)[0])
			key := rel + " " + d.Code
			if knownUpstream[key] {
				found = append(found, key)
				continue
			}
			errors++
			li := diagnostics.NewLineIndex(src)
			t.Errorf("%s:%d: %s %s", name, li.Line(d.Span.Start)+1, d.Code, d.Message)
		}
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, rerr := os.ReadFile(path)
		if rerr != nil {
			return rerr
		}
		switch filepath.Ext(path) {
		case ".leia":
			programs++
			check(path, src)
		case ".md":
			for i, block := range specExamples(string(src)) {
				specBlocks++
				check(fmt.Sprintf("%s#%d", path, i+1), []byte(block))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(found)
	t.Logf("upstream: %d programs and %d runnable spec examples checked, %d unexpected errors, known findings %v", programs, specBlocks, errors, found)
	if programs == 0 {
		t.Skipf("no .leia files under %s", root)
	}
}

var runBlock = regexp.MustCompile("(?s)```leia run[^\\n]*\\n(.*?)```")

// specExamples returns the fenced ```leia run blocks of a spec page: the
// examples upstream's own test suite runs and requires to succeed.
func specExamples(md string) []string {
	var out []string
	for _, m := range runBlock.FindAllStringSubmatch(md, -1) {
		out = append(out, m[1])
	}
	return out
}
