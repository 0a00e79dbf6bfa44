package harn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/runtime/host"
)

func TestProjectScan(t *testing.T) {
	out, err := runSource(t, `import "std/project"
let ev = project_scan("app", {tiers: ["ambient", "config"]})
println("${ev.languages} ${ev.build_systems} ${ev.package_name} ${ev.build_commands} ${ev.makefile_targets}")
let tree = project_scan_tree(".", {depth: 3})
println(keys(tree))
println(project_scan_paths("."))
`, runOpts{files: map[string]string{
		"app/go.mod":                "module example.com/acme/widget\n",
		"app/go.sum":                "x v0.0.0 h1:abc\n",
		"app/cmd/w/main.go":         "package main\n",
		"app/Makefile":              "build:\n\tgo build ./...\nlint: build\n\tgo vet ./...\nX = 1\n",
		"web/package.json":          `{"name": "web", "scripts": {"test": "jest"}}`,
		"web/node_modules/a/go.mod": "module a\n",
		"docs/readme.txt":           "not a project\n",
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := "[go] [go] widget [go build ./..., go test ./..., make build] [build, lint]\n[., app, web]\n[., app, web]\n"
	if out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}

// Scanning a folder outside the program's needs the fs grant for it.
func TestProjectScanOutsideNeedsGrant(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "Cargo.toml"), []byte("[package]\nname = \"x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "import \"std/project\"\nlet r = try { project_scan(\"" + outside + "\").languages }\nprintln(is_err(r) ? unwrap_err(r) : unwrap(r))\n"
	out, err := runSource(t, src, runOpts{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "permission denied") || !strings.Contains(out, "--allow-fs") {
		t.Fatalf("denial %q does not name --allow-fs", out)
	}
	out, err = runSource(t, src, runOpts{grants: host.Grants{FS: []string{outside}}})
	if err != nil || out != "[rust]\n" {
		t.Fatalf("granted: %q, %v", out, err)
	}
}
