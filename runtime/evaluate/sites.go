package evaluate

import (
	"path/filepath"
	"sync"
)

// Location is where an evaluation call is written: its module's path and
// the 1-based line and column (in code points) of the call's start, as
// the site manifest (harn.predicate_sites.v2) writes source, line and
// column.
type Location struct {
	Source       string
	Line, Column int
}

// Site is one admitted literal site: a manifest entry's location and id.
type Site struct {
	Location
	ID string
}

// Sites is the list of the literal sites admitted for a run (the sites the
// checker's manifest lists for the program's import closure). With
// Options.Sites set, an evaluation whose Request.At and SiteID are not on
// the list (a call on a receiver whose static type was erased, a site in
// code the checker could not admit) is refused before dispatch as
// unavailable/admission_refused with admission_reason
// AdmissionUnlistedSite. Paths are compared in absolute, clean form. It is
// safe for concurrent use.
type Sites struct {
	once sync.Once
	load func() []Site
	set  map[Site]bool
}

// NewSites returns the list of the given sites.
func NewSites(list []Site) *Sites {
	return LoadSites(func() []Site { return list })
}

// LoadSites returns a list computed by load at the first evaluation that
// consults it (a run that skipped checking computes its sites only when
// the program evaluates). A nil result admits no site.
func LoadSites(load func() []Site) *Sites {
	return &Sites{load: load}
}

// Admits reports whether an evaluation with site id written at at is on
// the list; a call with no location never is.
func (s *Sites) Admits(at *Location, id string) bool {
	s.once.Do(func() {
		s.set = map[Site]bool{}
		for _, site := range s.load() {
			site.Source = cleanPath(site.Source)
			s.set[site] = true
		}
	})
	if at == nil {
		return false
	}
	return s.set[Site{Location: Location{Source: cleanPath(at.Source), Line: at.Line, Column: at.Column}, ID: id}]
}

// cleanPath is the absolute, clean form of a slash or OS path.
func cleanPath(p string) string {
	p = filepath.FromSlash(p)
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}
