package diagnostics

import (
	"encoding/json"
	"io"
)

// JSONSchemaVersion is the version of the JSON envelope, as in Harn's own
// `harn check --json`.
const JSONSchemaVersion = 1

// The wire types below fix the key order of the JSON output; they are
// separate from the model so that the model can change without changing
// what CI pipelines parse.
type jsonEnvelope struct {
	SchemaVersion int             `json:"schemaVersion"`
	OK            bool            `json:"ok"`
	Data          *jsonData       `json:"data"`
	Error         *jsonToolMsg    `json:"error"`
	Warnings      []jsonToolShort `json:"warnings"`
	// Shard is set in the report of one shard of a run (Merge).
	Shard *jsonShard `json:"shard,omitempty"`
}

type jsonData struct {
	Files   []jsonFile  `json:"files"`
	Summary jsonSummary `json:"summary"`
}

type jsonSummary struct {
	OK          int `json:"ok"`
	Warnings    int `json:"warnings"`
	Errors      int `json:"errors"`
	Diagnostics int `json:"diagnostics"`
}

type jsonToolMsg struct {
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Details json.RawMessage `json:"details"`
}

type jsonToolShort struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type jsonFile struct {
	Path              string           `json:"path"`
	Status            string           `json:"status"`
	Diagnostics       []jsonDiagnostic `json:"diagnostics"`
	PredicateManifest json.RawMessage  `json:"predicate_manifest"`
}

type jsonSpan struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

type jsonDiagnostic struct {
	Source    string        `json:"source"`
	Severity  string        `json:"severity"`
	Code      string        `json:"code,omitempty"`
	Message   string        `json:"message"`
	Span      jsonSpan      `json:"span"`
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"endLine"`
	EndColumn int           `json:"endColumn"`
	Help      string        `json:"help,omitempty"`
	Related   []jsonRelated `json:"related"`
	Fixes     []jsonFix     `json:"fixes"`
}

type jsonRelated struct {
	Path      string   `json:"path"`
	Span      jsonSpan `json:"span"`
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	EndLine   int      `json:"endLine"`
	EndColumn int      `json:"endColumn"`
	Message   string   `json:"message"`
}

type jsonFix struct {
	Title string     `json:"title"`
	Edits []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	Path      string   `json:"path"`
	Span      jsonSpan `json:"span"`
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	EndLine   int      `json:"endLine"`
	EndColumn int      `json:"endColumn"`
	NewText   string   `json:"newText"`
}

// RenderJSON writes the report as one JSON document in the envelope of
// Harn's `harn check --json`, with our position fields added. Lines and
// columns are 1-based; columns count Unicode code points. Key order is
// fixed; output ends with a newline.
func RenderJSON(w io.Writer, r *Report) error {
	loc := newLocator(r)
	s := r.Summarize()
	env := jsonEnvelope{
		SchemaVersion: JSONSchemaVersion,
		OK:            r.OK(),
		Data: &jsonData{
			Files:   []jsonFile{},
			Summary: jsonSummary{OK: s.OK, Warnings: s.Warnings, Errors: s.Errors, Diagnostics: s.Diagnostics},
		},
		Warnings: []jsonToolShort{},
		Shard:    shardJSON(r.Shard),
	}
	if r.Error != nil && len(r.Files) == 0 {
		// The run stopped before it had anything to report (a usage
		// error): data is null, as in Harn's envelope.
		env.Data = nil
	}
	if r.Error != nil {
		details := r.Error.Details
		if details == nil {
			details = json.RawMessage("null")
		}
		env.Error = &jsonToolMsg{Code: r.Error.Code, Message: r.Error.Message, Details: details}
	}
	for _, wm := range r.Warnings {
		env.Warnings = append(env.Warnings, jsonToolShort{Code: wm.Code, Message: wm.Message})
	}
	for _, f := range r.Files {
		jf := jsonFile{Path: f.Path, Status: f.Status(), Diagnostics: []jsonDiagnostic{}, PredicateManifest: f.Manifest}
		if jf.PredicateManifest == nil {
			jf.PredicateManifest = json.RawMessage("null")
		}
		for _, d := range f.sortedDiagnostics() {
			jf.Diagnostics = append(jf.Diagnostics, jsonDiag(loc, d))
		}
		env.Data.Files = append(env.Data.Files, jf)
	}
	return writeIndentedJSON(w, env)
}

func jsonDiag(loc *locator, d Diagnostic) jsonDiagnostic {
	path := d.Path
	rg, _ := loc.resolve(path, d.Span, false)
	jd := jsonDiagnostic{
		Source: string(d.Source), Severity: d.Severity.String(), Code: d.Code, Message: d.Message,
		Span: jsonSpan{d.Span.Start, d.Span.End},
		Line: rg.Line, Column: rg.Column, EndLine: rg.EndLine, EndColumn: rg.EndColumn,
		Help: d.Help, Related: []jsonRelated{}, Fixes: []jsonFix{},
	}
	for _, rel := range d.Related {
		p := orPath(rel.Path, path)
		rr, _ := loc.resolve(p, rel.Span, false)
		jd.Related = append(jd.Related, jsonRelated{
			Path: p, Span: jsonSpan{rel.Span.Start, rel.Span.End},
			Line: rr.Line, Column: rr.Column, EndLine: rr.EndLine, EndColumn: rr.EndColumn, Message: rel.Message,
		})
	}
	for _, fix := range d.Fixes {
		jf := jsonFix{Title: fix.Title, Edits: []jsonEdit{}}
		for _, e := range fix.Edits {
			p := orPath(e.Path, path)
			er, _ := loc.resolve(p, e.Span, false)
			jf.Edits = append(jf.Edits, jsonEdit{
				Path: p, Span: jsonSpan{e.Span.Start, e.Span.End},
				Line: er.Line, Column: er.Column, EndLine: er.EndLine, EndColumn: er.EndColumn, NewText: e.NewText,
			})
		}
		jd.Fixes = append(jd.Fixes, jf)
	}
	return jd
}
