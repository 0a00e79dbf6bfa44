// Command leia-lsp is the language server for Harn (.harn) and Leia
// (.leia). It speaks the Language Server Protocol over stdin and stdout and
// logs to stderr or to the file named by --log, never to stdout.
//
// Usage:
//
//	leia-lsp [--log FILE] [--debounce DURATION] [--explain-dir DIR] [--max-file-size SIZE] [--max-nesting N] ...
//	leia-lsp --version
//
// Exit status: 0 after the client's shutdown and exit, 1 when the
// connection ended without a shutdown, 2 for a usage error.
//
// The command holds flags and wiring only; the server is package lsp.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/harnlang/harn-check/grammar/tsutil"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/memlimit"
	"github.com/harnlang/harn-check/internal/version"
	"github.com/harnlang/harn-check/lsp"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

func main() {
	// The soft limit leaves room for the trees, which the Go runtime
	// does not count; it follows them as documents open and close.
	go memlimit.Follow(context.Background(), memlimit.Server, memlimit.ServerHeapFloor, tsutil.Allocated, 50*time.Millisecond)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("leia-lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	showVersion := fs.Bool("version", false, "print the version and exit")
	logFile := fs.String("log", "", "append the log to `FILE` instead of stderr")
	debounce := fs.Duration("debounce", lsp.DefaultDebounce, "delay between a document's last change and its analysis")
	explainDir := fs.String("explain-dir", "", "write diagnostic explanation pages to `DIR` and link them (default: the user cache directory)")
	var lim limits.Limits
	lim.Register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "leia-lsp: unexpected argument %q (the server speaks LSP on stdin and stdout)\n", fs.Arg(0))
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "leia-lsp %s\n", version.Version)
		return 0
	}
	logOut := stderr
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "leia-lsp: %v\n", err)
			return 2
		}
		defer f.Close()
		logOut = f
	}
	logger := log.New(logOut, "leia-lsp: ", log.LstdFlags|log.Lmicroseconds)
	opts := lsp.Options{Logger: logger, Debounce: *debounce, Limits: lim}
	if *debounce == 0 {
		opts.Debounce = -1 // an explicit 0 means no delay
	}
	dir := *explainDir
	if dir == "" {
		var err error
		if dir, err = lsp.DefaultExplainDir(); err != nil {
			logger.Printf("no cache directory for explanation pages: %v", err)
		}
	}
	if dir != "" {
		href, err := lsp.ExplainPages(dir)
		if err != nil {
			logger.Printf("explanation pages not linked: %v", err)
		} else {
			opts.ExplainHref = href
		}
	}
	// workspace/diagnostic checks the files not open through harn-check's
	// check-result cache, in its default folder.
	if cdir, err := checkcache.DefaultDir(); err != nil {
		logger.Printf("no check cache for workspace diagnostics: %v", err)
	} else if cc, err := checkcache.Open(cdir); err != nil {
		logger.Printf("check cache not used for workspace diagnostics: %v", err)
	} else {
		opts.CheckCache = cc
		defer cc.Close()
	}
	opts.Languages = languages(logger)
	if err := lsp.New(opts).Serve(context.Background(), stdin, stdout); err != nil {
		logger.Printf("%v", err)
		return 1
	}
	return 0
}
