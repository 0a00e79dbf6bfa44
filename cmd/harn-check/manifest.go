package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
)

// manifestDocument is the output of `harn-check manifest --json`: the
// predicate-site manifest of every checked file, in discovery order.
type manifestDocument struct {
	SchemaVersion int            `json:"schemaVersion"`
	Files         []manifestFile `json:"files"`
}

type manifestFile struct {
	Path              string          `json:"path"`
	PredicateManifest json.RawMessage `json:"predicate_manifest"`
}

func manifestCommand() *command {
	return &command{
		name: "manifest", args: "PATH...", summary: "print the predicate-site manifests of files",
		about: "The harn.predicate_sites.v2 manifest of every checked file: the evaluation sites\nauditors need. --json prints one document for the run.",
		setup: func(fs *flagSet) action {
			asJSON := fs.Bool("json", false, "print one JSON document with every file's manifest")
			var cache cacheFlags
			cache.register(fs)
			return func(e *env, paths []string) int { return runManifest(e, paths, *asJSON, cache) }
		},
	}
}

func runManifest(e *env, paths []string, asJSON bool, cache cacheFlags) int {
	if len(paths) == 0 {
		return fail(e, "no paths given (usage: harn-check manifest [--json] PATH...)")
	}
	report, err := checkPaths(e, cache, paths, true)
	if err != nil {
		return driverError(e, err)
	}
	doc := manifestDocument{SchemaVersion: diagnostics.JSONSchemaVersion, Files: []manifestFile{}}
	for _, f := range report.Files {
		m := f.Manifest
		if m == nil {
			m = json.RawMessage("null")
		}
		doc.Files = append(doc.Files, manifestFile{Path: f.Path, PredicateManifest: m})
	}
	if asJSON {
		if err := printJSON(e, doc); err != nil {
			return fail(e, "writing output: %v", err)
		}
	} else {
		for _, f := range report.Files {
			if f.Manifest == nil {
				why := "no manifest (the file was not checked completely)"
				if strings.EqualFold(filepath.Ext(f.Path), ".leia") {
					// Evaluation sites are Harn's (harn.predicate_sites);
					// a Leia file has none to list, checked or not.
					why = "no evaluation sites (Leia files declare none; the manifest lists Harn's)"
				}
				fmt.Fprintf(e.stdout, "%s: %s\n", f.Path, why)
				continue
			}
			var m struct {
				Sites []struct {
					ID     string `json:"id"`
					Line   int    `json:"line"`
					Column int    `json:"column"`
					Source string `json:"source"`
				} `json:"sites"`
			}
			if err := json.Unmarshal(f.Manifest, &m); err != nil {
				return fail(e, "internal error: manifest of %s: %v", f.Path, err)
			}
			fmt.Fprintf(e.stdout, "%s: %s\n", f.Path, pluralSites(len(m.Sites)))
			for _, s := range m.Sites {
				fmt.Fprintf(e.stdout, "  %s:%d:%d %s\n", s.Source, s.Line, s.Column, s.ID)
			}
		}
	}
	if !report.OK() {
		return exitFail
	}
	return exitOK
}

func pluralSites(n int) string {
	if n == 1 {
		return "1 evaluation site"
	}
	return fmt.Sprintf("%d evaluation sites", n)
}
