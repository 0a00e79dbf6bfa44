package manifest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/checker/harn"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// repoLoader reads repository-relative paths from the package directory,
// so manifests name sources as users see them ("examples/...").
var repoLoader = harn.LoaderFunc(func(p string) ([]byte, error) { return os.ReadFile(filepath.Join("..", p)) })

func checkManifest(t *testing.T, path string, src []byte, loader harn.Loader) (json.RawMessage, *harn.Result) {
	t.Helper()
	res := harn.Check(path, src, harn.Options{Loader: loader})
	m, diags := FromCheck(path, src, res)
	if (m == nil) != (len(diags) == 1) {
		t.Fatalf("%s: manifest %s with %d explanations", path, m, len(diags))
	}
	return m, res
}

// TestExampleManifests pins the manifest of every Harn example, including
// examples/audit/entry.harn whose import chain is two modules deep. The
// examples under examples/broken/ fail checking on purpose (they show the
// checker's findings) and have no manifest.
func TestExampleManifests(t *testing.T) {
	all, _ := filepath.Glob("../examples/*/*.harn")
	var files []string
	for _, f := range all {
		if filepath.Base(filepath.Dir(f)) != "broken" {
			files = append(files, f)
		}
	}
	if len(files) < 5 {
		t.Fatalf("only %d examples found", len(files))
	}
	for _, f := range files {
		rel, _ := filepath.Rel("..", f)
		rel = filepath.ToSlash(rel)
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, res := checkManifest(t, rel, src, repoLoader)
			if m == nil {
				t.Fatalf("example failed checking: %+v", res.Diagnostics)
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, m, "", "  "); err != nil {
				t.Fatal(err)
			}
			pretty.WriteByte('\n')
			golden := filepath.Join("testdata", "examples", strings.ReplaceAll(strings.TrimPrefix(rel, "examples/"), "/", "_")+".json")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./manifest -update)", err)
			}
			if !bytes.Equal(pretty.Bytes(), want) {
				t.Errorf("manifest differs from %s:\n%s", golden, pretty.Bytes())
			}
		})
	}
	// What the goldens must say, so a careless -update is caught.
	src, _ := os.ReadFile("../examples/audit/entry.harn")
	m, _ := checkManifest(t, "examples/audit/entry.harn", src, repoLoader)
	var doc Document
	if err := json.Unmarshal(m, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Sites) != 2 || doc.Sites[0].Source != "examples/audit/assess.harn" || doc.Sites[0].ID != "audit.finding.holds.v1" ||
		doc.Sites[1].Source != "examples/audit/entry.harn" || doc.Sites[1].ID != "audit.severity.v1" {
		t.Errorf("two-deep import chain: %+v", doc.Sites)
	}
	if q := doc.Sites[1].Questions; len(q) != 1 || q[0].ID != "severity" || q[0].Kind != "choice" || q[0].OptionCount != 2 {
		t.Errorf("census %+v", q)
	}
	want := QuestionSetSHA256([]Question{{ID: "severity", Kind: "choice", Instructions: "How severe is this report?", Labels: []string{"low", "high"}}})
	if *doc.Sites[1].QuestionSetSHA256 != want {
		t.Errorf("question-set digest %s, want %s", *doc.Sites[1].QuestionSetSHA256, want)
	}
	labels, _ := os.ReadFile("../examples/triage/labels.harn")
	if m, _ := checkManifest(t, "examples/triage/labels.harn", labels, repoLoader); string(m) != `{"schema":"harn.predicate_sites.v2","sites":[]}` {
		t.Errorf("a closure without sites: %s", m)
	}
}

func TestFailedImportGivesNullManifest(t *testing.T) {
	files := harn.MapLoader{
		"lib/helper.harn": []byte("pub fn helper() -> int {\n  return \"not an int\" - 1\n}\n"),
	}
	src := []byte("import {helper} from \"./lib/helper\"\n\nfn main() {\n  log(helper())\n}\n")
	res := harn.Check("main.harn", src, harn.Options{Loader: files})
	m, diags := FromCheck("main.harn", src, res)
	if m != nil || len(diags) != 1 {
		t.Fatalf("manifest %s, diagnostics %+v", m, diags)
	}
	d := diags[0]
	if d.Code != codeNoManifest || d.Source != "predicate" || !strings.Contains(d.Message, "imported module") || len(d.Related) == 0 {
		t.Errorf("explanation %+v", d)
	}
}

// Formatting, comments and unrelated code do not change a site's digests.
func TestDigestsIgnoreFormatting(t *testing.T) {
	src, _ := os.ReadFile("../examples/audit/entry.harn")
	reformatted := strings.NewReplacer(
		"const policy", "// a comment\n  const policy",
		"\"How severe is this report?\", {", "\"How severe is this report?\",   {\n",
		"fn main(", "fn unrelated() -> int {\n  return 1\n}\n\nfn main(",
	).Replace(string(src))
	if reformatted == string(src) {
		t.Fatal("replacements did not apply")
	}
	a, _ := checkManifest(t, "examples/audit/entry.harn", src, repoLoader)
	b, _ := checkManifest(t, "examples/audit/entry.harn", []byte(reformatted), repoLoader)
	var da, db Document
	json.Unmarshal(a, &da)
	json.Unmarshal(b, &db)
	if len(da.Sites) != 2 || len(db.Sites) != 2 {
		t.Fatalf("sites %d / %d", len(da.Sites), len(db.Sites))
	}
	for i := range da.Sites {
		if *da.Sites[i].QuestionSetSHA256 != *db.Sites[i].QuestionSetSHA256 || da.Sites[i].InputTypeSHA256 != db.Sites[i].InputTypeSHA256 {
			t.Errorf("site %s: digests changed by formatting", da.Sites[i].ID)
		}
	}
	relabelled := strings.Replace(string(src), "high: \"Breaks", "severe: \"Breaks", 1)
	relabelled = strings.Replace(relabelled, "choice == \"high\"", "choice == \"severe\"", 1)
	c, _ := checkManifest(t, "examples/audit/entry.harn", []byte(relabelled), repoLoader)
	var dc Document
	json.Unmarshal(c, &dc)
	if len(dc.Sites) != 2 || *dc.Sites[1].QuestionSetSHA256 == *da.Sites[1].QuestionSetSHA256 {
		t.Errorf("relabelling must change the digest")
	}
}

// TestLiteralSites: the literal sites are the manifest's sites on a file
// that checks; on a failing file they still list the sites refused only
// for their route (runtime admission owns that refusal), never an erased
// receiver's call.
func TestLiteralSites(t *testing.T) {
	src := []byte(`import {boolean} from "std/predicate"

pipeline main(harness: Harness) {
  const ok: EvaluationPolicy = {backend: "structured_llm", provider: "mock", model: "fixture", threshold: 0.5}
  const gone: EvaluationPolicy = {backend: "structured_llm", provider: "acme", model: "nobody", threshold: 0.5}
  const erased: any = harness.llm
  const a = harness.llm.evaluate("shown.v1", "s", {q: boolean("Is it?")}, ok)
  const b = harness.llm.evaluate("route.v1", "s", {q: boolean("Is it?")}, gone)
  const c = erased.evaluate("hidden.v1", "s", {q: boolean("Is it?")}, ok)
  log("${a.kind} ${b.kind} ${c.kind}")
}
`)
	res := harn.Check("main.harn", src, harn.Options{})
	if !res.Failed {
		t.Fatal("the program checks clean")
	}
	got := LiteralSites("main.harn", src, res)
	want := []LiteralSite{{"main.harn", "shown.v1", 7, 13}, {"main.harn", "route.v1", 8, 13}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("literal sites %+v, want %+v", got, want)
	}
	// A passing file: exactly the manifest's sites.
	clean := []byte(strings.Join(strings.Split(string(src), "\n")[:7], "\n") + "\n  log(a.kind)\n}\n")
	res = harn.Check("main.harn", clean, harn.Options{})
	m, _ := FromCheck("main.harn", clean, res)
	var doc Document
	if err := json.Unmarshal(m, &doc); err != nil {
		t.Fatalf("%v: %s %+v", err, m, res.Diagnostics)
	}
	got = LiteralSites("main.harn", clean, res)
	if len(doc.Sites) != 1 || len(got) != 1 || got[0] != (LiteralSite{doc.Sites[0].Source, doc.Sites[0].ID, doc.Sites[0].Line, doc.Sites[0].Column}) {
		t.Errorf("literal sites %+v, manifest %+v", got, doc.Sites)
	}
}
