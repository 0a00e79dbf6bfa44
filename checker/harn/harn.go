package harn

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/checker/harn/catalog"
	"github.com/harnlang/harn-check/checker/harn/infer"
	"github.com/harnlang/harn-check/checker/harn/rules/booleanuse"
	"github.com/harnlang/harn-check/checker/harn/rules/callargs"
	"github.com/harnlang/harn-check/checker/harn/rules/closedinput"
	"github.com/harnlang/harn-check/checker/harn/rules/destructure"
	"github.com/harnlang/harn-check/checker/harn/rules/discarded"
	"github.com/harnlang/harn-check/checker/harn/rules/exhaustive"
	"github.com/harnlang/harn-check/checker/harn/rules/generics"
	"github.com/harnlang/harn-check/checker/harn/rules/immutable"
	"github.com/harnlang/harn-check/checker/harn/rules/initializers"
	"github.com/harnlang/harn-check/checker/harn/rules/interfaces"
	"github.com/harnlang/harn-check/checker/harn/rules/modelroute"
	"github.com/harnlang/harn-check/checker/harn/rules/names"
	"github.com/harnlang/harn-check/checker/harn/rules/nativestate"
	"github.com/harnlang/harn-check/checker/harn/rules/operators"
	"github.com/harnlang/harn-check/checker/harn/rules/paramorder"
	"github.com/harnlang/harn-check/checker/harn/rules/properties"
	"github.com/harnlang/harn-check/checker/harn/rules/questionset"
	"github.com/harnlang/harn-check/checker/harn/rules/redeclare"
	"github.com/harnlang/harn-check/checker/harn/rules/returns"
	"github.com/harnlang/harn-check/checker/harn/rules/siteid"
	"github.com/harnlang/harn-check/checker/harn/rules/streams"
	"github.com/harnlang/harn-check/checker/harn/rules/tooldefine"
	"github.com/harnlang/harn-check/checker/harn/rules/unnarrowed"
	"github.com/harnlang/harn-check/checker/harn/rules/unreachable"
	"github.com/harnlang/harn-check/checker/harn/rules/variance"
	"github.com/harnlang/harn-check/checker/harn/stdlib"
	"github.com/harnlang/harn-check/checker/harn/types"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/binding"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/sourcefs"
)

// Site is the checker's record of one evaluation site.
type Site = analysis.Site

// Rules lists every rule, in the order they run. Site rules that reject
// sites run before the rules that read their facts.
var Rules = []*analysis.Rule{
	siteid.Rule,
	questionset.Rule,
	closedinput.Rule,
	modelroute.Rule,
	nativestate.Rule,
	booleanuse.Rule,
	discarded.Rule,
	unnarrowed.Rule,
	operators.Rule,
	exhaustive.Rule,
	names.Rule,
	callargs.Rule,
	initializers.Rule,
	returns.Rule,
	properties.Rule,
	destructure.Rule,
	immutable.Rule,
	redeclare.Rule,
	tooldefine.Rule,
	generics.Rule,
	interfaces.Rule,
	streams.Rule,
	variance.Rule,
	paramorder.Rule,
	unreachable.Rule,
}

// Loader reads source files for the module graph.
type Loader interface {
	// ReadFile returns the content of the file at path; an error wrapping
	// fs.ErrNotExist means there is no such file.
	ReadFile(path string) ([]byte, error)
}

// OSLoader reads the file system: regular files only, within a size limit
// (sourcefs.Read), so that an import of a pipe, a device or a huge file is
// an unresolved import rather than a hang.
type OSLoader struct {
	// MaxFileSize is the size limit; 0 means the default.
	MaxFileSize int64
}

// ReadFile reads path from disk.
func (l OSLoader) ReadFile(path string) ([]byte, error) { return sourcefs.Read(path, l.MaxFileSize) }

// LoaderFunc adapts a function to Loader.
type LoaderFunc func(path string) ([]byte, error)

// ReadFile calls f.
func (f LoaderFunc) ReadFile(path string) ([]byte, error) { return f(path) }

// MapLoader serves files from memory (tests, editor overlays); a missing
// path is fs.ErrNotExist. Paths are compared after path.Clean.
type MapLoader map[string][]byte

// ReadFile returns the named entry.
func (m MapLoader) ReadFile(p string) ([]byte, error) {
	if src, ok := m[path.Clean(filepath.ToSlash(p))]; ok {
		return src, nil
	}
	return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
}

// Options configure a check.
type Options struct {
	// Loader reads imports and harn.toml; nil means no file can be read
	// (every relative import is unresolved, the default catalog is used).
	Loader Loader
	// Catalog overrides the route catalog (nil: defaults plus harn.toml).
	Catalog *catalog.Catalog
	// Rules restricts the rules run (nil: Rules).
	Rules []*analysis.Rule
	// Limits bound the check (zero fields: the defaults).
	Limits limits.Limits
	// Context, when set, stops the check early once it is done; the
	// result is then incomplete and should be discarded.
	Context context.Context
	// Parsed, when set, is the checked file already parsed and lowered
	// (an editor keeps an incrementally reparsed tree), used instead of
	// parsing src again. It must be what binding.Parse returns for the
	// same path and src, or the check reports on other text. Imports are
	// always parsed.
	Parsed *Parsed
}

// Parsed is a file's syntax tree and syntax diagnostics, as binding.Parse
// returns them.
type Parsed struct {
	File   *ast.File
	Syntax []diagnostics.Diagnostic
}

// Result is the outcome of checking one file.
type Result struct {
	// Diagnostics are about the checked file, sorted.
	Diagnostics []diagnostics.Diagnostic
	// Sites are the evaluation sites of the file and of its import
	// closure, in module then source order.
	Sites []*Site
	// Sources holds the imported files that diagnostics point into.
	Sources map[string][]byte
	// Failed is set when the file or any module of its import closure has
	// an error (or an import failed): the site census is incomplete.
	Failed bool
	// File is the checked file's syntax tree; Facts its inference facts.
	File  *ast.File
	Facts *analysis.Facts
	// Reads lists every file the check read or looked for through the
	// Loader besides the checked one (imports, harn.toml candidates), in
	// first-read order, so a cache can tell when the result is stale.
	Reads []Read
}

// Read is one file the check depended on.
type Read struct {
	Path string
	// Content is what was read; nil with Missing set when the file did
	// not exist (its absence mattered too).
	Content []byte
	Missing bool
}

type module struct {
	path    string
	src     []byte
	exports *infer.Exports
	diags   []diagnostics.Diagnostic
	sites   []*Site
	failed  bool
	file    *ast.File
	facts   *analysis.Facts
	imports []*module
}

type session struct {
	opts    Options
	root    string // the checked file's path
	reads   []Read
	seen    map[string]bool
	modules map[string]*module
	active  map[string]bool
	catalog *catalog.Catalog
	catDiag *diagnostics.Diagnostic
}

// Check checks the file at path with content src.
func Check(path string, src []byte, opts Options) *Result {
	s := &session{opts: opts, modules: map[string]*module{}, active: map[string]bool{}, seen: map[string]bool{}}
	s.root = path
	s.catalog = opts.Catalog
	if s.catalog == nil {
		s.catalog = s.findCatalog(path)
	}
	m := s.check(path, src)
	res := &Result{Diagnostics: m.diags, Sources: map[string][]byte{}, File: m.file, Facts: m.facts, Reads: s.reads}
	if s.catDiag != nil {
		res.Diagnostics = append(res.Diagnostics, *s.catDiag)
	}
	seen := map[*module]bool{}
	var walk func(*module)
	walk = func(x *module) {
		if seen[x] {
			return
		}
		seen[x] = true
		res.Sites = append(res.Sites, x.sites...)
		if x.failed {
			res.Failed = true
		}
		for _, im := range x.imports {
			walk(im)
		}
	}
	walk(m)
	for _, d := range res.Diagnostics {
		for _, r := range d.Related {
			if r.Path != "" && r.Path != path {
				if im := s.modules[r.Path]; im != nil {
					res.Sources[r.Path] = im.src
				}
			}
		}
	}
	diagnostics.Sort(res.Diagnostics)
	return res
}

func (s *session) findCatalog(file string) *catalog.Catalog {
	def := catalog.Default()
	if s.opts.Loader == nil {
		return def
	}
	dir := filepath.Dir(file)
	if _, ok := s.opts.Loader.(OSLoader); ok {
		// Walk up from the real directory, past the working directory.
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
	}
	for range 64 {
		p := filepath.Join(dir, "harn.toml")
		data, err := s.read(p)
		if err == nil {
			cat, perr := def.Parse(filepath.ToSlash(p), data)
			if perr != nil {
				d := diagnostics.New(file, diagnostics.SourceSetup, "HARN-CFG-001", diagnostics.Span{}, perr.Error())
				d.Help = "fix the [[routes]] table of harn.toml; the built-in route catalog was used instead"
				s.catDiag = &d
				return def
			}
			return cat
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return def
}

func (s *session) check(p string, src []byte) *module {
	if m := s.modules[p]; m != nil {
		return m
	}
	m := &module{path: p, src: src}
	s.modules[p] = m
	s.active[p] = true
	defer delete(s.active, p)

	var file *ast.File
	var syn []diagnostics.Diagnostic
	if pre := s.opts.Parsed; pre != nil && p == s.root {
		file, syn = pre.File, pre.Syntax
	} else {
		file, syn = binding.ParseWith(p, src, binding.Options{MaxNesting: s.opts.Limits.Nesting, MaxSyntaxErrors: s.opts.Limits.SyntaxErrors})
	}
	m.file = file
	m.diags = append(m.diags, syn...)

	resolved := map[string]*infer.Exports{}
	for _, im := range file.Imports() {
		if im.Source == nil {
			continue
		}
		spec, ok := im.Source.Value()
		if !ok || spec == stdlib.PredicateModule {
			continue
		}
		if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
			continue // std/ and package imports: not resolved, checking degrades
		}
		target := filepath.Join(filepath.Dir(p), filepath.FromSlash(spec))
		if filepath.Ext(target) == "" {
			target += ".harn"
		}
		target = filepath.ToSlash(target)
		if s.active[target] {
			continue // an import cycle: the module is being checked
		}
		var data []byte
		var err error
		if s.opts.Loader == nil {
			err = fs.ErrNotExist
		} else {
			data, err = s.read(target)
		}
		if err != nil {
			why := "it cannot be read: " + sourcefs.Reason(err)
			if errors.Is(err, fs.ErrNotExist) {
				why = "no file " + target + " exists"
			}
			d := diagnostics.New(p, diagnostics.SourceType, "HARN-MOD-001", analysis.Span(im.Source.Span), "import "+spec+" does not resolve: "+why)
			d.Help = "fix the path (relative to this file, .harn appended) or create the module"
			m.diags = append(m.diags, d)
			m.failed = true
			continue
		}
		sub := s.check(target, data)
		m.imports = append(m.imports, sub)
		if first := firstError(sub.diags); first != nil {
			d := diagnostics.New(p, diagnostics.SourceType, "HARN-MOD-007", analysis.Span(im.Source.Span), "imported module "+spec+" has errors: "+first.Code+" "+first.Message)
			d.Related = []diagnostics.Related{{Path: target, Span: first.Span, Message: first.Message}}
			d.Help = "run harn-check on " + target + " and fix its errors"
			m.diags = append(m.diags, d)
			m.failed = true
		}
		resolved[spec] = sub.exports
		missingNames(m, im, spec, target, sub)
	}
	for _, im := range file.Imports() {
		if im.Source == nil {
			continue
		}
		if spec, ok := im.Source.Value(); ok && spec == stdlib.PredicateModule {
			pred := stdlib.Predicate()
			ex := &infer.Exports{Values: map[string]types.Type{}, Types: map[string]types.Type{}}
			for n, f := range pred.Functions {
				ex.Values[n] = f
			}
			for n, a := range pred.Types {
				ex.Types[n] = a
			}
			missingNames(m, im, spec, "", &module{exports: ex})
		}
	}

	facts, exports := infer.Check(file, infer.Config{
		Path:   p,
		Src:    src,
		Limits: s.opts.Limits,
		Resolve: func(spec string) (*infer.Exports, bool) {
			ex, ok := resolved[spec]
			return ex, ok && ex != nil
		},
	})
	m.exports, m.facts, m.sites = exports, facts, facts.Sites
	for _, hit := range facts.LimitHits {
		d := diagnostics.New(p, diagnostics.SourceType, hit.Code, analysis.Span(hit.Span), hit.Message)
		d.Help = hit.Help
		m.diags = append(m.diags, d)
	}

	rules := s.opts.Rules
	if rules == nil {
		rules = Rules
	}
	for _, r := range rules {
		pass := analysis.NewPass(p, src, file, facts, s.catalog, func(d diagnostics.Diagnostic) { m.diags = append(m.diags, d) })
		pass.Rule = r
		r.Run(pass)
	}
	if firstError(m.diags) != nil {
		m.failed = true
	}
	return m
}

// read reads through the loader and records the dependency.
func (s *session) read(p string) ([]byte, error) {
	data, err := s.opts.Loader.ReadFile(p)
	if !s.seen[p] {
		s.seen[p] = true
		if err != nil {
			s.reads = append(s.reads, Read{Path: p, Missing: true})
		} else {
			s.reads = append(s.reads, Read{Path: p, Content: data})
		}
	}
	return data, err
}

func firstError(ds []diagnostics.Diagnostic) *diagnostics.Diagnostic {
	for i := range ds {
		if ds[i].Severity == diagnostics.Error {
			return &ds[i]
		}
	}
	return nil
}
