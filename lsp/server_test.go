package lsp_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/frontends"
	"github.com/harnlang/harn-check/lsp"
	"github.com/harnlang/harn-check/lsp/harnlang"
	"github.com/harnlang/harn-check/lsp/leialang"
	"github.com/harnlang/harn-check/lsp/lsptest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// init registers what leia-lsp registers: the front ends harn-check uses,
// Harn's and Leia's editor features, and the Fake test language.
func init() {
	frontends.Register()
	if err := harnlang.Register(); err != nil {
		panic(err)
	}
	if err := leialang.Register(); err != nil {
		panic(err)
	}
	lsptest.RegisterFake()
}

// testOptions: no debounce, and explanation links with a fixed base so
// goldens do not depend on the machine.
func testOptions() lsp.Options {
	return lsp.Options{Debounce: -1, ExplainHref: func(code string) string {
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
