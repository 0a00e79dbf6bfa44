// Command tsgen generates a tree-sitter parser with the pure-Go generator.
//
//	tsgen [-name NAME] [-abi 14|15] [-version X.Y.Z] -o OUTDIR GRAMMAR
//
// GRAMMAR is a grammar.json, or a grammar.js (evaluated with Node.js, which
// must then be installed). tsgen writes OUTDIR/parser.c,
// OUTDIR/tree_sitter/parser.h, OUTDIR/grammar.json and
// OUTDIR/node-types.json.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/grammar/generate"
	"github.com/harnlang/harn-check/grammar/generate/dsl"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
}

// grammarJSON reads GRAMMAR, evaluating a grammar.js through node.
func grammarJSON(path string) ([]byte, error) {
	if strings.HasSuffix(path, ".js") || strings.HasSuffix(path, ".mjs") || strings.HasSuffix(path, ".cjs") {
		return dsl.GrammarJSON(path)
	}
	return os.ReadFile(path)
}

func run(args []string) error {
	fs := flag.NewFlagSet("tsgen", flag.ContinueOnError)
	name := fs.String("name", "", "override the language name (exported as tree_sitter_NAME)")
	abi := fs.Int("abi", 0, "language ABI version to emit: 14 or 15 (default 14, or 15 if the grammar declares reserved words)")
	out := fs.String("o", "", "output directory")
	stats := fs.Bool("stats", false, "print table sizes")
	version := fs.String("version", "", "grammar version MAJOR.MINOR.PATCH for ABI-15 metadata "+
		"(default: metadata.version of a tree-sitter.json beside the grammar or one directory up)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tsgen [-name NAME] [-abi 14|15] [-version X.Y.Z] [-stats] -o OUTDIR GRAMMAR(.json|.js)")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *out == "" {
		fs.Usage()
		return fmt.Errorf("need -o OUTDIR and one GRAMMAR argument")
	}
	src, err := grammarJSON(fs.Arg(0))
	if err != nil {
		return err
	}
	opts := generate.Options{Name: *name, ABI: *abi}
	v := *version
	if v == "" {
		v = versionFromConfig(filepath.Dir(fs.Arg(0)))
	}
	if v != "" {
		if opts.Version, err = parseVersion(v); err != nil {
			return err
		}
	}
	res, err := generate.Generate(src, opts)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(os.Stderr, "tsgen: warning:", w)
	}
	if err := os.MkdirAll(filepath.Join(*out, "tree_sitter"), 0o755); err != nil {
		return err
	}
	files := map[string][]byte{
		"parser.c":             res.ParserC,
		"tree_sitter/parser.h": res.ParserH,
		"grammar.json":         res.GrammarJSON,
		"node-types.json":      res.NodeTypesJSON,
	}
	for _, f := range []string{"parser.c", "tree_sitter/parser.h", "grammar.json", "node-types.json"} {
		if err := os.WriteFile(filepath.Join(*out, f), files[f], 0o644); err != nil {
			return err
		}
	}
	if *stats {
		s := res.Stats
		fmt.Printf("states %d large %d symbols %d tokens %d lex-states %d keyword-lex-states %d\n",
			s.States, s.LargeStates, s.Symbols, s.Tokens, s.LexStates, s.KeywordLexStates)
	}
	return nil
}

// versionFromConfig reads metadata.version from the tree-sitter.json in
// dir or its parent (grammar.json usually sits in src/), or returns "".
func versionFromConfig(dir string) string {
	for _, d := range []string{dir, filepath.Dir(dir)} {
		data, err := os.ReadFile(filepath.Join(d, "tree-sitter.json"))
		if err != nil {
			continue
		}
		var cfg struct {
			Metadata struct {
				Version string `json:"version"`
			} `json:"metadata"`
		}
		if json.Unmarshal(data, &cfg) == nil && cfg.Metadata.Version != "" {
			return cfg.Metadata.Version
		}
	}
	return ""
}

// parseVersion parses MAJOR.MINOR.PATCH (each 0-255).
func parseVersion(s string) ([3]uint8, error) {
	var v [3]uint8
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return v, fmt.Errorf("version %q: want MAJOR.MINOR.PATCH", s)
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 8)
		if err != nil {
			return v, fmt.Errorf("version %q: %q is not a number from 0 to 255", s, p)
		}
		v[i] = uint8(n)
	}
	return v, nil
}
