//go:build harn_gen

// Command gendriver runs our generator (grammar/generate.Generate) on a
// grammar.json and writes parser.c and tree_sitter/parser.h to an output
// directory. The difftest tests build it with -tags harn_gen once the
// generator package exists, so that the rest of the repository builds before
// it does.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/harnlang/harn-check/grammar/generate"
)

func main() {
	out := flag.String("o", "", "output directory")
	name := flag.String("name", "", "override the exported tree_sitter_<name>")
	abi := flag.Int("abi", 14, "language ABI to emit (14 or 15)")
	flag.Parse()
	if *out == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gendriver [-name NAME] [-abi 14|15] -o OUTDIR grammar.json")
		os.Exit(2)
	}
	src, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	res, err := generate.Generate(src, generate.Options{Name: *name, ABI: *abi})
	if err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
	if err := os.MkdirAll(filepath.Join(*out, "tree_sitter"), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for name, data := range map[string][]byte{
		"parser.c":             res.ParserC,
		"tree_sitter/parser.h": res.ParserH,
		"node-types.json":      res.NodeTypesJSON,
	} {
		if err := os.WriteFile(filepath.Join(*out, filepath.FromSlash(name)), data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
