package main

import (
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
