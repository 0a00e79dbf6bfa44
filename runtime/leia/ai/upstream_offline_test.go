package ai

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/runner"
)

// upstreamOfflineMockScripts are the answers upstream's example mock gives
// the programs whose asserts check a model's exact text (upstream's
// `leia examples check` runs them with a mock keyed by model name); the
// other programs get the generic mock's request-derived answers.
var upstreamOfflineMockScripts = map[string]string{
	"examples/llm/direct_turn.leia":                `{"text":"Direct llm.turn keeps examples simple."}`,
	"examples/llm/streaming_turn.leia":             `{"text":"hello stream"}`,
	"examples/ai/tagged_agent_workflow.leia":       `{"text":"Direct llm.turn keeps examples simple."}`,
	"examples/ai/record_replay_trace_project.leia": `{"text":"hello stream"}`,
}

// upstreamOfflineSelected reports whether a path (relative to the upstream
// root, slash-separated) is one of upstream's offline self-checking AI
// programs: every .leia program under examples/ai (upstream's `leia
// examples check` runs them with no network: with their companion
// .records.json replayed when they have one, else as plain programs or
// with its mock provider) and those of examples/llm that it runs with its
// mock provider (all but the two live GLM smoke tests, which need a
// provider key).
func upstreamOfflineSelected(rel string) bool {
	if !strings.HasSuffix(rel, ".leia") {
		return false
	}
	switch {
	case strings.HasPrefix(rel, "examples/ai/"):
		return true
	case strings.HasPrefix(rel, "examples/llm/"):
		base := filepath.Base(rel)
		return base != "glm_smoke.leia" && base != "glm_direct_agent_tools.leia"
	}
	return false
}

// TestUpstreamOfflineAIPrograms runs upstream Leia's offline self-checking
// AI programs (upstreamOfflineSelected) as upstream runs them: the
// project workflows upstream replays (upstreamReplayed) replay their
// companion NAME.records.json strictly, the others run with the generic
// offline mock. A program passes when it ends without
// error, which means its own asserts held. The programs are read at run
// time from LEIA_UPSTREAM (default /work/upstream/gscript), never copied
// here; the test skips, saying so, when they are absent. It logs every
// failure and the pass count, and fails below LEIA_UPSTREAM_AI_MIN passes
// (default: all but two of the programs found).
func TestUpstreamOfflineAIPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: runs every upstream AI program")
	}
	root := os.Getenv("LEIA_UPSTREAM")
	if root == "" {
		root = "/work/upstream/gscript"
	}
	var programs []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if upstreamOfflineSelected(filepath.ToSlash(rel)) {
			programs = append(programs, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(programs) == 0 {
		t.Skipf("SKIP: no upstream Leia AI programs under %s (set LEIA_UPSTREAM to a copy of never-labs/gscript)", root)
	}
	sort.Strings(programs)
	pass := 0
	var failures []string
	for _, rel := range programs {
		full := filepath.Join(root, filepath.FromSlash(rel))
		out, err := runUpstreamOffline(t, full, upstreamOfflineMockScripts[rel])
		if err == nil {
			pass++
			continue
		}
		first := strings.SplitN(err.Error(), "\n", 2)[0]
		failures = append(failures, rel+": "+first)
		if os.Getenv("LEIA_UPSTREAM_VERBOSE") != "" {
			t.Logf("%s output:\n%s", rel, out)
		}
	}
	for _, f := range failures {
		t.Logf("fail %s", f)
	}
	t.Logf("upstream offline AI programs: %d of %d pass", pass, len(programs))
	min := len(programs) - 2
	if v := os.Getenv("LEIA_UPSTREAM_AI_MIN"); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			min = n
		}
	}
	if pass < min {
		t.Errorf("%d of %d upstream offline AI programs pass, want at least %d", pass, len(programs), min)
	}
}

// upstreamReplayed reports whether upstream's examples check replays a
// program's companion .records.json (its llm-replay runner) rather than
// running it plainly: the project-level AI workflows it names.
func upstreamReplayed(path string) bool {
	p := filepath.ToSlash(path)
	for _, name := range []string{"/ai/coding_agent_replay.leia", "/ai/coding_agent_project/", "/ai/tagged_agent_workflow.leia",
		"/ai/general_agent_workflow.leia", "/ai/general_analysis_assistant.leia", "/ai/translation_research_assistant.leia",
		"/ai/record_replay_trace_project.leia", "/workflow/support_triage_replay.leia"} {
		if strings.Contains(p, name) {
			return true
		}
	}
	return false
}

// runUpstreamOffline runs one upstream program offline: replaying its
// companion .records.json strictly when upstream does (upstreamReplayed)
// and it has one, else with the generic mock (and script, when given).
func runUpstreamOffline(t *testing.T, path, script string) (string, error) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	records := strings.TrimSuffix(path, ".leia") + ".records.json"
	if _, err := os.Stat(records); err != nil || !upstreamReplayed(path) {
		return runWithMockScript(t, path, src, script)
	}
	dir := t.TempDir()
	var out bytes.Buffer
	env := runner.Env{Stdout: &out, Stderr: &out, TempDir: dir,
		LLM: runner.LLMConfig{Mode: runner.LLMReplay, Fixture: records}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = RunProgram(ctx, runner.Program{Path: path, Src: src}, env)
	return out.String(), err
}
