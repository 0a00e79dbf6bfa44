package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cacheProgram is a Harn program making one evaluation on mock/fixture.
const cacheProgram = `import {boolean} from "std/predicate"

pipeline main(harness: Harness) {
  const policy: EvaluationPolicy = {
    backend: "structured_llm", provider: "mock", model: "fixture", threshold: 0.5,
  }
  const o = harness.llm.evaluate("cache.v1", "CACHE-STATE-SECRET", {ok: boolean("Is it fine?")}, policy)
  log(o.kind)
}
`

// TestRunEvaluationCache (issue 26 item 7): `run --evaluation-cache DIR`
// answers a repeated evaluation from the cache: no provider request, no
// credential or network grant needed, the same output, and a receipt with
// source "cache", zero attempts and cost and the original receipt in
// reused_from. Without the flag or a harn.toml grant nothing is written.
func TestRunEvaluationCache(t *testing.T) {
	srv, requests := chatFake(t)
	dir := t.TempDir()
	cat, grant := fakeRouteCatalog(t, dir, srv.URL)
	program := writeFile(t, dir, "main.harn", cacheProgram)
	cache := filepath.Join(t.TempDir(), "evals")
	record := filepath.Join(t.TempDir(), "run.json")

	// No cache granted: nothing written besides the run.
	t.Setenv("FAKE_KEY", cliFakeKey)
	code, live, errs := runCLI(t, "run", "--catalog", cat, grant, program)
	if code != 0 || requests.Load() != 1 || !strings.Contains(live, "answered") {
		t.Fatalf("uncached: exit %d, %d requests\n%s\n%s", code, requests.Load(), live, errs)
	}
	if names := dirNames(t, dir); fmt.Sprint(names) != "[http.toml main.harn]" {
		t.Errorf("the run wrote into the project without a grant: %v", names)
	}

	code, first, errs := runCLI(t, "run", "--catalog", cat, grant, "--evaluation-cache", cache, program)
	if code != 0 || requests.Load() != 2 || first != live {
		t.Fatalf("first cached run: exit %d, %d requests\n%s\n%s", code, requests.Load(), first, errs)
	}
	entries, _ := filepath.Glob(filepath.Join(cache, "*", "*.json"))
	if len(entries) != 1 {
		t.Fatalf("%d cache entries", len(entries))
	}
	data, _ := os.ReadFile(entries[0])
	if bytes.Contains(data, []byte(cliFakeKey)) || bytes.Contains(data, []byte("CACHE-STATE-SECRET")) {
		t.Errorf("the cache entry holds the credential or the state:\n%s", data)
	}
	if info, err := os.Stat(cache); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("cache folder mode %v (%v), want 0700", info.Mode().Perm(), err)
	}

	// Again, without the credential or the network grant.
	t.Setenv("FAKE_KEY", "")
	code, again, errs := runCLI(t, "run", "--catalog", cat, "--evaluation-cache", cache, "--run-record", record, program)
	if code != 0 || requests.Load() != 2 || again != live {
		t.Fatalf("cached run: exit %d, %d requests\n%s\n%s", code, requests.Load(), again, errs)
	}
	rr, recData := readRunRecord(t, record)
	if len(rr.Evidence.Receipts) != 1 {
		t.Fatalf("run record %s", recData)
	}
	rc := rr.Evidence.Receipts[0]
	orig, _ := rc["reused_from"].(map[string]any)
	if rc["source"] != "cache" || rc["physical_attempts"] != 0.0 || rc["cost_usd"] != 0.0 || rc["budget_charge_usd"] != 0.0 ||
		rc["accounting_status"] != "not_dispatched" || orig == nil || orig["source"] != "live" || orig["physical_attempts"] != 1.0 ||
		orig["evaluation_id"] != rc["evaluation_id"] {
		t.Errorf("cached receipt %s", recData)
	}

	// A folder others can write to is refused before the program runs.
	shared := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(shared, 0o700); err != nil || os.Chmod(shared, 0o777) != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "run", "--catalog", cat, "--evaluation-cache", shared, program)
	if code != 2 || out != "" || !strings.Contains(errs, "writable by others") {
		t.Errorf("shared folder: exit %d\n%s\n%s", code, out, errs)
	}
}

// dirNames lists a folder's entries.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	return names
}

// TestEvaluationCacheSettingCLI: harn.toml's [evaluation] cache grants a
// folder inside the project, used by run and llm evaluate without the
// flag; a setting pointing outside the project is the checker's and the
// run's HARN-CFG-001, and nothing is written there.
func TestEvaluationCacheSettingCLI(t *testing.T) {
	srv, requests := chatFake(t)
	dir := t.TempDir()
	routes := fakeRoutes(srv.URL)
	grant := "--allow-net=" + strings.TrimPrefix(srv.URL, "http://")
	writeFile(t, dir, "harn.toml", "[evaluation]\ncache = \".harn/evals\"\n"+routes)
	program := writeFile(t, dir, "main.harn", cacheProgram)
	t.Setenv("FAKE_KEY", cliFakeKey)
	for i := range 2 {
		code, out, errs := runCLI(t, "run", grant, program)
		if code != 0 || requests.Load() != 1 || !strings.Contains(out, "answered") {
			t.Fatalf("run %d: exit %d, %d requests\n%s\n%s", i, code, requests.Load(), out, errs)
		}
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, ".harn", "evals", "*", "*.json")); len(entries) != 1 {
		t.Fatalf("%d entries in the granted folder", len(entries))
	}

	// llm evaluate finds the same harn.toml above the working directory.
	t.Chdir(dir)
	req := writeFile(t, dir, "request.json", `{"site_id": "s.v1", "state": "ls", "questions": `+cliQuestion+`,
	  "policy": {"backend": "structured_llm", "provider": "mock", "model": "fixture", "threshold": 0.5}}`)
	for i, want := range []string{"live", "cache"} {
		code, out, errs := runCLIWithKey(t, "llm", "evaluate", "--request", req, "--json")
		var res struct {
			Outcome map[string]any `json:"outcome"`
			Receipt map[string]any `json:"receipt"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Receipt["source"] != want || res.Outcome["kind"] != "answered" || requests.Load() != 2 {
			t.Fatalf("llm evaluate %d: exit %d, %d requests\n%s\n%s", i, code, requests.Load(), out, errs)
		}
	}

	// A setting naming a folder outside the project.
	outside := t.TempDir()
	writeFile(t, dir, "harn.toml", fmt.Sprintf("[evaluation]\ncache = %q\n", outside)+routes)
	code, out, errs := runCLI(t, program)
	if code != 1 || !strings.Contains(out, "HARN-CFG-001") || !strings.Contains(out, "must be a folder inside the project") {
		t.Errorf("check: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "run", "--no-check", grant, program)
	if code != 1 || !strings.Contains(errs, "HARN-CFG-001") || requests.Load() != 2 {
		t.Errorf("run: exit %d\n%s\n%s", code, out, errs)
	}
	if names := dirNames(t, outside); len(names) != 0 {
		t.Errorf("written outside the project: %v", names)
	}
}
