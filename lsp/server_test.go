package lsp_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/language"
	harnlanguage "github.com/harnlang/harn-check/language/harn"
	leialanguage "github.com/harnlang/harn-check/language/leia"
	"github.com/harnlang/harn-check/lsp"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/lsptest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// testLanguages are what leia-lsp serves (the languages harn-check
// checks, with their editor features) and the Fake test language; a test
// may add languages of its own to the copy it gets.
func testLanguages(more ...language.Language) []language.Language {
	return append([]language.Language{harnlanguage.Language, leialanguage.Language, lsptest.Fake}, more...)
}

// testChecks are the checks of testLanguages, as harn-check runs them.
var testChecks = language.Drivers(testLanguages())

// testStore returns a document store of testLanguages, as the server
// keeps one.
func testStore(t testing.TB) *cache.Store {
	langs, _ := language.Editors(testLanguages(), func(l language.Language, err error) {
		t.Fatalf("%s editor features: %v", l.Name, err)
	})
	return cache.NewStore(langs)
}

// checkOf returns the check of the test language of path.
func checkOf(t testing.TB, path string) driver.Language {
	l, ok := testChecks.ForPath(path)
	if !ok || l.Check == nil {
		t.Fatalf("no test language checks %s", path)
	}
	return l
}

// testOptions: the test languages, no debounce, and explanation links
// with a fixed base so goldens do not depend on the machine.
func testOptions() lsp.Options {
	return lsp.Options{Languages: testLanguages(), Debounce: -1, ExplainHref: func(code string) string {
		if _, ok := diagnostics.Lookup(code); !ok {
			return ""
		}
		return "file:///explain/" + code + ".md"
	}}
}

// transcript collects what a scenario observed, for a golden comparison.
type transcript struct {
	t *testing.T
	b bytes.Buffer
}

func (tr *transcript) add(label string, v any) {
	tr.t.Helper()
	var data []byte
	switch v := v.(type) {
	case lsptest.Message:
		if v.Error != nil {
			data, _ = json.MarshalIndent(map[string]any{"id": v.ID, "error": v.Error}, "", "  ")
		} else if v.Method != "" {
			data, _ = json.MarshalIndent(map[string]any{"method": v.Method, "params": v.Params}, "", "  ")
		} else {
			data, _ = json.MarshalIndent(map[string]any{"result": v.Result}, "", "  ")
		}
	default:
		var err error
		if data, err = json.MarshalIndent(v, "", "  "); err != nil {
			tr.t.Fatal(err)
		}
	}
	tr.b.WriteString("-- " + label + " --\n")
	tr.b.Write(data)
	tr.b.WriteString("\n")
}

// check compares the transcript with testdata/NAME.golden.
func (tr *transcript) check(name string) {
	tr.t.Helper()
	path := filepath.Join("testdata", name+".golden")
	got := tr.b.Bytes()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tr.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tr.t.Fatalf("%v (run go test ./lsp -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		tr.t.Errorf("%s differs from the golden file; got:\n%s", path, got)
	}
}

const fakeURI = "file:///w/a.fake"

func TestLifecycle(t *testing.T) {
	tr := &transcript{t: t}
	c := lsptest.Start(t, testOptions())
	tr.add("request before initialize", c.Call("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": fakeURI}, "position": lsptest.Pos(0, 0)}))
	init := c.Initialize("file:///w", nil)
	var res map[string]any
	if err := json.Unmarshal(init.Result, &res); err != nil {
		t.Fatal(err)
	}
	res["serverInfo"].(map[string]any)["version"] = "VERSION"
	tr.add("initialize", res)
	if err := c.Shutdown(); err != nil {
		t.Errorf("Serve after shutdown and exit = %v, want nil", err)
	}
	tr.check("lifecycle")

	c2 := lsptest.Start(t, testOptions())
	c2.Initialize("file:///w", nil)
	c2.Notify("exit", nil)
	// Exit without shutdown: Serve reports it so the binary exits 1.
	if err := c2.Exited(); err != lsp.ErrNoShutdown {
		t.Errorf("Serve after exit without shutdown = %v, want ErrNoShutdown", err)
	}
}
