package harn

import (
	"context"
	"errors"
	"fmt"
	"github.com/harnlang/harn-check/runtime/evaluate"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/harnlang/harn-check/runtime/execution"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/lang/harn/imports"
	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/runner"
)

// Options configure an interpreter.
type Options struct {
	// Host is the program's capability layer (required).
	Host *host.Host
	// Library holds the builtins, std modules and harness methods the
	// program may use (required; package lib assembles Harn's).
	Library *Library
	// Args are the program's command-line arguments (after the file).
	Args []string
	// Limits bound the run: steps, wall time, memory, live tasks (the
	// zero value bounds nothing; the CLI passes execution.Defaults or the
	// user's flags). Exceeding one stops the run with an error no
	// try/catch can intercept. Their Depth bounds nested calls (0:
	// execution.HardDepth): deeper recursion is a catchable "Stack
	// overflow" error, never a Go stack overflow. Tail calls
	// (`return f(x)`) do not nest.
	Limits execution.Limits
	// ReadModule reads imported modules; nil reads the file system, where
	// a module outside the program's folder needs a file-system grant
	// like any other read.
	ReadModule func(path string) ([]byte, error)
	// ModuleRoot is a folder (runner.Env.ModuleRoot) whose .harn modules
	// an import reads without a grant; other reads there still need one.
	ModuleRoot string
	// LLMMock is a replay tape for llm_call and friends (the content of
	// a .llm-mock.jsonl file); nil means none. LLMMockName names it in
	// errors.
	LLMMock     []byte
	LLMMockName string
	// LLM is the run's model-call mode (mock, strict replay of a
	// .records.json fixture, recording one) and trace, as for Leia.
	LLM runner.LLMConfig
	// Evaluator runs harness.llm.evaluate*; nil uses one on the built-in
	// route catalog. The run record reads its journal.
	Evaluator *evaluate.Evaluator
	// Project is the program's harn.toml (catalog.FindProject); its
	// [[hooks]] are installed before the program runs. nil: none.
	Project *catalog.Project
}

// Interp runs Harn programs. One Interp runs one program (its modules,
// globals and tasks); it is not reusable across programs.
type Interp struct {
	opts     Options
	host     *host.Host
	lib      *Library
	maxDepth int
	// run is the run in progress (Run starts it): budgets, cancellation,
	// the stop that ended it, the turn that lets one goroutine run
	// program code at a time, the tracker of waits for deadlock reports.
	// Before Run, a run without limits.
	run *execution.Run

	mu      sync.Mutex
	modules map[string]*module
	loading map[string]bool
	// impls are the methods declared with `impl T { ... }`, by type name:
	// a snapshot replaced (under mu) by every impl block that runs, so
	// that a method call reads it without a lock and a call site may keep
	// what it found until the snapshot changes.
	impls atomic.Pointer[implTable]
	// structs and enums by name (for typed catch and constructors).
	enums map[string]*enumType

	harness Value
	ext     map[string]any // per-run state of builtin families
	taskSeq atomic.Int64
	tracing atomic.Bool // enable_tracing (lib_vmtrace.go)
	// pipelineName is the entry pipeline's name (checkpoint files).
	pipelineName string
	// live counts the goroutines of tasks and generators; Run gives the
	// ones still in a host call a moment to notice the run's end.
	live sync.WaitGroup
}

// New makes an interpreter.
func New(opts Options) (*Interp, error) {
	if opts.Host == nil {
		return nil, errors.New("harn: Options.Host is required")
	}
	if opts.Library == nil {
		return nil, errors.New("harn: Options.Library is required")
	}
	in := &Interp{opts: opts, host: opts.Host, lib: opts.Library, maxDepth: opts.Limits.CallDepth(),
		modules: map[string]*module{}, loading: map[string]bool{},
		enums: map[string]*enumType{},
		ext:   map[string]any{}}
	// Replaced by Run's; nothing runs program code before Run.
	in.run = execution.Start(context.Background(), execution.Limits{})
	return in, nil
}

// Host is the interpreter's capability layer.
func (in *Interp) Host() *host.Host { return in.host }

// State returns the per-run state a builtin family keeps under key,
// creating it with make on first use.
func (in *Interp) State(key string, make func() any) any {
	in.mu.Lock()
	defer in.mu.Unlock()
	if v, ok := in.ext[key]; ok {
		return v
	}
	v := make()
	in.ext[key] = v
	return v
}

// module is one loaded source file.
type module struct {
	path    string
	src     []byte
	lines   *diagnostics.LineIndex
	file    *ast.File
	globals []Value
	// globalIndex maps top-level names to globals.
	globalIndex map[string]int
	globalNames []string
	// imports maps imported names to another module's globals.
	imports map[string]importRef
	// exports are the names importers may take.
	exports map[string]importRef
	// pipelines by name, in source order.
	pipelines     map[string]*Closure
	pipelineOrder []string
	pipelineDecls map[string]*ast.Pipeline
	mainFn        string
	typeAliases   map[string]ast.Type
	init          *funcProto
	initialized   bool
	deps          []*module
}

type importRef struct {
	mod   *module
	index int
}

func (m *module) addGlobal(name string) int {
	if i, ok := m.globalIndex[name]; ok {
		return i
	}
	i := len(m.globalNames)
	m.globalIndex[name] = i
	m.globalNames = append(m.globalNames, name)
	m.globals = append(m.globals, Nil)
	return i
}

// position is the 1-based line and character column of a byte offset.
func (m *module) position(off int) (int, int) {
	if m == nil || m.lines == nil {
		return 0, 0
	}
	p := m.lines.RuneColumn(off)
	return p.Line + 1, p.Column + 1
}

// SyntaxError is returned when a module has syntax errors.
type SyntaxError struct {
	Path        string
	Diagnostics []diagnostics.Diagnostic
	lines       *diagnostics.LineIndex
}

func (e *SyntaxError) Error() string {
	var b strings.Builder
	for i, d := range e.Diagnostics {
		if i > 0 {
			b.WriteString("\n")
		}
		line, col := 0, 0
		if e.lines != nil {
			p := e.lines.RuneColumn(d.Span.Start)
			line, col = p.Line+1, p.Column+1
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s", e.Path, line, col, d.Message)
	}
	return b.String()
}

// load parses and compiles a module (and, recursively, its imports).
func (in *Interp) load(path string, src []byte) (*module, error) {
	key := filepath.Clean(path)
	if m, ok := in.modules[key]; ok {
		return m, nil
	}
	file, diags := binding.Parse(path, src)
	var errs []diagnostics.Diagnostic
	for _, d := range diags {
		if d.Severity == diagnostics.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) > 0 {
		return nil, &SyntaxError{Path: path, Diagnostics: errs, lines: diagnostics.NewLineIndex(src)}
	}
	m := &module{path: path, src: src, lines: diagnostics.NewLineIndex(src), file: file,
		globalIndex: map[string]int{}, imports: map[string]importRef{}, exports: map[string]importRef{},
		pipelines: map[string]*Closure{}, pipelineDecls: map[string]*ast.Pipeline{}}
	in.modules[key] = m
	in.loading[key] = true
	defer delete(in.loading, key)
	c := &compiler{in: in, mod: m}
	c.declareGlobals(file)
	if err := c.resolveImports(file); err != nil {
		return nil, err
	}
	c.compileModule(file)
	if c.err != nil {
		return nil, c.err
	}
	return m, nil
}

// readModule reads an imported file. Imports are part of the program, so
// a module in the program's folder (or a folder the user granted) needs no
// grant; one outside it needs --allow-fs like any other read there (the
// host's path check decides, symbolic links resolved).
func (in *Interp) readModule(p string) ([]byte, error) {
	if in.opts.ReadModule != nil {
		return in.opts.ReadModule(p)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	real, err := in.host.CheckPath("read", abs)
	if err != nil {
		if r := in.moduleRootPath(abs); r != "" {
			real, err = r, nil
		} else {
			return nil, err
		}
	}
	if err := imports.CheckTarget(real); err != nil {
		return nil, err
	}
	// Only a regular file within the size limit: an import of a pipe or
	// device must not hang the program.
	return sourcefs.Read(real, 0)
}

// moduleRootPath is abs's real path when it lies in Options.ModuleRoot
// and has no other names (hard links), else "".
func (in *Interp) moduleRootPath(abs string) string {
	if in.opts.ModuleRoot == "" {
		return ""
	}
	root, err := filepath.Abs(in.opts.ModuleRoot)
	if err != nil {
		return ""
	}
	root, real := sourcefs.RealPath(root), sourcefs.RealPath(abs)
	if root == "" || real == "" || !sourcefs.Within(real, root) || sourcefs.HardLinks(real) > 0 {
		return ""
	}
	return real
}

// resolveImport finds and reads the module an import names, relative to
// the importing module: the path as written by the rule the checker
// shares (imports.File: only a .harn file, never another kind of file),
// or, for a package name, a module under a .harn/packages folder of the
// importing module's folder or one above it.
func (in *Interp) resolveImport(from, spec string) (string, []byte, error) {
	first, module := imports.File(from, spec)
	if !module {
		return "", nil, fmt.Errorf("import %q: %s", spec, imports.NotModule(first))
	}
	cands := []string{first}
	if !imports.Relative(spec) && !slices.Contains(strings.Split(spec, "/"), "..") && !filepath.IsAbs(spec) {
		for d := filepath.Dir(from); ; {
			pkg := filepath.Join(d, ".harn", "packages", filepath.FromSlash(spec))
			cands = append(cands, pkg+imports.Extension, filepath.Join(pkg, "lib"+imports.Extension))
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	var denied error
	for i, p := range cands {
		src, err := in.readModule(p)
		var de *host.DeniedError
		switch {
		case err == nil:
			return p, src, nil
		case errors.Is(err, fs.ErrNotExist):
		case i > 0 && errors.As(err, &de):
			// A package folder above the program's folder: looked in
			// only when granted.
			if denied == nil {
				denied = err
			}
		default:
			return "", nil, err
		}
	}
	if denied != nil {
		return "", nil, fmt.Errorf("import %q: no module %s found in the program's folder (%v)", spec, first, denied)
	}
	return "", nil, fmt.Errorf("import %q: no module %s found", spec, first)
}
