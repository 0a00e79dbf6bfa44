package harn

import (
	"context"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/checker/harn/analysis"
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
	"github.com/harnlang/harn-check/checker/harn/rules/rethrow"
	"github.com/harnlang/harn-check/checker/harn/rules/returns"
	"github.com/harnlang/harn-check/checker/harn/rules/siteid"
	"github.com/harnlang/harn-check/checker/harn/rules/streams"
	"github.com/harnlang/harn-check/checker/harn/rules/tooldefine"
	"github.com/harnlang/harn-check/checker/harn/rules/unnarrowed"
	"github.com/harnlang/harn-check/checker/harn/rules/unreachable"
	"github.com/harnlang/harn-check/checker/harn/rules/variance"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
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
	rethrow.Rule,
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
	// CatalogFile, when set (and Catalog is nil), names the harn.toml
	// whose routes extend the defaults instead of the nearest one (`run
	// --catalog FILE`); it is read through Loader, and an invalid one is
	// HARN-CFG-001.
	CatalogFile string
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
	// Graph, when set, is shared by the checks of one run (see Graph):
	// each module is read, parsed and checked once, however many checked
	// files import it. Nil checks the file with a graph of its own.
	Graph *Graph
	// Model asks for the checked file's semantic model (Facts.Model):
	// its definitions and what each name resolves to. An editor wants
	// it; a run over many files does not pay for it.
	Model bool

	// modelFor is the path of the file whose model is recorded.
	modelFor string
}

// Parsed is a file's syntax tree and syntax diagnostics, as binding.Parse
// returns them.
type Parsed struct {
	File   *ast.File
	Syntax []diagnostics.Diagnostic
}

// Checker checks one Harn file with chosen rules, reading its imports and
// harn.toml from disk: the fixture harness (analysistest) and other tests
// use it. Syntax errors (HARN-PAR-*) are always compared.
var Checker = analysis.Checker{
	Language: "Harn",
	Ext:      ".harn",
	Check: func(path string, src []byte, rules []*analysis.Rule) []diagnostics.Diagnostic {
		opts := Options{Loader: OSLoader{}}
		if len(rules) > 0 {
			opts.Rules = rules
		}
		return Check(path, src, opts).Diagnostics
	},
	Always: func(code string) bool { return strings.HasPrefix(code, "HARN-PAR-") },
}
