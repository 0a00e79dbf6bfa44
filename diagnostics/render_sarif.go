package diagnostics

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SARIF constants for version 2.1.0.
const (
	SARIFVersion = "2.1.0"
	SARIFSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

// SARIFOptions describe the tool in the SARIF run.
type SARIFOptions struct {
	ToolName    string
	ToolVersion string
	// InformationURI is the tool's home page (SARIF2005 asks for one).
	InformationURI string
	// RuleHelpURI, when set, gives each rule a helpUri: the code is
	// substituted for its one %s (the code's explanation page).
	RuleHelpURI string
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations,omitempty"`
	ColumnKind  string            `json:"columnKind"`
	Results     []sarifResult     `json:"results"`
	// Properties hold the shard of a --shard run (Merge).
	Properties *sarifProperties `json:"properties,omitempty"`
}

// sarifInvocation says whether the tool ran to the end, and carries the
// tool's own error or warnings (toolExecutionNotifications).
type sarifProperties struct {
	Shard *jsonShard `json:"harn-check/shard,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level      string           `json:"level"`
	Message    sarifText        `json:"message"`
	Descriptor *sarifDescriptor `json:"descriptor,omitempty"`
}

type sarifDescriptor struct {
	ID string `json:"id"`
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
	HelpURI              string         `json:"helpUri,omitempty"`
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
		rule := sarifRule{
			ID:                   c.Code,
			Name:                 RuleName(c),
			ShortDescription:     sarifText{c.Summary},
			FullDescription:      sarifText{c.Title},
			Help:                 sarifHelp{Text: c.Explanation, Markdown: c.Explanation},
			DefaultConfiguration: sarifRuleLevel{SARIFLevel(c.Severity)},
		}
		if opts.RuleHelpURI != "" {
			rule.HelpURI = fmt.Sprintf(opts.RuleHelpURI, c.Code)
		}
		driver.Rules = append(driver.Rules, rule)
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, ColumnKind: "utf16CodeUnits", Results: []sarifResult{}}
	if r.Error != nil || len(r.Warnings) > 0 {
		inv := sarifInvocation{ExecutionSuccessful: r.Error == nil}
		if r.Error != nil {
			inv.Notifications = append(inv.Notifications, sarifNote("error", *r.Error))
		}
		for _, w := range r.Warnings {
			inv.Notifications = append(inv.Notifications, sarifNote("warning", w))
		}
		run.Invocations = []sarifInvocation{inv}
	}
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
	if r.Shard != nil {
		s := shardJSON(r.Shard)
		s.Results = []int{}
		for _, f := range r.Files {
			s.Results = append(s.Results, len(f.Diagnostics))
		}
		run.Properties = &sarifProperties{Shard: s}
	}
	log := sarifLog{Schema: SARIFSchema, Version: SARIFVersion, Runs: []sarifRun{run}}
	return writeIndentedJSON(w, log)
}

func sarifNote(level string, m ToolMessage) sarifNotification {
	n := sarifNotification{Level: level, Message: sarifText{m.Message}}
	if m.Code != "" {
		n.Descriptor = &sarifDescriptor{ID: m.Code}
	}
	return n
}

// RuleName is a code's SARIF rule name: its explanation page's title in
// PascalCase ("HARN-TYP-002: operator undefined for these operand types"
// gives OperatorUndefinedForTheseOperandTypes; Leia's codes start with
// Leia, so the two languages' rules never share a name), a readable
// identifier that differs from the code, as SARIF1001 asks.
func RuleName(c CodeInfo) string {
	title := c.Title
	if _, rest, ok := strings.Cut(title, ": "); ok {
		title = rest
	}
	if title == "" {
		title = c.Summary
	}
	var b strings.Builder
	if strings.HasPrefix(c.Code, "LEIA") {
		b.WriteString("Leia")
	}
	upper := true
	for _, r := range title {
		switch {
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if upper {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			upper = false
		default:
			upper = true
		}
	}
	if b.Len() == 0 {
		return strings.ReplaceAll(c.Code, "-", "")
	}
	return b.String()
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
