package lsp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"slices"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/internal/version"
	"github.com/harnlang/harn-check/language"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/mapper"
)

// MethodWorkspaceDiagnostic is LSP 3.17's workspace pull diagnostics
// request, which the server routes itself (handle), as it does
// textDocument/diagnostic.
const MethodWorkspaceDiagnostic = "workspace/diagnostic"

// MaxWorkspaceDiagnosticFiles bounds the files one workspace/diagnostic
// request checks: the first ones found under the workspace folders, in
// discovery order; the others are left out (and logged).
const MaxWorkspaceDiagnosticFiles = 2000

// workspaceDiagnosticChunk is how many files are checked between two
// looks at the request's cancellation.
const workspaceDiagnosticChunk = 64

// workspaceDocumentReport is 3.17's WorkspaceFullDocumentDiagnosticReport
// or WorkspaceUnchangedDocumentDiagnosticReport (version null: the files
// are not open).
type workspaceDocumentReport struct {
	Kind     string `json:"kind"` // "full" | "unchanged"
	URI      string `json:"uri"`
	Version  *int32 `json:"version"`
	ResultID string `json:"resultId,omitempty"`
	// Items are a full report's (present, if empty); nil for unchanged.
	Items *[]protocol.Diagnostic `json:"items,omitempty"`
}

// workspaceDiagnosticReport is 3.17's WorkspaceDiagnosticReport.
type workspaceDiagnosticReport struct {
	Items []workspaceDocumentReport `json:"items"`
}

// workspaceDiagnostics answers workspace/diagnostic: the diagnostics of
// the Harn and Leia files under the workspace folders that are not open
// (an open document's come with textDocument/diagnostic or are pushed),
// checked as harn-check checks them, through the check cache when the
// server has one (Options.CheckCache), so that files unchanged since are
// not checked again. At most MaxWorkspaceDiagnosticFiles files are
// checked; the request stops between chunks of files once cancelled. A
// file whose result id the client sent back (previousResultIds) and whose
// diagnostics are the same is reported "unchanged".
func (s *Server) workspaceDiagnostics(g *glsp.Context) (any, error) {
	var p struct {
		PreviousResultIDs []struct {
			URI   string `json:"uri"`
			Value string `json:"value"`
		} `json:"previousResultIds"`
	}
	if err := json.Unmarshal(g.Params, &p); err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "invalid params for " + MethodWorkspaceDiagnostic + ": " + err.Error()}
	}
	previous := map[string]string{}
	for _, r := range p.PreviousResultIDs {
		previous[r.URI] = r.Value
	}
	st := s.state(g)
	langs := language.Drivers(s.opts.Languages)
	s.mu.Lock()
	roots := slices.Clone(s.roots)
	s.mu.Unlock()
	var files []string
	if len(roots) > 0 {
		found, err := driver.Discover(roots, driver.DiscoverOptions{Extensions: langs.Extensions(), AllowEmpty: true})
		if err != nil {
			s.log.Printf("%s: %v", MethodWorkspaceDiagnostic, err)
		}
		for _, f := range found {
			path, err := filepath.Abs(f.Path)
			if err != nil || st.docs[string(cache.PathToURI(path))] != nil {
				continue
			}
			files = append(files, path)
		}
	}
	if len(files) > MaxWorkspaceDiagnosticFiles {
		s.log.Printf("%s: %d files under the workspace folders, checking the first %d", MethodWorkspaceDiagnostic, len(files), MaxWorkspaceDiagnosticFiles)
		files = files[:MaxWorkspaceDiagnosticFiles]
	}
	out := workspaceDiagnosticReport{Items: []workspaceDocumentReport{}}
	opts := driver.Options{Cache: s.opts.CheckCache, Salt: version.BuildID(), Limits: s.store.Limits, AllowEmpty: true, NoManifests: true, Workers: 1}
	for len(files) > 0 {
		if err := st.ctx.Err(); err != nil {
			return nil, err
		}
		chunk := files[:min(len(files), workspaceDiagnosticChunk)]
		files = files[len(chunk):]
		report, err := langs.CheckPaths(chunk, opts)
		if err != nil {
			s.log.Printf("%s: %v", MethodWorkspaceDiagnostic, err)
			continue
		}
		for _, f := range report.Files {
			out.Items = append(out.Items, s.workspaceFileReport(f, report.Sources, previous))
		}
	}
	return out, nil
}

// workspaceFileReport is the report of one checked file not open.
func (s *Server) workspaceFileReport(f diagnostics.File, sources map[string][]byte, previous map[string]string) workspaceDocumentReport {
	path, _ := filepath.Abs(filepath.FromSlash(f.Path))
	uri := cache.PathToURI(path)
	src := f.Source
	if src == nil && len(f.Diagnostics) > 0 {
		src, _ = sourcefs.Read(path, 0)
	}
	m := mapper.New(uri, src, nil)
	files := func(p string) *mapper.Mapper {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(filepath.Dir(path), p)
		}
		if b, ok := sources[p]; ok {
			return mapper.New(cache.PathToURI(abs), b, nil)
		}
		if b, err := sourcefs.Read(abs, 0); err == nil {
			return mapper.New(cache.PathToURI(abs), b, nil)
		}
		return nil
	}
	items := make([]protocol.Diagnostic, 0, len(f.Diagnostics))
	for _, d := range f.Diagnostics {
		items = append(items, mapper.Diagnostic(m, d, files, s.explainHref))
	}
	data, _ := json.Marshal(items)
	sum := sha256.Sum256(data)
	id := hex.EncodeToString(sum[:8])
	if previous[string(uri)] == id {
		return workspaceDocumentReport{Kind: "unchanged", URI: string(uri), ResultID: id}
	}
	return workspaceDocumentReport{Kind: "full", URI: string(uri), ResultID: id, Items: &items}
}
