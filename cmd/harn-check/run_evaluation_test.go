package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/canonjson"
	"github.com/harnlang/harn-check/runtime/evaluate"
	"github.com/harnlang/harn-check/runtime/llm"
)

var seedPrograms = []struct{ file, secret, answered string }{
	{"seed_triage.harn", "WINDOW-STATE-TEXT", "[harn] answered disposition=drop risk=none safe=true"},
	{"seed_assess.harn", "ASSESS-STATE-TEXT", "[harn] verdict candidate receipt blake3:"},
}

type runRecord struct {
	Schema   string `json:"schema"`
	Status   string `json:"status"`
	Evidence struct {
		Receipts []map[string]any `json:"evaluation_receipts"`
		Gaps     []any            `json:"gaps"`
	} `json:"evidence"`
}

func readRunRecord(t *testing.T, path string) (runRecord, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rr runRecord
	if err := json.Unmarshal(data, &rr); err != nil {
		t.Fatal(err)
	}
	return rr, data
}

// The two seed examples under `harn-check run` on the mock route: answered,
// with receipts in the run record.
func TestRunSeedExamplesOnTheMockRoute(t *testing.T) {
	for _, p := range seedPrograms {
		t.Run(p.file, func(t *testing.T) {
			record := filepath.Join(t.TempDir(), "run.json")
			code, out, errs := runCLI(t, "run", "--run-record", record, filepath.Join("testdata", "evaluate", p.file))
			if code != 0 || !strings.Contains(out, p.answered) {
				t.Fatalf("exit %d\n%s\n%s", code, out, errs)
			}
			rr, data := readRunRecord(t, record)
			if rr.Schema != RunRecordSchema || rr.Status != "ok" || len(rr.Evidence.Receipts) != 1 || len(rr.Evidence.Gaps) != 0 {
				t.Fatalf("run record %s", data)
			}
			rc := rr.Evidence.Receipts[0]
			if rc["outcome_kind"] != "answered" || rc["physical_attempts"] != 1.0 || rc["source"] != "live" || rc["schema"] != evaluate.ReceiptSchema {
				t.Errorf("receipt %v", rc)
			}
			if !strings.Contains(out, fmt.Sprint(rc["invocation_id"])) {
				t.Errorf("the outcome's receipt handle is not the receipt's invocation id")
			}
			if bytes.Contains(data, []byte(p.secret)) {
				t.Errorf("the run record holds the state text")
			}
		})
	}
}

// The same programs against a tape recorded from a fake HTTP provider
// replay byte for byte without the provider, the credential or a network
// grant; a changed question set replays as replay_mismatch and fails.
func TestRunSeedExamplesReplayFromATape(t *testing.T) {
	srv, requests := chatFake(t)
	dir := t.TempDir()
	// The seed programs name mock/fixture; this catalog points that route
	// at the loopback provider.
	cat, grant := fakeRouteCatalog(t, dir, srv.URL)
	for _, p := range seedPrograms {
		t.Run(p.file, func(t *testing.T) {
			program := filepath.Join("testdata", "evaluate", p.file)
			tape := filepath.Join(t.TempDir(), "probe.tape")
			record := filepath.Join(t.TempDir(), "run.json")
			before := requests.Load()

			// Without the network grant the HTTP route is refused locally.
			code, out, _ := runCLI(t, "run", "--catalog", cat, program)
			if code != 0 || strings.Contains(out, "answered") || strings.Contains(out, "verdict") || requests.Load() != before {
				t.Fatalf("without --allow-net: exit %d, %d requests\n%s", code, requests.Load()-before, out)
			}

			t.Setenv("FAKE_KEY", cliFakeKey)
			code, live, errs := runCLI(t, "run", "--catalog", cat, grant, "--evaluation-tape", tape, "--run-record", record, program)
			if code != 0 || !strings.Contains(live, strings.TrimSuffix(p.answered, " receipt blake3:")) || requests.Load() != before+1 {
				t.Fatalf("record: exit %d, %d requests\n%s\n%s", code, requests.Load()-before, live, errs)
			}
			rr, data := readRunRecord(t, record)
			if len(rr.Evidence.Receipts) != 1 || rr.Evidence.Receipts[0]["served_model"] != "judge-2026" ||
				bytes.Contains(data, []byte(cliFakeKey)) || bytes.Contains(data, []byte(p.secret)) {
				t.Fatalf("recorded run record: %s", data)
			}
			tapeData, _ := os.ReadFile(tape)
			if bytes.Contains(tapeData, []byte(cliFakeKey)) {
				t.Error("the tape holds the credential")
			}
			verifyTape(t, cat, tapeData)

			t.Setenv("FAKE_KEY", "")
			code, replayed, errs := runCLI(t, "run", "--catalog", cat, "--evaluation-tape", tape, "--run-record", record, program)
			if code != 0 || replayed != live || requests.Load() != before+1 {
				t.Fatalf("replay: exit %d, %d requests\nlive:\n%s\nreplayed:\n%s\n%s", code, requests.Load()-before, live, replayed, errs)
			}
			rr, _ = readRunRecord(t, record)
			if rc := rr.Evidence.Receipts[0]; rc["source"] != "tape" || rc["physical_attempts"] != 0.0 || rc["reused_from"] == nil {
				t.Errorf("replayed receipt %v", rc)
			}

			// A changed question set.
			src, _ := os.ReadFile(program)
			changedSrc := strings.Replace(string(src), "?\",", " at all?\",", 1)
			if changedSrc == string(src) {
				t.Fatal("the program was not changed")
			}
			changed := writeFile(t, filepath.Dir(program), "changed_"+p.file, changedSrc)
			defer os.Remove(changed)
			code, out, errs = runCLI(t, "run", "--catalog", cat, "--evaluation-tape", tape, changed)
			if code != 1 || !strings.Contains(out, "replay_mismatch") || !strings.Contains(errs, "replay mismatch") || requests.Load() != before+1 {
				t.Errorf("changed questions: exit %d\n%s\n%s", code, out, errs)
			}
		})
	}
}

// verifyTape checks every recorded receipt against its recorded request,
// as `llm evaluate --verify-receipt` does.
func verifyTape(t *testing.T, catFile string, data []byte) {
	t.Helper()
	tape, err := llm.ReadTape(bytes.NewReader(data), "probe.tape")
	if err != nil {
		t.Fatal(err)
	}
	cat, _, err := catalog.Load(catalog.OS, catFile)
	if err != nil {
		t.Fatal(err)
	}
	_ = catalog.Default
	for _, rec := range tape.Records() {
		var resp struct {
			Receipt json.RawMessage `json:"receipt"`
		}
		_ = json.Unmarshal(rec.Response, &resp)
		v, err := evaluate.Verify(cat, rec.Request, resp.Receipt)
		if err != nil || !v.Verified {
			t.Errorf("record %d does not verify: %v %s", rec.Seq, err, canonjson.MustEncode(v.Value()))
		}
	}
}

// The run record keeps at most 1024 receipts and counts the rest in
// evidence.gaps.
func TestRunRecordOverflow(t *testing.T) {
	record := filepath.Join(t.TempDir(), "run.json")
	code, out, errs := runCLI(t, "run", "--run-record", record, filepath.Join("testdata", "evaluate", "many.harn"))
	if code != 0 || !strings.Contains(out, "answered 1030") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	rr, _ := readRunRecord(t, record)
	if len(rr.Evidence.Receipts) != evaluate.MaxJournal || len(rr.Evidence.Gaps) != 1 {
		t.Fatalf("%d receipts, gaps %v", len(rr.Evidence.Receipts), rr.Evidence.Gaps)
	}
	if g := rr.Evidence.Gaps[0].(map[string]any); g["kind"] != "evaluation_receipts" || g["dropped"] != 6.0 {
		t.Errorf("gap %v", g)
	}
}

// --run-cost-limit installs the run's ceiling before the first call: an
// evaluation it cannot cover is a budget_cut with no request.
func TestRunCostLimit(t *testing.T) {
	srv, requests := chatFake(t)
	dir := t.TempDir()
	cat := writeFile(t, dir, "http.toml", fmt.Sprintf(`
[[routes]]
provider = "mock"
model = "fixture"
operations = ["text_generation", "decision"]
structured_transport = "native_schema"
api = "openai_chat"
base_url = "%s/v1"
api_key_env = "FAKE_KEY"
context_window = 128000
input_price_per_mtok = 1.0
output_price_per_mtok = 1.0
`, srv.URL))
	t.Setenv("FAKE_KEY", cliFakeKey)
	record := filepath.Join(dir, "run.json")
	code, out, errs := runCLI(t, "run", "--catalog", cat, "--allow-net", "--run-cost-limit", "0.000001", "--run-record", record,
		filepath.Join("testdata", "evaluate", "budget.harn"))
	if code != 0 || !strings.Contains(out, "budget_cut run_cost") || !strings.Contains(out, "remaining 0.000001") || requests.Load() != 0 {
		t.Fatalf("exit %d, %d requests\n%s\n%s", code, requests.Load(), out, errs)
	}
	rr, _ := readRunRecord(t, record)
	if rc := rr.Evidence.Receipts[0]; rc["outcome_kind"] != "budget_cut" || rc["physical_attempts"] != 0.0 {
		t.Errorf("receipt %v", rc)
	}
	// Without the ceiling the same call is admitted.
	code, out, _ = runCLI(t, "run", "--catalog", cat, "--allow-net", filepath.Join("testdata", "evaluate", "budget.harn"))
	if code != 0 || !strings.Contains(out, "answered") || requests.Load() != 1 {
		t.Errorf("without a ceiling: exit %d\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "run", "--run-cost-limit", "-2", filepath.Join("testdata", "evaluate", "budget.harn")); code != 2 {
		t.Errorf("negative limit: exit %d", code)
	}
}
