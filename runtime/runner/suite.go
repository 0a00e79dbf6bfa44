package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Case is one program of a suite and what it must do.
type Case struct {
	// Path is the program; Rel its path relative to the suite root it
	// was found under (forward slashes); Root is that root (the folder
	// given to Discover, or a given file's folder).
	Path, Rel, Root string
	// Expected is the normalised expected output (x.expected), or
	// ErrorSpec the expected error (x.error) when Expected is unset.
	Expected  *string
	ErrorSpec string
	// Language is the runtime the program runs with (the entry of the
	// Languages Discover was called on for its extension).
	Language Language
}

// CaseResult is the outcome of one case.
type CaseResult struct {
	Case
	Passed bool
	// Message explains a failure: a line diff, the unexpected error, the
	// missing error or the timeout.
	Message  string
	Duration time.Duration
}

// SuiteOptions configure Suite.
type SuiteOptions struct {
	// Jobs is how many programs run at once (<= 0: the number of CPUs).
	Jobs int
	// Filter selects cases by their relative path: `re:REGEX`, `a|b`
	// (any substring), a glob with * and ?, or a plain substring.
	Filter string
	// Timeout bounds each program (0: 30s).
	Timeout time.Duration
	// Env is the template environment of every run (grants, seed);
	// streams and the replay tape are set per case.
	Env Env
	// Prepare, when set, runs before a program with the program's own
	// copy of Env: an error fails the program with that error (what
	// upstream's checker does before running), and it may set what is
	// particular to the program (the evaluation sites its check admitted).
	Prepare func(path string, src []byte, env *Env) error
}

// Discover lists the cases under paths: every program of one of the
// languages with a sibling .expected or .error file, sorted. A program
// without either (a library module) is not a case.
func (ls Languages) Discover(paths []string, filter string) ([]Case, error) {
	match, err := compileFilter(filter)
	if err != nil {
		return nil, err
	}
	var cases []Case
	seen := map[string]bool{}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		base := root
		if !info.IsDir() {
			base = filepath.Dir(root)
		}
		var files []string
		if info.IsDir() {
			err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if d.IsDir() {
					if p != root && (d.Name() == ".git" || d.Name() == "node_modules") {
						return fs.SkipDir
					}
					return nil
				}
				if _, ok := ls.ForPath(p); ok {
					files = append(files, p)
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
		} else {
			files = []string{root}
		}
		sort.Strings(files)
		for _, f := range files {
			if seen[f] {
				continue
			}
			seen[f] = true
			rel, _ := filepath.Rel(base, f)
			c := Case{Path: f, Rel: filepath.ToSlash(rel), Root: base}
			c.Language, _ = ls.ForPath(f)
			stem := strings.TrimSuffix(f, filepath.Ext(f))
			if b, err := os.ReadFile(stem + ".expected"); err == nil {
				exp := NormalizeOutput(string(b))
				c.Expected = &exp
			} else if b, err := os.ReadFile(stem + ".error"); err == nil {
				c.ErrorSpec = strings.TrimRight(string(b), " \t\r\n")
			} else {
				continue
			}
			if !match(c.Rel) {
				continue
			}
			cases = append(cases, c)
		}
	}
	return cases, nil
}

func compileFilter(f string) (func(string) bool, error) {
	switch {
	case f == "":
		return func(string) bool { return true }, nil
	case strings.HasPrefix(f, "re:"):
		re, err := regexp.Compile(f[3:])
		if err != nil {
			return nil, fmt.Errorf("--filter: %v", err)
		}
		return re.MatchString, nil
	case strings.Contains(f, "|"):
		parts := strings.Split(f, "|")
		return func(s string) bool {
			return slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(s, strings.TrimSpace(p)) })
		}, nil
	case strings.ContainsAny(f, "*?"):
		pat := regexp.QuoteMeta(f)
		pat = strings.ReplaceAll(pat, `\*`, ".*")
		pat = strings.ReplaceAll(pat, `\?`, ".")
		re, err := regexp.Compile(pat)
		if err != nil {
			return nil, fmt.Errorf("--filter: %v", err)
		}
		return re.MatchString, nil
	}
	return func(s string) bool { return strings.Contains(s, f) }, nil
}

// NormalizeOutput trims trailing whitespace and replaces the milliseconds
// of `[timer] NAME: <n>ms` lines, so timings never fail a comparison.
func NormalizeOutput(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if strings.HasPrefix(l, "[timer] ") && strings.HasSuffix(l, "ms") {
			if j := strings.LastIndex(l, ": "); j > 0 {
				l = l[:j] + ": <ms>"
			}
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// ErrorMatches reports whether an error message satisfies a .error spec:
// any of its lines, each a substring or a `re:` regular expression.
func ErrorMatches(msg, spec string) bool {
	for _, line := range strings.Split(spec, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if p, ok := strings.CutPrefix(line, "re:"); ok {
			if re, err := regexp.Compile(strings.TrimSpace(p)); err == nil && re.MatchString(msg) {
				return true
			}
			continue
		}
		if strings.Contains(msg, line) {
			return true
		}
	}
	return false
}

// Suite runs cases in parallel and returns their results in case order.
func Suite(ctx context.Context, cases []Case, opts SuiteOptions) []CaseResult {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	results := make([]CaseResult, len(cases))
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, c := range cases {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = RunCase(ctx, c, opts)
		}()
	}
	wg.Wait()
	return results
}

// RunCase runs one case.
func RunCase(ctx context.Context, c Case, opts SuiteOptions) (res CaseResult) {
	res.Case = c
	start := time.Now()
	defer func() {
		res.Duration = time.Since(start)
		if r := recover(); r != nil {
			res.Passed = false
			res.Message = fmt.Sprintf("%s: internal error: %v", c.Rel, r)
		}
	}()
	out, err := runCaptured(ctx, c, opts)
	if c.Expected != nil {
		if err != nil {
			res.Message = fmt.Sprintf("%s: runtime error: %s", c.Rel, strings.TrimSpace(errorText(err)))
			return res
		}
		actual := NormalizeOutput(out)
		if actual == *c.Expected {
			res.Passed = true
			return res
		}
		res.Message = c.Rel + ":\n" + Diff(*c.Expected, actual)
		return res
	}
	if err == nil {
		res.Message = fmt.Sprintf("%s: expected error containing %q, but succeeded", c.Rel, c.ErrorSpec)
		return res
	}
	text := RelativeToProgram(errorText(err), c.Path)
	if ErrorMatches(text, c.ErrorSpec) {
		res.Passed = true
		return res
	}
	res.Message = fmt.Sprintf("%s:\n  expected error containing: %s\n  actual error: %s", c.Rel, c.ErrorSpec, strings.TrimSpace(text))
	return res
}

// RelativeToProgram rewrites the paths in an error text that lie in the
// program's folder (as the program was named, or absolute) relative to
// that folder, so that a .error file matches whatever the working
// directory: `error: testdata/run/x.leia:3:1: ...` reads
// `error: x.leia:3:1: ...` for the program testdata/run/x.leia.
func RelativeToProgram(text, program string) string {
	dir := filepath.Dir(program)
	var prefixes []string
	if abs, err := filepath.Abs(dir); err == nil {
		prefixes = append(prefixes, abs+string(filepath.Separator))
		if filepath.Separator != '/' {
			prefixes = append(prefixes, filepath.ToSlash(abs)+"/")
		}
	}
	if dir != "." && !filepath.IsAbs(dir) {
		prefixes = append(prefixes, "./"+filepath.ToSlash(dir)+"/", filepath.ToSlash(dir)+"/")
	}
	for _, p := range prefixes {
		text = replacePathPrefix(text, p)
	}
	return text
}

// replacePathPrefix removes prefix where it starts a path in text: at the
// start, or after a character that cannot be part of a path name.
func replacePathPrefix(text, prefix string) string {
	var b strings.Builder
	for {
		i := strings.Index(text, prefix)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		if i == 0 || strings.ContainsRune(" \t\n(\"'`:=[<", rune(text[i-1])) {
			text = text[i+len(prefix):]
			continue
		}
		b.WriteString(prefix)
		text = text[i+len(prefix):]
	}
}

// errTimeout marks a case that ran out of time.
var errTimeout = errors.New("timed out")

// errorText is the text a .error file is matched against: what the
// command line prints for the error, or the error's message when it
// prints nothing (an os.exit(3) reads "exit 3").
func errorText(err error) string {
	if f, ok := err.(Formatter); ok {
		if s := f.Format(); s != "" {
			return s
		}
	}
	return err.Error()
}

func runCaptured(ctx context.Context, c Case, opts SuiteOptions) (string, error) {
	src, err := os.ReadFile(c.Path)
	if err != nil {
		return "", err
	}
	env := opts.Env
	if env.ModuleRoot == "" {
		// The suite's own modules (upstream's conformance tests import
		// ../_common.harn) are part of what the user asked to run.
		env.ModuleRoot = c.Root
	}
	if env.WorkDir == "" {
		env.WorkDir = RepositoryRoot(c.Root)
	}
	if opts.Prepare != nil {
		if err := opts.Prepare(c.Path, src, &env); err != nil {
			return "", err
		}
	}
	lang := c.Language
	if lang.Run == nil {
		return "", fmt.Errorf("no runtime for %s", filepath.Ext(c.Path))
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Output past the capture limit stops the program: a program that
	// prints forever must neither fill the memory nor run out its time.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	full := func() { stop(errOutputLimit) }
	stdout, stderr := &captureWriter{max: MaxCapturedOutput, full: full}, &captureWriter{max: MaxCapturedOutput, full: full}
	env.Stdout, env.Stderr, env.Stdin = stdout, stderr, bytes.NewReader(nil)
	// A test never makes a real model call (upstream's runner sets
	// HARN_LLM_CALLS_DISABLED for the same reason).
	env.LLM.NoLiveCalls = true
	mock := strings.TrimSuffix(c.Path, filepath.Ext(c.Path)) + ".llm-mock.jsonl"
	if _, err := os.Stat(mock); err == nil {
		env.LLMMockReplay = mock
	}
	done := make(chan error, 1)
	go func() {
		done <- lang.Run(ctx, Program{Path: c.Path, Src: src}, env)
	}()
	select {
	case err = <-done:
	case <-ctx.Done():
		// The runtime observes ctx; give it a moment to unwind.
		select {
		case err = <-done:
		case <-time.After(2 * time.Second):
			err = fmt.Errorf("%w after %s", errTimeout, timeout)
		}
	}
	if stdout.isFull() || stderr.isFull() {
		return stdout.String(), fmt.Errorf("the program printed more than the %d MiB of output kept per program: it was stopped and its output truncated", MaxCapturedOutput>>20)
	}
	if ctx.Err() != nil && err != nil {
		err = fmt.Errorf("%w after %s (%v)", errTimeout, timeout, err)
	}
	return stdout.String(), err
}

// MaxCapturedOutput is the most of each output stream (stdout, stderr)
// kept of one program run by a suite, in bytes; a program that prints
// more is stopped and fails.
const MaxCapturedOutput = 16 << 20

// errOutputLimit is the cause of a run stopped for printing too much.
var errOutputLimit = errors.New("output limit")

// captureWriter keeps up to max bytes of a program's output, safe for
// the program's concurrent tasks; the write that goes past max keeps what
// fits, calls full and fails, as does every later write.
type captureWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	max  int
	over bool
	full func()
}

func (c *captureWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.over {
		return 0, errOutputLimit
	}
	if room := c.max - c.buf.Len(); len(p) > room {
		c.buf.Write(p[:room])
		c.over = true
		c.full()
		return room, errOutputLimit
	}
	return c.buf.Write(p)
}

func (c *captureWriter) isFull() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.over
}

func (c *captureWriter) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// Diff compares expected and actual output line by line: "    " for a
// line both have, "  - " for an expected line missing from the output,
// "  + " for an output line not expected. Lines are matched by a longest
// common subsequence, so one missing line shows as one line; very long
// outputs (over 4 million line pairs) are compared position by position.
func Diff(expected, actual string) string {
	e, a := strings.Split(expected, "\n"), strings.Split(actual, "\n")
	var b strings.Builder
	if len(e)*len(a) > 4_000_000 {
		for i := 0; i < max(len(e), len(a)); i++ {
			switch {
			case i < len(e) && i < len(a) && e[i] == a[i]:
				b.WriteString("    " + e[i] + "\n")
			default:
				if i < len(e) {
					b.WriteString("  - " + e[i] + "\n")
				}
				if i < len(a) {
					b.WriteString("  + " + a[i] + "\n")
				}
			}
		}
		return b.String()
	}
	// lcs[i][j] is the length of the longest common subsequence of e[i:]
	// and a[j:].
	lcs := make([][]int32, len(e)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(a)+1)
	}
	for i := len(e) - 1; i >= 0; i-- {
		for j := len(a) - 1; j >= 0; j-- {
			if e[i] == a[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(e) || j < len(a) {
		switch {
		case i < len(e) && j < len(a) && e[i] == a[j]:
			b.WriteString("    " + e[i] + "\n")
			i, j = i+1, j+1
		case i < len(e) && (j == len(a) || lcs[i+1][j] >= lcs[i][j+1]):
			b.WriteString("  - " + e[i] + "\n")
			i++
		default:
			b.WriteString("  + " + a[j] + "\n")
			j++
		}
	}
	return b.String()
}

// RepositoryRoot is the nearest folder at or above dir that holds a .git
// entry (a repository or a worktree), or "" when there is none.
func RepositoryRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
