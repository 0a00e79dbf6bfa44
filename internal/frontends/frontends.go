// Package frontends is the check facet of each language: Harn and Leia
// return the driver.Language that parses and checks its files, over the
// grammar/ and checker/ packages. Package language puts each into the
// language's one Language value, which harn-check and leia-lsp list, so
// that both analyse exactly the same languages the same way. Nothing here
// registers anything.
package frontends

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/harnlang/harn-check/catalog"
	framework "github.com/harnlang/harn-check/checker/analysis"
	harnchecker "github.com/harnlang/harn-check/checker/harn"
	harnanalysis "github.com/harnlang/harn-check/checker/harn/analysis"
	harnlint "github.com/harnlang/harn-check/checker/harn/lint"
	leiachecker "github.com/harnlang/harn-check/checker/leia"
	leiaanalysis "github.com/harnlang/harn-check/checker/leia/analysis"
	leialint "github.com/harnlang/harn-check/checker/leia/lint"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	harnbinding "github.com/harnlang/harn-check/grammar/harn/binding"
	leiaast "github.com/harnlang/harn-check/grammar/leia/ast"
	leiabinding "github.com/harnlang/harn-check/grammar/leia/binding"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/manifest"
	"github.com/harnlang/harn-check/manifest/checkcache"
	"github.com/harnlang/harn-check/runtime/rhai"
	"github.com/harnlang/harn-check/runtime/validator"
)

// Languages returns every available front end.
func Languages() driver.Languages {
	return driver.Languages{Harn(), Leia()}
}

// Harn is the Harn front end: its parser, and the Harn checker (syntax,
// types, narrowing and the decision-evaluation contract) over the file and
// its imports.
func Harn() driver.Language {
	return driver.Language{
		Name:      "Harn",
		Extension: ".harn",
		Parse: func(req driver.Request, sexp bool) (string, []diagnostics.Diagnostic) {
			opts := harnbinding.Options{MaxNesting: req.Limits.Nesting, MaxSyntaxErrors: req.Limits.SyntaxErrors}
			tree := harnbinding.ParseTree(req.Source, nil)
			if tree == nil {
				// The parser gave up; ParseWith's diagnostic says so.
				file, diags := harnbinding.ParseWith(req.Path, req.Source, opts)
				if sexp {
					return "(ERROR)", diags
				}
				return ast.Dump(file), diags
			}
			defer tree.Close()
			file, diags := harnbinding.Lowered(req.Path, req.Source, tree, opts)
			if sexp {
				return harnbinding.Sexp(tree, req.Source), diags
			}
			return ast.Dump(file), diags
		},
		Check: func(req driver.Request) driver.Result {
			lim := req.Limits.Resolved()
			var loader harnchecker.Loader = harnchecker.OSLoader{MaxFileSize: lim.FileSize}
			if req.Read != nil {
				loader = harnchecker.LoaderFunc(req.Read)
			}
			tree := sitterTree(req.Tree, harnbinding.Language())
			if tree != nil {
				// The editor's features may read the same tree on other
				// goroutines; tree-sitter asks each thread to use its own
				// (cheap) copy.
				tree = tree.Clone()
				defer tree.Close()
			}
			if prior, ok := req.Previous.(*harnPrior); ok && tree != nil && req.Session != nil {
				// Each attempt checks in a graph of its own.
				opts := func() harnchecker.Options {
					return harnchecker.Options{Loader: loader, Limits: lim, Context: req.Context, CatalogFile: req.CatalogFile,
						Graph: harnchecker.NewSingleCheckGraph(req.Session.RecordModule), Model: req.Model}
				}
				if out, ok := harnFocused(req, tree, prior, opts()); ok {
					return out
				}
				if out, ok := harnIncremental(req, tree, prior, opts()); ok {
					return out
				}
			}
			parsed := tree
			if parsed != nil && parsed.RootNode().HasError() {
				// Error recovery in an incrementally reparsed tree can
				// differ from a fresh parse's (an ERROR node one byte
				// shorter): a broken text is parsed afresh, so that the
				// editor reports what harn-check reports.
				parsed = nil
			}
			opts := harnchecker.Options{Loader: loader, Limits: lim, Context: req.Context,
				Parsed: harnParsed(req.Path, req.Source, parsed, lim), CatalogFile: req.CatalogFile, Model: req.Model}
			if req.Lint != nil {
				// A lint run: the lint rules so chosen instead of the
				// check rules, over the same parse and inference (the
				// CLI validated the entries against every language).
				opts.Rules, _ = framework.Select(harnlint.RulesWithThreshold(req.Lint.ComplexityThreshold), req.Lint.Select, req.Lint.Extend, req.Lint.Ignore)
				if opts.Rules == nil {
					opts.Rules = []*harnanalysis.Rule{}
				}
			}
			var run *harnRun
			if req.Session != nil && req.Tree == nil && !req.Model {
				// One module graph per session: each module is parsed
				// and checked once however many files import it. (An
				// editor's tree belongs to one buffer version, and a
				// semantic model is of one check of the file: such a
				// check gets a graph of its own.)
				run = harnRunOf(req.Session, lim.FileSize)
				opts.Graph = run.graph
			} else if req.Session != nil {
				opts.Graph = harnchecker.NewSingleCheckGraph(req.Session.RecordModule)
			}
			res := harnchecker.Check(req.Path, req.Source, opts)
			out := harnResult(req.Path, req.Source, res)
			if res.Facts != nil {
				out.Model = res.Facts.Model
			}
			if tree != nil {
				if pr := harnPriorOf(req, tree, res, out); pr != nil {
					out.Incremental = pr
				}
			}
			if run != nil && !run.imported[req.Path] {
				// Reported, and no file of the run imports it: the graph
				// need not keep it.
				run.graph.Forget(req.Path)
			}
			return out
		},
	}
}

// harnGraphKey keys the Harn module graph of a session.
type harnGraphKey struct{}

// harnRun is a session's Harn module graph, which records the modules it
// loads in the session and reads each module once, and the paths the
// run's files import.
type harnRun struct {
	graph    *harnchecker.Graph
	imported map[string]bool
}

// harnRunOf returns the session's harnRun, made at its first use: the
// run's Harn files are scanned for the modules they import (a lexical
// scan; a module it misses is only checked twice, never wrongly). The
// workers that need the run meanwhile share the scan (importScan) instead
// of waiting while one of them reads every file.
func harnRunOf(s *driver.Session, maxSize int64) *harnRun {
	files := s.Files() // not inside Value, which holds the session's lock
	scan := s.Value(harnGraphKey{}, func() any {
		return newImportScan(harnchecker.NewGraph(s.RecordModule), files, maxSize)
	}).(*importScan)
	return scan.run()
}

// importScanChunk is how many files a worker scans at a time.
const importScanChunk = 64

// importScan is the making of a session's harnRun: the import scan of the
// run's files, in chunks that every worker arriving before the end takes
// from until none is left; each then waits for the chunks others took.
type importScan struct {
	files   []string
	maxSize int64
	// next is the next chunk to take; left counts those not scanned.
	next atomic.Int64
	left sync.WaitGroup
	mu   sync.Mutex
	r    harnRun
}

func newImportScan(graph *harnchecker.Graph, files []string, maxSize int64) *importScan {
	s := &importScan{files: files, maxSize: maxSize, r: harnRun{graph: graph, imported: map[string]bool{}}}
	s.left.Add(s.chunks())
	return s
}

func (s *importScan) chunks() int { return (len(s.files) + importScanChunk - 1) / importScanChunk }

// run scans chunks until none is left, waits for the others and returns
// the harnRun, complete.
func (s *importScan) run() *harnRun {
	for n := s.chunks(); ; {
		i := int(s.next.Add(1)) - 1
		if i >= n {
			break
		}
		part := importedModules(s.files[i*importScanChunk:min((i+1)*importScanChunk, len(s.files))], s.maxSize)
		s.mu.Lock()
		for p := range part {
			s.r.imported[p] = true
		}
		s.mu.Unlock()
		s.left.Done()
	}
	s.left.Wait()
	return &s.r
}

// importSpecs returns the quoted module of each import in Harn source:
// what the regular expression `\bimport\b[^"]*"([^"\n]*)"` finds, left
// to right without overlaps, scanned by hand. The expression, run over
// every file of a run before its first check, was a serial quarter of a
// second per thousand files in a run that two workers share.
func importSpecs(src []byte) [][]byte {
	var out [][]byte
	const kw = "import"
	for at := 0; ; {
		i := bytes.Index(src[at:], []byte(kw))
		if i < 0 {
			return out
		}
		start, end := at+i, at+i+len(kw)
		if start > 0 && isWordByte(src[start-1]) || end < len(src) && isWordByte(src[end]) {
			at = start + 1
			continue
		}
		open := bytes.IndexByte(src[end:], '"')
		if open < 0 {
			return out
		}
		open += end + 1
		close := bytes.IndexAny(src[open:], "\"\n")
		if close < 0 || src[open+close] != '"' {
			// No match starts at this import; the next may.
			at = start + 1
			continue
		}
		out = append(out, src[open:open+close])
		at = open + close + 1
	}
}

// isWordByte reports whether c is an ASCII word character (\w).
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// importedModules returns the module paths files import, as the graph
// names them. Reading each file here costs far less than keeping every
// checked module for importers that never come.
func importedModules(files []string, maxSize int64) map[string]bool {
	out := map[string]bool{}
	for _, p := range files {
		if !strings.HasSuffix(p, ".harn") {
			continue
		}
		src, err := sourcefs.Read(filepath.FromSlash(p), maxSize)
		if err != nil || !bytes.Contains(src, []byte("import")) {
			continue
		}
		for _, m := range importSpecs(src) {
			if t, ok := harnchecker.ResolveImport(p, string(m)); ok {
				out[t] = true
			}
		}
	}
	return out
}

// SitterTree is implemented by an editor's wrapper of a tree-sitter tree
// (lsp/tsquery.Tree), so that the Harn check accepts it as a request's
// tree as well as a bare *sitter.Tree.
type SitterTree interface {
	Sitter() *sitter.Tree
}

// sitterTree returns the tree-sitter tree of lang in a request's tree,
// nil for a tree of another kind or language.
func sitterTree(tree any, lang *sitter.Language) *sitter.Tree {
	var t *sitter.Tree
	switch x := tree.(type) {
	case *sitter.Tree:
		t = x
	case SitterTree:
		t = x.Sitter()
	}
	if t == nil || t.Language().Inner != lang.Inner {
		return nil
	}
	return t
}

// harnParsed lowers t, a Harn tree-sitter tree of src, as
// harnbinding.Parse does after parsing (harnbinding.Lowered). It returns
// nil, and the check parses src itself, for no tree.
func harnParsed(path string, src []byte, t *sitter.Tree, lim limits.Limits) *harnchecker.Parsed {
	if t == nil {
		return nil
	}
	file, syntax := harnbinding.Lowered(path, src, t, harnbinding.Options{MaxNesting: lim.Nesting, MaxSyntaxErrors: lim.SyntaxErrors})
	return &harnchecker.Parsed{File: file, Syntax: syntax}
}

// Leia is the Leia front end: its parser, and the Leia checker (syntax,
// names, the language's compile-time rules and the AI-dialect contracts)
// with a host that reads the output validators agents name and compiles
// them with the Rhai validator engine. A request's tree is used only when
// it has no syntax error: the syntax messages name the tokens expected in
// the parse state before an error, which an incrementally reparsed tree
// does not always reproduce, so an editor's check of a broken text parses
// it afresh and reports what the CLI reports. A clean editor's tree is
// the tree a fresh parse gives, and after an edit inside one function
// body the check of the next version re-checks that body only
// (leiaedit.go).
func Leia() driver.Language {
	return driver.Language{
		Name:      "Leia",
		Extension: ".leia",
		Parse: func(req driver.Request, sexp bool) (string, []diagnostics.Diagnostic) {
			opts := leiabinding.Options{MaxNesting: req.Limits.Nesting, MaxSyntaxErrors: req.Limits.SyntaxErrors}
			tree := leiabinding.ParseTree(req.Source, nil)
			if tree == nil {
				file, diags := leiabinding.ParseWith(req.Path, req.Source, opts)
				if sexp {
					return "", diags
				}
				return leiaast.Dump(file), diags
			}
			defer tree.Close()
			file, diags := leiabinding.LoweredWith(req.Path, req.Source, tree, opts)
			if sexp {
				return leiabinding.Sexp(tree, req.Source), diags
			}
			return leiaast.Dump(file), diags
		},
		Check: func(req driver.Request) driver.Result {
			// Without an editor's reader, validator scripts are read from
			// disk through sourcefs (regular files within the size
			// limit), as every source file is.
			var rules []*leiaanalysis.Rule
			if req.Lint != nil {
				// A lint run: the Leia lint rules so chosen instead of
				// the check rules (a name both languages use, such as
				// naming-convention, selects both).
				rules, _ = framework.Select(leialint.Rules, req.Lint.Select, req.Lint.Extend, req.Lint.Ignore)
				if rules == nil {
					rules = []*leiaanalysis.Rule{}
				}
			}
			tree := sitterTree(req.Tree, leiabinding.Language())
			if tree != nil {
				// The editor's features may read the same tree on other
				// goroutines: this check reads its own copy.
				tree = tree.Clone()
				defer tree.Close()
			}
			if prior, ok := req.Previous.(*leiaPrior); ok && tree != nil && req.Lint == nil {
				if out, ok := leiaIncremental(req, tree, prior); ok {
					return out
				}
			}
			out, res := leiaCheckFacts(req.Path, req.Source, req.ReadFile, rules, leiaParsed(req.Path, req.Source, tree, req.Limits.Resolved()))
			if req.Model && res != nil {
				out.Model = res.Facts.Model()
			}
			if tree != nil && req.Lint == nil && req.Session != nil {
				out.Incremental = leiaPriorOf(req, tree, out, res)
			}
			return out
		},
	}
}

// leiaCheck runs the Leia checker with rules (nil: the check rules); the
// validator scripts it reads become cache dependencies of the result.
// parsed, when set, is src's syntax tree lowered from an editor's tree.
func leiaCheck(path string, src []byte, read func(string) ([]byte, error), rules []*leiaanalysis.Rule, parsed *leiachecker.Parsed) driver.Result {
	out, _ := leiaCheckFacts(path, src, read, rules, parsed)
	return out
}

// leiaCheckFacts is leiaCheck that also returns the checker's result (its
// syntax tree and facts).
func leiaCheckFacts(path string, src []byte, read func(string) ([]byte, error), rules []*leiaanalysis.Rule, parsed *leiachecker.Parsed) (driver.Result, *leiachecker.Result) {
	var deps []checkcache.Dep
	host := &leiaanalysis.Host{
		ReadFile: func(p string) ([]byte, error) {
			data, err := read(p)
			dep := checkcache.Dep{Path: p}
			if err == nil {
				dep.SHA256 = checkcache.HashBytes(data)
			}
			deps = append(deps, dep)
			return data, err
		},
		CompileValidator: compileValidator,
	}
	// The project's harn.toml declares the embedder's bindings ([leia]);
	// its probes become dependencies through the host's reader.
	var cfg []diagnostics.Diagnostic
	proj := catalog.FindProject(catalog.LoaderFunc(host.ReadFile), filepath.Dir(path))
	if decl, err := proj.Leia(); err != nil {
		if inv, ok := err.(*catalog.Invalid); ok {
			d := inv.Diagnostic(path)
			d.Help = "fix the [leia] table of harn.toml (go_modules, host_modules: lists of names)"
			cfg = append(cfg, d)
		}
	} else if decl.Declared {
		host.HostDeclared, host.GoModules, host.HostModules = true, decl.GoModules, decl.HostModules
	}
	res := leiachecker.Check(path, src, leiachecker.Options{Host: host, Rules: rules, Parsed: parsed})
	return driver.Result{Diagnostics: append(cfg, res.Diagnostics...), Deps: deps}, res
}

// compileValidator checks an output validator script against the
// validator contract, as harn-check validate does for blueprints.
func compileValidator(label string, src []byte) *leiaanalysis.ValidatorProblem {
	_, cerr := validator.Compile(label, string(src), rhai.Limits{})
	if cerr == nil {
		return nil
	}
	return &leiaanalysis.ValidatorProblem{Code: cerr.Code, Message: cerr.Message, Line: cerr.Line, Column: cerr.Column}
}

// harnResult converts a Harn check result for the driver: the files the
// check read (imports, harn.toml, and the ones it looked for and did not
// find) become cache dependencies, and the site facts become the file's
// predicate manifest (null, with a note saying why, when the file or an
// import failed checking).
//
// The modules of the import closure are not listed in Deps: the graph
// records them in the session (driver.Session.RecordModule), and the
// driver fingerprints the closure from those records.
func harnResult(path string, src []byte, res *harnchecker.Result) driver.Result {
	out := driver.Result{Diagnostics: res.Diagnostics, Sources: res.Sources}
	if res.Facts != nil {
		out.Facts = res.Facts
	}
	for _, r := range res.Reads {
		dep := checkcache.Dep{Path: r.Path}
		if !r.Missing {
			dep.SHA256 = checkcache.HashBytes(r.Content)
		}
		out.Deps = append(out.Deps, dep)
	}
	m, notes := manifest.FromCheck(path, src, res)
	out.Manifest = m
	out.Admitted, _ = json.Marshal(manifest.LiteralSites(path, src, res))
	out.Diagnostics = append(out.Diagnostics, notes...)
	return out
}
