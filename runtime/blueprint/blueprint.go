// Package blueprint loads the output settings of Leviath-style TOML
// blueprints: which format each stage produces, which Rhai validator
// checks it, and what happens when that validator fails to run.
//
// Two forms are read, and may be mixed in one file:
//
//	[agent.output]                      # default for every stage
//	format = "a2ui"
//	validator = "validators/a2ui.rhai"  # path relative to the blueprint directory
//	on_validator_error = "reject"       # "reject" (default) | "accept"
//
//	[stages.present.output]             # stage value wins per field
//	validator = "validators/a2ui.rhai"
//
//	[[graph.stages]]
//	name = "present"
//	output = { format = "a2ui", validator = { file = "validators/a2ui.rhai" }, on_validator_error = "reject" }
//
// A validator is a path string, a table {file = PATH} or a table
// {inline = SCRIPT}; file and inline are mutually exclusive. Inline scripts
// are labelled "<blueprint path>#<stage>" in messages. Paths resolve against
// the blueprint's directory and may not leave it (symbolic links included).
//
// Every problem is a diagnostic whose span points at the TOML key (or
// value) in the blueprint file. The package does no validation of scripts
// itself; runtime/validator compiles them.
//
// TOML is read with github.com/pelletier/go-toml/v2: its decoder validates
// the document, and its unstable.Parser gives the byte range of every key
// and value, which BurntSushi/toml keeps private.
package blueprint

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
	toml "github.com/pelletier/go-toml/v2"
)

// The codes this package reports.
const (
	CodeBadOnError     = "RHAI-BLU-001"
	CodePathEscapes    = "RHAI-BLU-002"
	CodeMissingFile    = "RHAI-BLU-003"
	CodeTOMLSyntax     = "RHAI-BLU-004"
	CodeBadValidator   = "RHAI-BLU-005"
	CodeBadOutputField = "RHAI-BLU-006"
	// CodeUnreadableBlueprint is reported by callers that walk for blueprints.
	CodeUnreadableBlueprint = "RHAI-BLU-007"
)

// OutputKeys are the keys an output table may hold; any other is an
// error naming it.
var OutputKeys = []string{"format", "instructions", "schema", "validator", "on_validator_error"}

// Blueprint is the output configuration of one blueprint file.
type Blueprint struct {
	// Path is the file as named by the caller; Dir its directory.
	Path, Dir string
	// Agent holds [agent.output]; nil when absent.
	Agent *Output
	// Stages in file order: [stages.<name>] tables first (sorted by name,
	// as TOML tables are unordered), then [[graph.stages]] in order.
	Stages []Stage
}

// Stage is one stage's output settings.
type Stage struct {
	Name string
	// Form is "stages" for [stages.<name>.output], "graph" for [[graph.stages]].
	Form   string
	Output *Output
	// Span is the stage's key (or name value) in the TOML file.
	Span diagnostics.Span
}

// Output is one output table. Unset fields are empty.
type Output struct {
	Format string
	// Schema is the declared JSON Schema as JSON text ("" when absent):
	// `schema = '{...}'` as written, or a TOML table converted to JSON.
	Schema    string
	Validator *ValidatorRef
	// OnValidatorError is "", "reject" or "accept".
	OnValidatorError string
	// Span is the output table's key.
	Span diagnostics.Span
}

// ValidatorRef names a validator script.
type ValidatorRef struct {
	// File is the path as written; empty for an inline script.
	File string
	// Inline is the script text of {inline = ...}.
	Inline string
	// Resolved is the cleaned path under the blueprint directory.
	Resolved string
	// Label names the script in messages and broken_scripts: the path as
	// written, or "<blueprint>#<stage>" for inline scripts.
	Label string
	// KeySpan is the "validator" key; ValueSpan the path or script string
	// (quotes included).
	KeySpan, ValueSpan diagnostics.Span
	// InlineOffset is the byte offset in the TOML file where the inline
	// script's first byte is written, or -1 when the string uses escapes
	// and script offsets cannot be mapped back exactly.
	InlineOffset int
}

// Load reads and parses path. The error is only for an unreadable file.
func Load(path string) (*Blueprint, []diagnostics.Diagnostic, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	bp, diags := Parse(path, data)
	return bp, diags, nil
}

// LooksLikeBlueprint reports whether a TOML document declares outputs
// (agent.output, stages.*.output or graph.stages[*].output), or, when it
// does not parse, mentions a validator.
func LooksLikeBlueprint(data []byte) bool {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return strings.Contains(string(data), "validator")
	}
	if agent, ok := doc["agent"].(map[string]any); ok {
		if _, ok := agent["output"]; ok {
			return true
		}
	}
	if stages, ok := doc["stages"].(map[string]any); ok {
		for _, s := range stages {
			if m, ok := s.(map[string]any); ok && m["output"] != nil {
				return true
			}
		}
	}
	if graph, ok := doc["graph"].(map[string]any); ok {
		if stages, ok := graph["stages"].([]any); ok {
			for _, s := range stages {
				if m, ok := s.(map[string]any); ok && m["output"] != nil {
					return true
				}
			}
		}
	}
	return false
}

type loader struct {
	data  []byte
	bp    *Blueprint
	idx   *index
	diags []diagnostics.Diagnostic
}

func (l *loader) report(code string, span diagnostics.Span, format string, args ...any) {
	l.diags = append(l.diags, diagnostics.New(l.bp.Path, diagnostics.SourceValidator, code, span, fmt.Sprintf(format, args...)))
}

// Parse reads a blueprint from data. Problems are diagnostics; the
// returned blueprint holds whatever could be read.
func Parse(path string, data []byte) (*Blueprint, []diagnostics.Diagnostic) {
	l := &loader{data: data, bp: &Blueprint{Path: path, Dir: filepath.Dir(path)}}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		span := diagnostics.Span{}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			span = offsetOf(data, row, col)
		}
		l.report(CodeTOMLSyntax, span, "the blueprint is not valid TOML: %s", err)
		return l.bp, l.diags
	}
	l.idx = buildIndex(data)
	if agent, ok := doc["agent"].(map[string]any); ok {
		if out, ok := agent["output"]; ok {
			l.bp.Agent = l.output(out, "agent.output", "agent")
		}
	}
	if stages, ok := doc["stages"].(map[string]any); ok {
		names := make([]string, 0, len(stages))
		for n := range stages {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			m, ok := stages[n].(map[string]any)
			if !ok {
				continue
			}
			span, ok := l.idx.keys["stages."+n]
			if !ok {
				span = l.idx.key("stages." + n + ".output")
			}
			st := Stage{Name: n, Form: "stages", Span: span}
			if out, ok := m["output"]; ok {
				st.Output = l.output(out, "stages."+n+".output", n)
			}
			l.bp.Stages = append(l.bp.Stages, st)
		}
	}
	if graph, ok := doc["graph"].(map[string]any); ok {
		if stages, ok := graph["stages"].([]any); ok {
			for i, s := range stages {
				m, ok := s.(map[string]any)
				if !ok {
					continue
				}
				p := fmt.Sprintf("graph.stages[%d]", i)
				name, _ := m["name"].(string)
				span := l.idx.value(p + ".name")
				if name == "" {
					name = fmt.Sprintf("stage %d", i+1)
					span = l.idx.key(p)
				}
				st := Stage{Name: name, Form: "graph", Span: span}
				if out, ok := m["output"]; ok {
					st.Output = l.output(out, p+".output", name)
				}
				l.bp.Stages = append(l.bp.Stages, st)
			}
		}
	}
	return l.bp, l.diags
}

func (l *loader) output(v any, path, stage string) *Output {
	m, ok := v.(map[string]any)
	if !ok {
		l.report(CodeBadOutputField, l.idx.key(path), "`output` must be a table, found %s", tomlType(v))
		return nil
	}
	out := &Output{Span: l.idx.key(path)}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(OutputKeys, k) {
			l.report(CodeBadOutputField, l.idx.key(path+"."+k), "unknown key `%s` in [%s]; an output table takes %s", k, path, strings.Join(OutputKeys, ", "))
		}
	}
	if sv, ok := m["schema"]; ok {
		switch t := sv.(type) {
		case string:
			out.Schema = strings.TrimSpace(t)
		case map[string]any:
			data, err := json.Marshal(t)
			if err != nil {
				l.report(CodeBadOutputField, l.idx.key(path+".schema"), "`schema` cannot be read as JSON: %v", err)
			} else {
				out.Schema = string(data)
			}
		default:
			l.report(CodeBadOutputField, l.idx.key(path+".schema"), "`schema` must be JSON Schema text or a table, found %s", tomlType(sv))
		}
	}
	if f, ok := m["format"]; ok {
		s, isStr := f.(string)
		if !isStr {
			l.report(CodeBadOutputField, l.idx.key(path+".format"), "`format` must be a string, found %s", tomlType(f))
		}
		out.Format = strings.TrimSpace(s)
	}
	if e, ok := m["on_validator_error"]; ok {
		s, isStr := e.(string)
		switch {
		case !isStr:
			l.report(CodeBadOnError, l.idx.value(path+".on_validator_error"),
				"`on_validator_error` must be \"reject\" or \"accept\", found %s", tomlType(e))
		case s != "reject" && s != "accept":
			l.report(CodeBadOnError, l.idx.value(path+".on_validator_error"),
				"`on_validator_error` must be \"reject\" or \"accept\", found %q", s)
		default:
			out.OnValidatorError = s
		}
	}
	if v, ok := m["validator"]; ok {
		out.Validator = l.validator(v, path+".validator", stage)
	}
	return out
}

func (l *loader) validator(v any, path, stage string) *ValidatorRef {
	ref := &ValidatorRef{KeySpan: l.idx.key(path), ValueSpan: l.idx.value(path), InlineOffset: -1}
	bad := func(why string) *ValidatorRef {
		l.report(CodeBadValidator, ref.KeySpan, "`validator` must be a path string, {file = PATH} or {inline = SCRIPT}: %s", why)
		return nil
	}
	switch t := v.(type) {
	case string:
		ref.File = strings.TrimSpace(t)
	case map[string]any:
		file, hasFile := t["file"]
		inline, hasInline := t["inline"]
		for k := range t {
			if k != "file" && k != "inline" {
				return bad(fmt.Sprintf("unknown key %q", k))
			}
		}
		switch {
		case hasFile && hasInline:
			return bad("file and inline are mutually exclusive")
		case hasFile:
			s, ok := file.(string)
			if !ok {
				return bad("file must be a string")
			}
			ref.File = strings.TrimSpace(s)
			ref.ValueSpan = l.idx.value(path + ".file")
		case hasInline:
			s, ok := inline.(string)
			if !ok {
				return bad("inline must be a string")
			}
			ref.Inline = s
			ref.ValueSpan = l.idx.value(path + ".inline")
			ref.Label = l.bp.Path + "#" + stage
			ref.InlineOffset = inlineOffset(l.data, ref.ValueSpan, s)
			return ref
		default:
			return bad("the table has neither file nor inline")
		}
	default:
		return bad("found " + tomlType(v))
	}
	if ref.File == "" {
		return bad("the path is empty")
	}
	ref.Label = ref.File
	resolved, err := Resolve(l.bp.Dir, ref.File)
	if err != nil {
		var esc *EscapeError
		if errors.As(err, &esc) {
			l.report(CodePathEscapes, ref.ValueSpan, "%s", err)
		} else {
			l.report(CodeMissingFile, ref.ValueSpan, "%s", err)
		}
		return nil
	}
	ref.Resolved = resolved
	return ref
}

// EscapeError reports a validator path that leaves the blueprint directory.
type EscapeError struct{ Path, Dir string }

func (e *EscapeError) Error() string {
	return fmt.Sprintf("output validator '%s' resolves outside the blueprint's directory (%s); keep validators inside it", e.Path, e.Dir)
}

// Resolve joins a validator path to the blueprint directory, refusing
// absolute paths and paths that leave dir, also through symbolic links,
// and reporting a missing or unreadable file.
func Resolve(dir, p string) (string, error) {
	if filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return "", &EscapeError{Path: p, Dir: dir}
	}
	joined := filepath.Join(dir, p)
	if !inside(dir, joined) {
		return "", &EscapeError{Path: p, Dir: dir}
	}
	realDir, err1 := filepath.EvalSymlinks(dir)
	realFile, err2 := filepath.EvalSymlinks(joined)
	if err1 == nil && err2 == nil && !inside(realDir, realFile) {
		return "", &EscapeError{Path: p, Dir: dir}
	}
	f, err := os.Open(joined)
	if err != nil {
		return "", fmt.Errorf("cannot read output validator '%s': %v", joined, errors.Unwrap(err))
	}
	st, err := f.Stat()
	f.Close()
	if err == nil && st.IsDir() {
		return "", fmt.Errorf("cannot read output validator '%s': is a directory", joined)
	}
	return joined, nil
}

func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

// offsetOf converts a 1-based row and column to a byte span of one byte.
func offsetOf(data []byte, row, col int) diagnostics.Span {
	off := 0
	for r := 1; r < row && off < len(data); r++ {
		i := strings.IndexByte(string(data[off:]), '\n')
		if i < 0 {
			off = len(data)
			break
		}
		off += i + 1
	}
	off = min(off+max(col-1, 0), len(data))
	return diagnostics.Span{Start: off, End: min(off+1, len(data))}
}

// inlineOffset finds where script s starts inside the TOML string at
// span, when the string is written without escapes.
func inlineOffset(data []byte, span diagnostics.Span, s string) int {
	if span.Start < 0 || span.End > len(data) || span.Start >= span.End {
		return -1
	}
	raw := string(data[span.Start:span.End])
	for _, delim := range []string{`"""`, "'''", `"`, "'"} {
		if len(raw) >= 2*len(delim) && strings.HasPrefix(raw, delim) && strings.HasSuffix(raw, delim) {
			body := raw[len(delim) : len(raw)-len(delim)]
			start := span.Start + len(delim)
			if len(delim) == 3 {
				if strings.HasPrefix(body, "\r\n") {
					body, start = body[2:], start+2
				} else if strings.HasPrefix(body, "\n") {
					body, start = body[1:], start+1
				}
			}
			if body == s {
				return start
			}
			return -1
		}
	}
	return -1
}
