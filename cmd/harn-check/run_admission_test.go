package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/evaluate"
)

// fakeRoutes is a [[routes]] entry pointing mock/fixture at a loopback
// provider (free, so no budget authority is needed).
func fakeRoutes(url string) string {
	return fmt.Sprintf(`
[[routes]]
provider = "mock"
model = "fixture"
operations = ["text_generation", "decision"]
structured_transport = "native_schema"
api = "openai_chat"
base_url = "%s/v1"
api_key_env = "FAKE_KEY"
context_window = 128000
input_price_per_mtok = 0.0
output_price_per_mtok = 0.0
`, url)
}

// fakeRouteCatalog writes fakeRoutes as a catalog file and returns it
// with the network grant the route needs.
func fakeRouteCatalog(t *testing.T, dir, url string) (cat, grant string) {
	t.Helper()
	return writeFile(t, dir, "http.toml", fakeRoutes(url)), "--allow-net=" + strings.TrimPrefix(url, "http://")
}

const admissionPolicy = `const policy: EvaluationPolicy = {
    backend: "structured_llm", provider: "mock", model: "fixture", threshold: 0.5,
  }`

// TestRunRefusesSitesNotInTheManifest (issue 26 item 1): under run
// --no-check, an evaluation whose site the checker did not admit (an
// erased receiver, a computed property, a method value) is refused before
// dispatch as unavailable/admission_refused, with a receipt naming the
// reason and no provider request; literal sites of the program and of an
// imported helper still dispatch. Checked, the erased receiver does not
// run at all, and the literal site runs under the checker's site list.
func TestRunRefusesSitesNotInTheManifest(t *testing.T) {
	srv, requests := chatFake(t)
	dir := t.TempDir()
	cat, grant := fakeRouteCatalog(t, dir, srv.URL)
	t.Setenv("FAKE_KEY", cliFakeKey)
	if err := os.Mkdir(filepath.Join(dir, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "lib"), "helper.harn", `import {boolean} from "std/predicate"

pub fn ask(llm: HarnessLlm, s: string) -> EvaluationOutcome {
  `+admissionPolicy+`
  return llm.evaluate("helper.v1", s, {ok: boolean("Is it fine?")}, policy)
}
`)
	program := func(name, prelude, call string) string {
		return writeFile(t, dir, name, `import {boolean} from "std/predicate"
import {ask} from "./lib/helper"

pipeline main(harness: Harness) {
  `+admissionPolicy+`
  `+prelude+`
  const o = `+call+`
  log(o.kind)
}
`)
	}
	for _, tc := range []struct {
		name, prelude, call, reason string
	}{
		{"erased receiver", `const erased: any = harness.llm`, `erased.evaluate("hidden.v1", "s", {ok: boolean("Is it fine?")}, policy)`, evaluate.AdmissionUnlistedSite},
		{"computed property", `const name = "evaluate"`, `harness.llm[name]("hidden.v1", "s", {ok: boolean("Is it fine?")}, policy)`, evaluate.AdmissionNonLiteralSite},
		{"method value", `const f = harness.llm.evaluate`, `f("hidden.v1", "s", {ok: boolean("Is it fine?")}, policy)`, evaluate.AdmissionNonLiteralSite},
		{"literal site", "", `harness.llm.evaluate("shown.v1", "s", {ok: boolean("Is it fine?")}, policy)`, ""},
		{"imported helper", "", `ask(harness.llm, "s")`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := program(strings.ReplaceAll(tc.name, " ", "_")+".harn", tc.prelude, tc.call)
			record := filepath.Join(t.TempDir(), "run.json")
			before := requests.Load()
			code, out, errs := runCLI(t, "run", "--no-check", "--catalog", cat, grant, "--run-record", record, path)
			sent := requests.Load() - before
			rr, data := readRunRecord(t, record)
			if code != 0 || len(rr.Evidence.Receipts) != 1 {
				t.Fatalf("exit %d\n%s\n%s\n%s", code, out, errs, data)
			}
			rc := rr.Evidence.Receipts[0]
			if tc.reason == "" {
				if !strings.Contains(out, "answered") || sent != 1 {
					t.Fatalf("literal site: %d requests\n%s", sent, out)
				}
			} else if !strings.Contains(out, "unavailable") || sent != 0 || rc["admission_reason"] != tc.reason || rc["physical_attempts"] != 0.0 {
				t.Fatalf("%d requests, receipt %v\n%s", sent, rc, out)
			}

			// Checked: the refused forms do not run; the literal ones run
			// with the checker's site list.
			before = requests.Load()
			code, out, errs = runCLI(t, "run", "--catalog", cat, grant, path)
			sent = requests.Load() - before
			switch {
			case tc.reason == evaluate.AdmissionUnlistedSite:
				if code != 1 || sent != 0 || !strings.Contains(errs, "HARN-TYP-033") {
					t.Errorf("checked erased receiver: exit %d, %d requests\n%s", code, sent, errs)
				}
			case tc.reason == "":
				if code != 0 || sent != 1 || !strings.Contains(out, "answered") {
					t.Errorf("checked literal site: exit %d, %d requests\n%s\n%s", code, sent, out, errs)
				}
			}
		})
	}
}

// TestTestRefusesSitesNotInTheManifest: harn-check test admits each
// program's evaluation sites as run does. A case whose evaluation goes
// through an erased receiver is refused before dispatch (its expected
// output is the refusal) with and without --no-check; a literal site
// dispatches.
func TestTestRefusesSitesNotInTheManifest(t *testing.T) {
	srv, requests := chatFake(t)
	dir := t.TempDir()
	writeFile(t, dir, "harn.toml", fakeRoutes(srv.URL))
	grant := "--allow-net=" + strings.TrimPrefix(srv.URL, "http://")
	t.Setenv("FAKE_KEY", cliFakeKey)
	program := func(name, prelude, call string) {
		writeFile(t, dir, name+".harn", `import {boolean} from "std/predicate"

pipeline main(harness: Harness) {
  `+admissionPolicy+`
  `+prelude+`
  const o = `+call+`
  log(o.kind)
}
`)
	}
	program("erased", `const erased: any = harness.llm`, `erased.evaluate("hidden.v1", "s", {ok: boolean("Is it fine?")}, policy)`)
	writeFile(t, dir, "erased.expected", "[harn] unavailable\n")
	for _, args := range [][]string{{"test", "--no-check", grant, dir}, {"test", grant, dir}} {
		before := requests.Load()
		code, out, errs := runCLI(t, args...)
		sent := requests.Load() - before
		noCheck := args[1] == "--no-check"
		switch {
		case noCheck && (code != 0 || sent != 0):
			t.Errorf("%v: exit %d, %d requests (want the refusal, none sent)\n%s%s", args, code, sent, out, errs)
		case !noCheck && (code == 0 || sent != 0 || !strings.Contains(out, "HARN-TYP-033")):
			t.Errorf("%v: exit %d, %d requests (want the check to fail the case, none sent)\n%s%s", args, code, sent, out, errs)
		}
	}
	if err := os.Remove(filepath.Join(dir, "erased.harn")); err != nil {
		t.Fatal(err)
	}
	program("literal", "", `harness.llm.evaluate("shown.v1", "s", {ok: boolean("Is it fine?")}, policy)`)
	writeFile(t, dir, "literal.expected", "[harn] answered\n")
	before := requests.Load()
	if code, out, errs := runCLI(t, "test", grant, dir); code != 0 || requests.Load()-before != 1 {
		t.Errorf("literal site: exit %d, %d requests\n%s%s", code, requests.Load()-before, out, errs)
	}
}
