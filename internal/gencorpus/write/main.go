// Command write puts a generated corpus on disk, for measuring the CLI on
// the corpus the in-process benchmarks check:
//
//	go run ./internal/gencorpus/write -lang harn -n 10000 DIR
//	go run ./internal/gencorpus/write -lang leia -n 3000 DIR
//
// The layout is gencorpus.Write's (100 folders). DIR must not exist yet.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/harnlang/harn-check/internal/gencorpus"
)

func main() {
	lang := flag.String("lang", "harn", "language of the corpus: harn or leia")
	n := flag.Int("n", 10000, "number of files")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: write [-lang harn|leia] [-n N] DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if _, err := os.Stat(dir); err == nil {
		fmt.Fprintf(os.Stderr, "write: %s exists\n", dir)
		os.Exit(2)
	}
	var files [][]byte
	var ext string
	switch *lang {
	case "harn":
		files, ext = gencorpus.Harn(*n), ".harn"
	case "leia":
		files, ext = gencorpus.Leia(*n), ".leia"
	default:
		fmt.Fprintf(os.Stderr, "write: -lang %s: not harn or leia\n", *lang)
		os.Exit(2)
	}
	if err := gencorpus.Write(dir, ext, files); err != nil {
		fmt.Fprintln(os.Stderr, "write:", err)
		os.Exit(1)
	}
}
