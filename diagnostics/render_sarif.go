package diagnostics

import (
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// SARIF constants for version 2.1.0.
const (
	SARIFVersion = "2.1.0"
	SARIFSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

// SARIFOptions describe the tool in the SARIF run.
type SARIFOptions struct {
	ToolName       string
	ToolVersion    string
	InformationURI string
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifHelp      `json:"help"`
	DefaultConfiguration sarifRuleLevel `json:"defaultConfiguration"`
}

type sarifRuleLevel struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        *int            `json:"ruleIndex,omitempty"`
	Level            string          `json:"level"`
	Message          sarifText       `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
	CharOffset  int `json:"charOffset"`
	CharLength  int `json:"charLength"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}

// SARIFLevel maps a severity to a SARIF result level.
func SARIFLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// RenderSARIF writes the report as a SARIF 2.1.0 log with one run, as
// GitHub code scanning loads it. Every reported code is a rule; regions
// use UTF-16 columns (columnKind utf16CodeUnits) and UTF-16 character
// offsets, the SARIF default.
func RenderSARIF(w io.Writer, r *Report, opts SARIFOptions) error {
	loc := newLocator(r)
	ruleIndex := map[string]int{}
	driver := sarifDriver{Name: opts.ToolName, Version: opts.ToolVersion, InformationURI: opts.InformationURI, Rules: []sarifRule{}}
	used := map[string]bool{}
	for _, f := range r.Files {
		for _, d := range f.Diagnostics {
			used[d.Code] = true
		}
	}
	// The rules are the registry entries of the codes this run reports, so
	// the log stays small and its meaning does not depend on codes added
	// to the product later.
	for _, c := range Codes() {
		if !used[c.Code] {
			continue
		}
		ruleIndex[c.Code] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRule{
			ID:                   c.Code,
			Name:                 c.Code,
			ShortDescription:     sarifText{c.Summary},
			FullDescription:      sarifText{c.Title},
			Help:                 sarifHelp{Text: c.Explanation, Markdown: c.Explanation},
			DefaultConfiguration: sarifRuleLevel{SARIFLevel(c.Severity)},
		})
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, ColumnKind: "utf16CodeUnits", Results: []sarifResult{}}
	for _, f := range r.Files {
		for _, d := range f.sortedDiagnostics() {
			path := d.Path
			res := sarifResult{
				RuleID:    d.Code,
				Level:     SARIFLevel(d.Severity),
				Message:   sarifText{sarifMessage(d)},
				Locations: []sarifLocation{sarifLoc(loc, path, d.Span)},
			}
			if i, ok := ruleIndex[d.Code]; ok {
				res.RuleIndex = &i
			}
			for i, rel := range d.Related {
				l := sarifLoc(loc, orPath(rel.Path, path), rel.Span)
				id := i + 1
				l.ID = &id
				l.Message = &sarifText{rel.Message}
				res.RelatedLocations = append(res.RelatedLocations, l)
			}
			for _, fix := range d.Fixes {
				sf := sarifFix{Description: sarifText{fix.Title}}
				for _, e := range fix.Edits {
					l := sarifLoc(loc, orPath(e.Path, path), e.Span)
					region := sarifRegion{CharOffset: e.Span.Start, CharLength: e.Span.Len()}
					if l.PhysicalLocation.Region != nil {
						region = *l.PhysicalLocation.Region
					}
					sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{
						ArtifactLocation: l.PhysicalLocation.ArtifactLocation,
						Replacements:     []sarifReplacement{{DeletedRegion: region, InsertedContent: sarifText{e.NewText}}},
					})
				}
				res.Fixes = append(res.Fixes, sf)
			}
			run.Results = append(run.Results, res)
		}
	}
	log := sarifLog{Schema: SARIFSchema, Version: SARIFVersion, Runs: []sarifRun{run}}
	return writeIndentedJSON(w, log)
}

func sarifMessage(d Diagnostic) string {
	if d.Help == "" {
		return d.Message
	}
	return d.Message + "\nhelp: " + d.Help
}

func sarifLoc(loc *locator, path string, s Span) sarifLocation {
	l := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifURI(path)}}
	if rg, ok := loc.resolve(path, s, true); ok {
		x := loc.index(path)
		off := x.UTF16Offset(s.Start)
		l.PhysicalLocation.Region = &sarifRegion{
			StartLine: rg.Line, StartColumn: rg.Column, EndLine: rg.EndLine, EndColumn: rg.EndColumn,
			CharOffset: off, CharLength: x.UTF16Offset(max(s.End, s.Start)) - off,
		}
	}
	return l
}

// sarifURI turns a path into a SARIF artifact location: relative paths are
// percent-encoded URI references against %SRCROOT%, absolute ones file URIs.
func sarifURI(path string) sarifArtifact {
	slash := filepath.ToSlash(path)
	segs := strings.Split(slash, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	u := strings.Join(segs, "/")
	if filepath.IsAbs(path) {
		return sarifArtifact{URI: "file://" + u}
	}
	return sarifArtifact{URI: strings.TrimPrefix(u, "./"), URIBaseID: "%SRCROOT%"}
}
