package driver

import (
	"errors"
	"path/filepath"
	"slices"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/diagnostics"
)

// Project is what the nearest harn.toml says about checking, linting and
// formatting the files of a folder: the one reading of [lint] and [fmt]
// that the command line and the language server share.
type Project struct {
	// Config is the project's settings (the zero Config without a
	// harn.toml); nil when the file cannot be used.
	Config *catalog.Config
	// Invalid says why harn.toml cannot be used (HARN-CFG-001), or nil.
	Invalid *catalog.Invalid
}

// ProjectFor returns the settings of the project the folder dir is in,
// reading harn.toml through read (nil reads the disk; an editor passes
// its reader of unsaved buffers, as to Request.Read). The whole file is
// read, routes included, so that a harn.toml the checker refuses is
// refused here too.
func ProjectFor(read func(path string) ([]byte, error), dir string) Project {
	load := catalog.OS
	if read != nil {
		load = catalog.LoaderFunc(read)
	}
	var p Project
	proj := catalog.FindProject(load, dir)
	_, err := proj.Catalog()
	if err == nil {
		p.Config, err = proj.Config()
	}
	errors.As(err, &p.Invalid)
	return p
}

// Lint returns the lint selection for the file at path: sel (nil for a
// run of the checks alone, which stays nil) with the lint rules the
// project turns on (catalog.Config.Enabled: an opt-in rule named in
// select, or require_file_header) and its complexity threshold.
func (p Project) Lint(path string, sel *LintSelection) *LintSelection {
	if sel == nil || p.Config == nil {
		return sel
	}
	enabled := p.Config.Enabled(path)
	threshold := p.Config.Lint.ComplexityThreshold
	if len(enabled) == 0 && threshold == 0 {
		return sel
	}
	out := *sel
	out.Extend = append(slices.Clip(sel.Extend), enabled...)
	out.ComplexityThreshold = threshold
	return &out
}

// Report returns a file's diagnostics as the project wants them reported
// (catalog.Config.Apply: select, ignore, severities, overrides), display
// being the path they are reported under. A harn.toml that cannot be used
// adds its HARN-CFG-001 (once: the Harn checker reports it already).
func (p Project) Report(display string, ds []diagnostics.Diagnostic) []diagnostics.Diagnostic {
	if p.Invalid != nil {
		if !slices.ContainsFunc(ds, func(d diagnostics.Diagnostic) bool { return d.Code == catalog.InvalidCode }) {
			ds = append(ds, p.Invalid.Diagnostic(display))
		}
		return ds
	}
	return p.Config.Apply(display, ds)
}

// LineWidth is the project's `[fmt] line_width`, 0 when it sets none.
func (p Project) LineWidth() int {
	if p.Config == nil {
		return 0
	}
	return p.Config.Fmt.LineWidth
}

// dirOf is the folder of path, absolute and clean.
func dirOf(path string) string { return absClean(filepath.Dir(path)) }
