package difftest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"text/template"
	"time"
)

//go:embed helpersrc/*.tmpl
var helperSrc embed.FS

// BindingVersion is the go-tree-sitter version helpers are built against.
const BindingVersion = "v0.25.0"

// helperVersion changes whenever the helper sources or layout change, so
// that cached binaries are rebuilt.
const helperVersion = "harn-difftest-helper-3"

var exportRe = regexp.MustCompile(`TSLanguage\s*\*\s*tree_sitter_(\w+)\s*\(\s*void\s*\)\s*\{`)

// LanguageName returns NAME of the `tree_sitter_NAME(void)` constructor that
// parser.c defines.
func LanguageName(parserC []byte) (string, error) {
	m := exportRe.FindSubmatch(parserC)
	if m == nil {
		return "", errors.New("parser.c defines no `const TSLanguage *tree_sitter_NAME(void)` function")
	}
	return string(m[1]), nil
}

// sourceFiles returns the files of a parser source directory that go into a
// helper: parser.c, scanner.c or scanner.cc, and everything in tree_sitter/.
func sourceFiles(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, name := range []string{"parser.c", "scanner.c", "scanner.cc"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, os.ErrNotExist) && name != "parser.c" {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("difftest: %w", err)
		}
		files[name] = data
	}
	headers, err := filepath.Glob(filepath.Join(dir, "tree_sitter", "*.h"))
	if err != nil {
		return nil, err
	}
	if len(headers) == 0 {
		return nil, fmt.Errorf("difftest: %s has no tree_sitter/parser.h", dir)
	}
	for _, h := range headers {
		data, err := os.ReadFile(h)
		if err != nil {
			return nil, fmt.Errorf("difftest: %w", err)
		}
		files["tree_sitter/"+filepath.Base(h)] = data
	}
	return files, nil
}

var buildMu sync.Mutex

// Build compiles the parser in srcDir (parser.c, tree_sitter/parser.h,
// optional scanner.c or scanner.cc) into a helper binary and returns its path.
// Binaries are cached under CacheDir by a hash of their sources; goSum is the
// go.sum to give the helper module (it must list go-tree-sitter BindingVersion
// and its dependencies; RepoGoSum finds this repository's).
func Build(ctx context.Context, srcDir string, goSum []byte) (string, error) {
	files, err := sourceFiles(srcDir)
	if err != nil {
		return "", err
	}
	name, err := LanguageName(files["parser.c"])
	if err != nil {
		return "", fmt.Errorf("difftest: %s: %w", srcDir, err)
	}
	_, cxx := files["scanner.cc"]
	mainSrc, err := helperSrc.ReadFile("helpersrc/main.go.tmpl")
	if err != nil {
		return "", err
	}
	langTmpl, err := template.ParseFS(helperSrc, "helpersrc/lang.go.tmpl")
	if err != nil {
		return "", err
	}
	var langSrc bytes.Buffer
	if err := langTmpl.Execute(&langSrc, struct {
		Name      string
		CPlusPlus bool
	}{name, cxx}); err != nil {
		return "", err
	}
	goMod := fmt.Sprintf("module harndifftesthelper\n\ngo 1.23\n\nrequire github.com/tree-sitter/go-tree-sitter %s\n\nrequire github.com/mattn/go-pointer v0.0.1 // indirect\n", BindingVersion)

	module := map[string][]byte{
		"go.mod":       []byte(goMod),
		"go.sum":       goSum,
		"main.go":      mainSrc,
		"lang/lang.go": langSrc.Bytes(),
	}
	for n, data := range files {
		module["lang/"+n] = data
	}

	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", helperVersion, runtime.Version())
	for _, n := range sortedKeys(module) {
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(module[n]))
		h.Write(module[n])
	}
	key := hex.EncodeToString(h.Sum(nil))[:24]

	root, err := CacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "helpers", name+"-"+key)
	bin := filepath.Join(dir, "helper")
	buildMu.Lock()
	defer buildMu.Unlock()
	if _, err := os.Stat(bin); err == nil {
		now := time.Now()
		os.Chtimes(dir, now, now) // mark as recently used for pruneHelpers
		return bin, nil
	}
	pruneHelpers(filepath.Join(root, "helpers"))
	work, err := os.MkdirTemp(filepath.Join(root, "helpers"), "build-")
	if err != nil {
		return "", fmt.Errorf("difftest: %w", err)
	}
	defer os.RemoveAll(work)
	for n, data := range module {
		p := filepath.Join(work, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return "", err
		}
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", "helper", ".")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=1", "GOFLAGS=-mod=readonly")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("difftest: building helper for %s (%s): %v\n%s", name, srcDir, err, truncate(string(out), 4000))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(filepath.Join(work, "helper"), bin); err != nil {
		return "", fmt.Errorf("difftest: %w", err)
	}
	return bin, nil
}

// helperMaxAge is how long an unused helper stays in the cache. Every
// generator change makes new helpers, so old ones must go.
const helperMaxAge = 3 * 24 * time.Hour

// pruneHelpers removes cached helpers not used for helperMaxAge (and build
// directories that interrupted builds left behind).
func pruneHelpers(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || time.Since(info.ModTime()) < helperMaxAge {
			continue
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// CacheDir is where built helpers and generated parsers live:
// $HARN_DIFFTEST_CACHE, or <os.UserCacheDir>/harn-check/difftest.
func CacheDir() (string, error) {
	root := os.Getenv("HARN_DIFFTEST_CACHE")
	if root == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("difftest: no cache dir (set HARN_DIFFTEST_CACHE): %w", err)
		}
		root = filepath.Join(base, "harn-check", "difftest")
	}
	if err := os.MkdirAll(filepath.Join(root, "helpers"), 0o755); err != nil {
		return "", fmt.Errorf("difftest: %w", err)
	}
	return root, nil
}

// RepoGoSum returns the go.sum of the module the current directory belongs
// to (this repository when run from its tests).
func RepoGoSum() ([]byte, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return nil, fmt.Errorf("difftest: go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return nil, errors.New("difftest: not inside a Go module; cannot find go.sum")
	}
	return os.ReadFile(filepath.Join(filepath.Dir(mod), "go.sum"))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n... (truncated)"
}

// Edit replaces Text[Start:End] with Insert. In an edit sequence each edit's
// offsets refer to the text left by the edits before it.
type Edit struct {
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Insert []byte `json:"insert"`
}

// Symbol is one entry of a language's symbol table as the runtime reports it.
type Symbol struct {
	Name      string `json:"name"`
	Named     bool   `json:"named"`
	Visible   bool   `json:"visible"`
	Supertype bool   `json:"supertype"`
}

// Info describes a built language.
type Info struct {
	ABI uint32 `json:"abi"`
	// Counts: symbol_count, alias_count, token_count, external_token_count,
	// state_count, large_state_count, production_id_count, field_count.
	Counts []uint32 `json:"counts"`
	// TableBytes is the parse table's size as the runtime reads it (dense
	// rows, compact records and their map, referenced action lists).
	TableBytes uint64   `json:"table_bytes"`
	Symbols    []Symbol `json:"symbols"`
	Fields     []string `json:"fields"`
}

// Result is a helper's answer to a parse, edits or bench request.
type Result struct {
	Err          string `json:"err"`
	Sexp         string `json:"sexp"`
	Hash         string `json:"hash"`
	HasError     bool   `json:"has_error"`
	EditMismatch int    `json:"edit_mismatch"`
	Incremental  string `json:"incremental"`
	Fresh        string `json:"fresh"`
	Bytes        int    `json:"bytes"`
	Runs         int    `json:"runs"`
	Nanos        int64  `json:"nanos"`
	Info
}

type request struct {
	Op      string  `json:"op"`
	Path    string  `json:"path,omitempty"`
	Text    []byte  `json:"text,omitempty"`
	Full    bool    `json:"full,omitempty"`
	Edits   []Edit  `json:"edits,omitempty"`
	Seconds float64 `json:"seconds,omitempty"`
}

// ErrHang reports a helper that did not answer within its timeout; ErrCrash
// one whose process died. Either way the helper is restarted for the next
// request.
var (
	ErrHang  = errors.New("helper did not answer in time (hang)")
	ErrCrash = errors.New("helper process died (crash)")
)

// Helper is a running helper process.
type Helper struct {
	bin string
	env []string
	// Timeout bounds one request (default 20s), plus 40s per MB of input.
	Timeout time.Duration
	// SlowRetry, when set (the default), retries a timed-out request once
	// with five times the timeout before reporting ErrHang, so that a machine
	// starved by other work is not mistaken for a hanging parser.
	SlowRetry bool

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	dec    *json.Decoder
	stderr *bytes.Buffer
	res    chan error
}

// DeterministicEnv is the environment Start gives helpers by default. It
// makes glibc hand out zero-filled memory from every malloc (perturb byte 0xff
// is complemented on allocation; the per-thread cache, which skips perturbing,
// is turned off). Scanners that read uninitialised memory then behave the same
// in every process and every parse: the tree-sitter-lua 2.1.3 scanner mallocs
// its state and never sets it on an empty deserialize, which otherwise makes
// `x = 'a'` parse with errors on every parse after the first.
var DeterministicEnv = []string{"MALLOC_PERTURB_=255", "GLIBC_TUNABLES=glibc.malloc.tcache_count=0"}

// Start runs the helper binary at bin with DeterministicEnv added to the
// environment.
func Start(bin string) (*Helper, error) {
	return StartEnv(bin, DeterministicEnv)
}

// StartEnv runs the helper binary at bin with extra environment variables
// (benchmarks pass none, to measure the allocator unperturbed).
func StartEnv(bin string, env []string) (*Helper, error) {
	h := &Helper{bin: bin, env: env, Timeout: 20 * time.Second, SlowRetry: true}
	return h, h.start()
}

func (h *Helper) start() error {
	h.cmd = exec.Command(h.bin)
	h.cmd.Env = append(os.Environ(), h.env...)
	in, err := h.cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := h.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	h.stderr = &bytes.Buffer{}
	h.cmd.Stderr = h.stderr
	if err := h.cmd.Start(); err != nil {
		return fmt.Errorf("difftest: starting %s: %w", h.bin, err)
	}
	h.stdin = in
	h.dec = json.NewDecoder(bufio.NewReaderSize(out, 1<<20))
	return nil
}

// Close stops the helper.
func (h *Helper) Close() {
	if h.cmd == nil {
		return
	}
	h.stdin.Close()
	done := make(chan struct{})
	go func() { h.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		h.cmd.Process.Kill()
		<-done
	}
	h.cmd = nil
}

func (h *Helper) restart() {
	if h.cmd != nil {
		h.cmd.Process.Kill()
		h.cmd.Wait()
		h.cmd = nil
	}
	if err := h.start(); err != nil {
		h.cmd = nil
	}
}

func (h *Helper) call(req *request) (*Result, error) {
	timeout := h.Timeout
	size := len(req.Text)
	if req.Path != "" {
		if fi, err := os.Stat(req.Path); err == nil {
			size = int(fi.Size())
		}
	}
	timeout += time.Duration(size) * 40 * time.Second / (1 << 20)
	if req.Op == "bench" {
		timeout += time.Duration(req.Seconds * float64(time.Second) * 3)
	}
	r, err := h.callOnce(req, timeout)
	if errors.Is(err, ErrHang) && h.SlowRetry {
		r, err = h.callOnce(req, 5*timeout)
	}
	return r, err
}

func (h *Helper) callOnce(req *request, timeout time.Duration) (*Result, error) {
	if h.cmd == nil {
		if err := h.start(); err != nil {
			return nil, err
		}
	}
	type answer struct {
		r   *Result
		err error
	}
	ch := make(chan answer, 1)
	stdin, dec := h.stdin, h.dec // a timed-out call's goroutine must not touch a restarted helper
	go func() {
		if err := json.NewEncoder(stdin).Encode(req); err != nil {
			ch <- answer{nil, err}
			return
		}
		var r Result
		err := dec.Decode(&r)
		ch <- answer{&r, err}
	}()
	select {
	case a := <-ch:
		if a.err != nil {
			h.cmd.Process.Kill()
			h.cmd.Wait()
			msg := strings.TrimSpace(h.stderr.String())
			state := h.cmd.ProcessState.String()
			h.cmd = nil
			return nil, fmt.Errorf("%w (%s): %s", ErrCrash, state, truncate(msg, 2000))
		}
		if a.r.Err != "" {
			return a.r, fmt.Errorf("difftest helper: %s", a.r.Err)
		}
		return a.r, nil
	case <-time.After(timeout):
		h.restart()
		return nil, fmt.Errorf("%w after %v", ErrHang, timeout)
	}
}

// Info returns the language's symbol table and counts.
func (h *Helper) Info() (*Info, error) {
	r, err := h.call(&request{Op: "info"})
	if err != nil {
		return nil, err
	}
	return &r.Info, nil
}

// ParseFile parses the file at path; with full set the S-expression is
// returned too (otherwise only its hash).
func (h *Helper) ParseFile(path string, full bool) (*Result, error) {
	return h.call(&request{Op: "parse", Path: path, Full: full})
}

// ParseText parses text.
func (h *Helper) ParseText(text []byte, full bool) (*Result, error) {
	return h.call(&request{Op: "parse", Text: text, Full: full})
}

// Edits parses text, then applies edits one by one, reparsing incrementally
// each time and comparing with a fresh parse; EditMismatch is the first edit
// whose incremental tree differed (-1 if none). The final tree's hash (and
// S-expression when full) is returned.
func (h *Helper) Edits(text []byte, edits []Edit, full bool) (*Result, error) {
	return h.call(&request{Op: "edits", Text: text, Edits: edits, Full: full})
}

// Bench parses the file at path repeatedly for about seconds and reports
// runs, nanoseconds and bytes per run.
func (h *Helper) Bench(path string, seconds float64) (*Result, error) {
	return h.call(&request{Op: "bench", Path: path, Seconds: seconds})
}
