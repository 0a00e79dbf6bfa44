package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The boundary probes (issue #25, sections 1 and 2): a hostile program
// or fixture must not read a file past the program's boundary, nor print
// or persist a secret it finds. Each runs harn-check as a child process
// like the hostile-input probes (probes_test.go) and shares their checks:
// no crash, bounded memory, and probeSecret never printed.
func boundaryProbes() []probe {
	dotenv := func(t *testing.T, dir string) {
		write(t, filepath.Join(dir, ".env"), []byte("OPENAI_API_KEY="+probeSecret+"\n"))
		write(t, filepath.Join(dir, "p", "a.harn"), []byte("import \"../.env\"\nprintln(1)\n"))
	}
	return []probe{
		{
			name: "import-dotenv-check",
			setup: func(t *testing.T, dir string) []string {
				dotenv(t, dir)
				return []string{"check", "--no-cache", "p/a.harn"}
			},
			exit:  exitFail,
			check: contains("HARN-MOD-001", "not a Harn module"),
		},
		{
			name: "import-dotenv-check-json",
			setup: func(t *testing.T, dir string) []string {
				dotenv(t, dir)
				write(t, filepath.Join(dir, "p", "b.harn"), []byte("import {x} from \"./notes.txt\"\nprintln(x)\n"))
				write(t, filepath.Join(dir, "p", "notes.txt"), []byte("pub let x = \""+probeSecret+"\"\n"))
				return []string{"check", "--no-cache", "--format", "json", "p"}
			},
			exit:  exitFail,
			check: countCodes(map[string]int{"HARN-MOD-001": 2}),
		},
		{
			name: "import-dotenv-run",
			setup: func(t *testing.T, dir string) []string {
				dotenv(t, dir)
				return []string{"run", "--no-check", "p/a.harn"}
			},
			exit:  exitFail,
			check: contains("not a Harn module"),
		},
		{
			name: "leia-validator-outside-named",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "outside", "token.env"), []byte("TOKEN="+probeSecret+"\n"))
				write(t, filepath.Join(dir, "prog", "a.leia"), []byte("agent A {\n  validator: \"../outside/token.env\"\n}\n"))
				return []string{"check", "--no-cache", "prog/a.leia"}
			},
			exit:  exitFail,
			check: contains("LEIA3008", "not read"),
		},
		{
			name: "leia-validator-outside-rhai",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "outside", "t.rhai"), []byte("let "+probeSecret+" = ;\n"))
				write(t, filepath.Join(dir, "prog", "a.leia"), []byte("agent A {\n  validator: \"../outside/t.rhai\"\n}\n"))
				return []string{"check", "--no-cache", "prog/a.leia"}
			},
			exit:  exitFail,
			check: contains("LEIA3008", "outside the folder"),
		},
		{
			name: "leia-validator-hard-link",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "outside", "t.rhai"), []byte("let "+probeSecret+" = ;\n"))
				hardlink(t, filepath.Join(dir, "outside", "t.rhai"), filepath.Join(dir, "prog", "v.rhai"))
				write(t, filepath.Join(dir, "prog", "a.leia"), []byte("agent A {\n  validator: \"v.rhai\"\n}\n"))
				return []string{"check", "--no-cache", "prog/a.leia"}
			},
			exit:  exitFail,
			check: contains("LEIA3008", "2 hard links"),
		},
		{
			name: "hard-link-in-folder-check",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "elsewhere", "secret.harn"), []byte("fn main() { log(\""+probeSecret+"\" + nope) }\n"))
				hardlink(t, filepath.Join(dir, "elsewhere", "secret.harn"), filepath.Join(dir, "src", "x.harn"))
				write(t, filepath.Join(dir, "src", "ok.harn"), []byte("fn main() {}\n"))
				return []string{"--no-cache", "src"}
			},
			exit:  exitOK,
			check: countCodes(map[string]int{"HARN-IO-004": 1}),
		},
		{
			name: "hard-link-read-harn",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "elsewhere", "secret.txt"), []byte(probeSecret))
				hardlink(t, filepath.Join(dir, "elsewhere", "secret.txt"), filepath.Join(dir, "p", "linked.txt"))
				write(t, filepath.Join(dir, "p", "main.harn"), []byte("println(read_file(\"linked.txt\"))\n"))
				return []string{"run", "--no-check", "p/main.harn"}
			},
			exit:  exitFail,
			check: contains("permission denied", "hard links"),
		},
		{
			name: "hard-link-read-leia",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "elsewhere", "secret.txt"), []byte(probeSecret))
				hardlink(t, filepath.Join(dir, "elsewhere", "secret.txt"), filepath.Join(dir, "p", "linked.txt"))
				write(t, filepath.Join(dir, "p", "main.leia"), []byte("local f = assert(io.open(\"linked.txt\"))\nprint(f:read(\"a\"))\n"))
				return []string{"run", "--no-check", "p/main.leia"}
			},
			exit:  exitFail,
			check: contains("hard links"),
		},
		{
			name: "hard-link-require-leia",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "elsewhere", "m.leia"), []byte("return \""+probeSecret+"\"\n"))
				hardlink(t, filepath.Join(dir, "elsewhere", "m.leia"), filepath.Join(dir, "p", "m.leia"))
				symlink(t, filepath.Join(dir, "elsewhere", "m.leia"), filepath.Join(dir, "p", "s.leia"))
				write(t, filepath.Join(dir, "p", "main.leia"), []byte("print(pcall(require, \"s\"))\nprint(require(\"m\"))\n"))
				return []string{"run", "--no-check", "p/main.leia"}
			},
			exit:  exitFail,
			check: contains("hard links"),
		},
		{
			name: "temp-sibling-harn",
			setup: func(t *testing.T, dir string) []string {
				// dir lies in the system temp dir, like the sibling.
				write(t, filepath.Join(dir, "sibling", "secret.txt"), []byte(probeSecret))
				write(t, filepath.Join(dir, "p", "main.harn"), []byte(
					"const t = temp_dir()\nwrite_file(t + \"/scratch.txt\", \"ok\")\nprintln(read_file(t + \"/scratch.txt\"))\n"+
						"println(env(\"TMPDIR\") == t)\nprintln(read_file(\"../sibling/secret.txt\"))\n"))
				return []string{"run", "--no-check", "p/main.harn"}
			},
			exit:  exitFail,
			check: contains("ok\ntrue\n", "permission denied: read", "sibling/secret.txt"),
		},
		{
			name: "temp-sibling-leia",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "sibling", "secret.txt"), []byte(probeSecret))
				write(t, filepath.Join(dir, "p", "main.leia"), []byte(
					"t := os.getenv(\"TMPDIR\")\nf := io.open(t .. \"/scratch.txt\", \"w\")\nf:write(\"ok\")\nf:close()\n"+
						"print(io.open(t .. \"/scratch.txt\"):read(\"a\"))\nprint(io.open(\"../sibling/secret.txt\"))\n"))
				return []string{"run", "--no-check", "p/main.leia"}
			},
			exit:  exitOK,
			check: contains("ok\n", "permission denied: read", "sibling/secret.txt"),
		},
		{
			name: "import-outside-folder-run",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "lib", "m.harn"), []byte("pub fn f() -> string { return \""+probeSecret+"\" }\n"))
				write(t, filepath.Join(dir, "p", "main.harn"), []byte("import {f} from \"../lib/m\"\nprintln(f())\n"))
				return []string{"run", "--no-check", "p/main.harn"}
			},
			exit:  exitFail,
			check: contains("permission denied: read", "--allow-fs="),
		},
		{
			name: "symlink-require-leia",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "elsewhere", "m.leia"), []byte("return \""+probeSecret+"\"\n"))
				symlink(t, filepath.Join(dir, "elsewhere", "m.leia"), filepath.Join(dir, "p", "s.leia"))
				write(t, filepath.Join(dir, "p", "main.leia"), []byte("print(require(\"s\"))\n"))
				return []string{"run", "--no-check", "p/main.leia"}
			},
			exit:  exitFail,
			check: contains("module 's'"),
		},
		{
			name: "import-link-to-dotenv",
			setup: func(t *testing.T, dir string) []string {
				dotenv(t, dir)
				symlink(t, filepath.Join(dir, ".env"), filepath.Join(dir, "p", "m.harn"))
				write(t, filepath.Join(dir, "p", "b.harn"), []byte("import \"./m\"\nprintln(1)\n"))
				return []string{"check", "--no-cache", "p/b.harn"}
			},
			exit:  exitFail,
			check: contains("HARN-MOD-001", "not a Harn module"),
		},
		{
			name: "import-link-to-dotenv-run",
			setup: func(t *testing.T, dir string) []string {
				write(t, filepath.Join(dir, "p", "notes.txt"), []byte("OPENAI_API_KEY="+probeSecret+"\n"))
				symlink(t, "notes.txt", filepath.Join(dir, "p", "m.harn"))
				write(t, filepath.Join(dir, "p", "b.harn"), []byte("import \"./m\"\nprintln(1)\n"))
				return []string{"run", "--no-check", "p/b.harn"}
			},
			exit:  exitFail,
			check: contains("not a Harn module"),
		},
	}
}

// hardlink makes link a second name of target, skipping the test where
// the file system has no hard links.
func hardlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(target, link); err != nil {
		t.Skipf("cannot make a hard link: %v", err)
	}
}

func TestBoundaryProbes(t *testing.T) {
	if testing.Short() {
		t.Skip("the boundary probes run harn-check as a child process; skipped in -short")
	}
	for _, p := range boundaryProbes() {
		t.Run(p.name, func(t *testing.T) {
			dir := t.TempDir()
			args := p.setup(t, dir)
			r := runProbe(t, filepath.Join(dir, p.subdir), args, "")
			checkProbe(t, p.name, p, dir, r)
		})
	}
}
