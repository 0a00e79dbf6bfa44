// Package limits holds the bounds that keep checking finite on hostile or
// huge input, their diagnostic codes, and the command-line flags that
// raise them. Every limit is reported, never silent: the code's
// explanation page (harn-check explain HARN-LIM-00N) names the flag.
//
// The bounds are chosen far above what hand-written programs reach; they
// exist so that generated files, vendored junk and half-written buffers
// cost bounded time and memory instead of a hang or a crash.
package limits

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/sourcefs"
)

// Diagnostic codes of the limits. A code means one thing forever.
const (
	// CodeFileSize: a source file is larger than FileSize; it is not read.
	CodeFileSize = "HARN-LIM-001"
	// CodeNesting: the syntax tree is nested deeper than Nesting.
	CodeNesting = "HARN-LIM-002"
	// CodeUnion: a union type has more than UnionMembers members.
	CodeUnion = "HARN-LIM-003"
	// CodeMatch: a match has more than MatchArms arms.
	CodeMatch = "HARN-LIM-004"
	// CodeImportDepth: an import chain is longer than ImportDepth.
	CodeImportDepth = "HARN-LIM-005"
	// CodeModules: a run would load more than Modules modules.
	CodeModules = "HARN-LIM-006"
	// CodeSyntaxErrors: a file has more than SyntaxErrors syntax errors;
	// the rest are not listed.
	CodeSyntaxErrors = "HARN-LIM-007"
)

// Limits bounds one run. A zero field means its default (see Default).
type Limits struct {
	// FileSize is the largest source file read, in bytes.
	FileSize int64
	// Nesting is the deepest syntax tree (in tree levels) analysed.
	Nesting int
	// UnionMembers is the largest union type the type checker builds.
	UnionMembers int
	// MatchArms is the largest match the checker analyses arm by arm.
	MatchArms int
	// ImportDepth is the longest chain of imports followed.
	ImportDepth int
	// Modules is the most modules one run loads.
	Modules int
	// SyntaxErrors is the most syntax errors listed for one file.
	SyntaxErrors int
}

// Default holds the default of every limit.
var Default = Limits{
	FileSize:     sourcefs.DefaultMaxFileSize,
	Nesting:      5000,
	UnionMembers: 10000,
	MatchArms:    10000,
	ImportDepth:  25000,
	Modules:      100000,
	SyntaxErrors: 100,
}

// Resolved returns l with each zero or negative field set to its default.
func (l Limits) Resolved() Limits {
	d := Default
	if l.FileSize > 0 {
		d.FileSize = l.FileSize
	}
	if l.Nesting > 0 {
		d.Nesting = l.Nesting
	}
	if l.UnionMembers > 0 {
		d.UnionMembers = l.UnionMembers
	}
	if l.MatchArms > 0 {
		d.MatchArms = l.MatchArms
	}
	if l.ImportDepth > 0 {
		d.ImportDepth = l.ImportDepth
	}
	if l.Modules > 0 {
		d.Modules = l.Modules
	}
	if l.SyntaxErrors > 0 {
		d.SyntaxErrors = l.SyntaxErrors
	}
	return d
}

// Flag names, also quoted by diagnostics and explanation pages.
const (
	FlagFileSize     = "max-file-size"
	FlagNesting      = "max-nesting"
	FlagUnionMembers = "max-union-members"
	FlagMatchArms    = "max-match-arms"
	FlagImportDepth  = "max-import-depth"
	FlagModules      = "max-modules"
	FlagSyntaxErrors = "max-syntax-errors"
)

// Register adds one flag per limit to fs, each writing into l (whose
// current values are the flags' defaults).
func (l *Limits) Register(fs *flag.FlagSet) {
	*l = l.Resolved()
	fs.Var((*sizeValue)(&l.FileSize), FlagFileSize, "largest source file read, e.g. 4MiB, 512KiB, 10000000 (bytes)")
	fs.IntVar(&l.Nesting, FlagNesting, l.Nesting, "deepest syntax tree analysed, in tree levels")
	fs.IntVar(&l.UnionMembers, FlagUnionMembers, l.UnionMembers, "largest union type the type checker builds")
	fs.IntVar(&l.MatchArms, FlagMatchArms, l.MatchArms, "largest match analysed arm by arm")
	fs.IntVar(&l.ImportDepth, FlagImportDepth, l.ImportDepth, "longest chain of imports followed")
	fs.IntVar(&l.Modules, FlagModules, l.Modules, "most modules loaded in one run")
	fs.IntVar(&l.SyntaxErrors, FlagSyntaxErrors, l.SyntaxErrors, "most syntax errors listed per file")
}

// sizeValue is a byte count flag accepting KiB, MiB and GiB suffixes.
type sizeValue int64

func (s *sizeValue) String() string { return sourcefs.FormatSize(int64(*s)) }

func (s *sizeValue) Set(v string) error {
	n, err := ParseSize(v)
	if err != nil {
		return err
	}
	*s = sizeValue(n)
	return nil
}

// ParseSize reads a byte count: a number of bytes, or a number followed by
// K, KiB, M, MiB, G or GiB (powers of 1024; case-insensitive).
func ParseSize(v string) (int64, error) {
	s := strings.TrimSpace(strings.ToLower(v))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30},
		{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1}} {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 || f*float64(mult) > 1<<50 {
		return 0, fmt.Errorf("invalid size %q (want a positive number of bytes, or e.g. 8MiB)", v)
	}
	return int64(f * float64(mult)), nil
}

// ChainLength is the longest chain of a list-like binary construct (the
// members of `A | B | C`) allowed under a nesting limit of nesting: twenty
// times as long, since a lowering flattens such chains without
// recursion, while still bounding the work of the walks over the raw tree.
func ChainLength(nesting int) int {
	if nesting <= 0 {
		nesting = Default.Nesting
	}
	return 20 * nesting
}

// PrescanDepth is the bracket depth past which a file is refused before it
// is parsed (tsutil.BracketDepth): ten times the nesting limit, far enough
// that a tree just past the limit is still parsed (so parse --sexp and the
// language server can show it, and the diagnostic points into it), low
// enough that a million nested brackets (seconds of parsing and hundreds
// of megabytes) are refused at once. The lexical count may include
// brackets in constructs it does not know, which only raises it.
func PrescanDepth(nesting int) int {
	if nesting <= 0 {
		nesting = Default.Nesting
	}
	return 10 * nesting
}

// BracketDiagnostic is HARN-LIM-002 for a file whose brackets nest depth
// deep, past PrescanDepth(nesting): it was refused before parsing.
func BracketDiagnostic(path string, source diagnostics.Source, offset, depth, nesting int) diagnostics.Diagnostic {
	if nesting <= 0 {
		nesting = Default.Nesting
	}
	d := diagnostics.New(path, source, CodeNesting, diagnostics.Span{Start: offset, End: offset},
		fmt.Sprintf("brackets are nested %d deep, far past the nesting limit of %d levels: the file was not parsed", depth, nesting))
	d.Help = fmt.Sprintf("flatten the nesting, or raise the limit with --%s", FlagNesting)
	return d
}

// NestingDiagnostic is HARN-LIM-002 at offset for a syntax tree depth
// levels deep, past the limit max.
func NestingDiagnostic(path string, source diagnostics.Source, offset, depth, max int) diagnostics.Diagnostic {
	d := diagnostics.New(path, source, CodeNesting, diagnostics.Span{Start: offset, End: offset},
		fmt.Sprintf("the syntax is nested %d levels deep, more than the limit of %d: the file was not analysed", depth, max))
	d.Help = fmt.Sprintf("flatten the nesting (name intermediate values, split the expression), or raise the limit with --%s", FlagNesting)
	return d
}

// CapSyntaxErrors keeps the first max (0: the default) of a file's sorted
// syntax diagnostics, replacing the rest by one HARN-LIM-007 note that
// counts them: a binary or garbled file would otherwise bury the output in
// thousands of cascading errors.
func CapSyntaxErrors(path string, diags []diagnostics.Diagnostic, max int) []diagnostics.Diagnostic {
	if max <= 0 {
		max = Default.SyntaxErrors
	}
	if len(diags) <= max {
		return diags
	}
	rest := len(diags) - max
	last := diags[max-1].Span
	out := append(diags[:max:max], diagnostics.New(path, diags[max].Source, CodeSyntaxErrors,
		diagnostics.Span{Start: last.End, End: last.End},
		fmt.Sprintf("%d more syntax errors not shown (the first %d are listed)", rest, max)))
	out[max].Help = fmt.Sprintf("fix the errors above and check again, or list more with --%s", FlagSyntaxErrors)
	return out
}
