package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/internal/version"
	"github.com/harnlang/harn-check/language"
	"github.com/harnlang/harn-check/language/harn"
	"github.com/harnlang/harn-check/language/leia"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// languages are the languages harn-check checks, parses and runs, listed
// where the binary is assembled (leia-lsp lists the same values).
var languages = []language.Language{harn.Language, leia.Language}

// checks are the languages as the driver sees them, runtimes as the
// runner does, and formatters their formatters by extension.
var (
	checks     = language.Drivers(languages)
	runtimes   = language.Runners(languages)
	formatters = language.Formatters(languages)
)

// cacheFlags are the flags of commands that check files: the cache, the
// number of parallel workers, the limits and --allow-empty.
type cacheFlags struct {
	dir        string
	noCache    bool
	jobs       int
	allowEmpty bool
	limits     limits.Limits
	// shard is --shard, on the commands that register it.
	shard shardFlag
}

func (c *cacheFlags) register(fs *flagSet) {
	fs.StringVar(&c.dir, "cache-dir", "", "`dir`ectory of the check-result cache (default: under the user cache directory)")
	fs.BoolVar(&c.noCache, "no-cache", false, "check every file, neither reading nor writing the cache")
	fs.IntVar(&c.jobs, "jobs", 0, "`n` files checked at once (default: one per CPU; the Go runtime gets one processor more unless GOMAXPROCS is set); the output is the same for every value")
	registerAllowEmpty(fs, &c.allowEmpty)
	c.limits.Register(fs.FlagSet)
}

// checkPaths is the one place the CLI runs the driver over paths, so
// every output format sees the same report. manifests says whether the
// caller prints the files' predicate manifests; without, the run does not
// keep them (driver.Options.NoManifests).
func checkPaths(e *env, c cacheFlags, paths []string, manifests bool) (*diagnostics.Report, error) {
	opts := checkOptions(e, c)
	opts.NoManifests = !manifests
	defer workerProcessors(e, &opts)()
	return checks.CheckPaths(paths, opts)
}

// workerProcessors resolves opts.Workers (0: one per runtime processor)
// and, unless the user set GOMAXPROCS, gives the Go runtime one processor
// more than the workers, up to one more than it had; it returns what
// restores the previous setting. A worker spends much of a file in a
// cgo call (the tree-sitter parse); when every processor's worker is in
// C, the runtime hands their processors off, and a worker coming back
// waits on the scheduler's lock to get one again. With a spare processor
// that hand-off does not happen: on two cores, --jobs 2 against --jobs 1
// went from 1.77x to 1.82x on 10,000 Harn files (BENCHMARKS.md).
func workerProcessors(e *env, opts *driver.Options) (restore func()) {
	procs := runtime.GOMAXPROCS(0)
	if opts.Workers <= 0 {
		opts.Workers = procs
	}
	if e.getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	runtime.GOMAXPROCS(min(opts.Workers, procs) + 1)
	return func() { runtime.GOMAXPROCS(procs) }
}

// checkStdin checks stdin as the file name (default <stdin>, Harn).
func checkStdin(e *env, c cacheFlags, name string) (*diagnostics.Report, error) {
	lim := c.limits.Resolved()
	src, err := io.ReadAll(io.LimitReader(e.stdin, lim.FileSize+1))
	if err != nil {
		return nil, &driver.UsageError{Msg: fmt.Sprintf("reading stdin: %v", err)}
	}
	if int64(len(src)) > lim.FileSize {
		return nil, &driver.UsageError{Msg: fmt.Sprintf("stdin: more than the limit of %s (--%s)", sourcefs.FormatSize(lim.FileSize), limits.FlagFileSize)}
	}
	if name == "" {
		name = "<stdin>"
	}
	if ext := filepath.Ext(name); ext != "" && !slices.Contains(checks.Extensions(), ext) {
		return nil, &driver.UsageError{Msg: fmt.Sprintf("--stdin-filename %s: not a .harn or .leia file", name)}
	}
	return checks.CheckSource(name, ".harn", src, checkOptions(e, c)), nil
}

// checkOptions are the driver's options for the cache flags c: the cache
// opened (or a warning saying why not), the workers, limits and
// --allow-empty.
func checkOptions(e *env, c cacheFlags) driver.Options {
	opts := driver.Options{Salt: version.BuildID(), Workers: c.jobs, AllowEmpty: c.allowEmpty, Limits: c.limits, Shard: c.shard.s}
	if !c.noCache {
		dir := c.dir
		if dir == "" {
			dir = e.cacheDir
		}
		if dir == "" {
			dir, _ = checkcache.DefaultDir()
		}
		// Without a usable cache directory the check still runs, uncached;
		// a folder the cache must not trust is said so.
		if dir != "" {
			cache, err := checkcache.Open(dir)
			var unsafe *checkcache.UnsafeError
			switch {
			case err == nil:
				opts.Cache = cache
			case errors.As(err, &unsafe):
				msgf(e, "warning: cache not used: %v", err)
			}
		}
	}
	return opts
}

// registerAllowEmpty declares --allow-empty, one flag for every command
// that walks folders.
func registerAllowEmpty(fs *flagSet, p *bool) {
	fs.BoolVar(p, "allow-empty", false, "accept a folder without files to work on instead of failing with exit status 2")
}

// requireFiles is the rule every command that walks folders follows (as
// tsc and ruff do): a folder without a file of one of exts is a usage
// error, exit status 2, naming the folder, unless --allow-empty. Paths
// that are not folders are left to the command.
func requireFiles(paths, exts []string, allowEmpty bool) error {
	if allowEmpty {
		return nil
	}
	for _, p := range paths {
		if info, err := os.Stat(p); err != nil || !info.IsDir() {
			continue
		}
		if _, err := driver.Discover([]string{p}, driver.DiscoverOptions{Extensions: exts}); err != nil {
			return err
		}
	}
	return nil
}
