package catalog

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/internal/suggest"
)

// The tables harn.toml may hold. routes, evaluation (settings.go), lint
// and fmt are read here;
// the others are upstream Harn's manifest tables (package, dependencies,
// check, ...), accepted so that an upstream project's harn.toml is not
// refused, and not read. Any other key is an error naming it.
var (
	readTables     = []string{"routes", "evaluation", "lint", "fmt"}
	upstreamTables = []string{"package", "dependencies", "mcp", "check", "workspace", "registry", "skills",
		"skill", "capabilities", "exports", "llm", "hooks", "triggers", "providers", "personas",
		"connector_contract", "connector-contract", "orchestrator", "asset_roots"}
)

// The keys of [lint], [fmt] and [[lint.overrides]]. Upstream's keys keep
// their spelling (snake_case, with its kebab-case aliases).
var (
	lintKeys     = []string{"select", "ignore", "disabled", "severity", "overrides", "require_file_header", "require-file-header", "complexity_threshold", "complexity-threshold"}
	fmtKeys      = []string{"line_width", "line-width", "separator_width", "separator-width"}
	overrideKeys = []string{"paths", "select", "ignore", "disabled", "severity"}
)

// Severity names a [lint.severity] value may take besides a diagnostic
// severity: off turns the rule off.
const severityOff = "off"

// Config is what harn.toml says about checking and formatting:
//
//	[lint]
//	select = ["HARN", "LEIA"]        # codes, code prefixes or rule names reported (default: all)
//	ignore = ["HARN-NAM-002"]        # codes, prefixes or rule names never reported
//	disabled = ["unused-import"]     # upstream's spelling of ignore
//	severity = { "HARN-TYP-007" = "error", "HARN-TYP-036" = "off", "shadow-variable" = "info" }
//	complexity_threshold = 25        # upstream's
//	require_file_header = false      # upstream's
//
//	[[lint.overrides]]               # for the files matching paths (globs
//	paths = ["tests/**"]             # relative to harn.toml's folder, ** spans folders)
//	ignore = ["HARN-TYP-007"]
//	severity = { "HARN-TYP-036" = "warning" }
//
//	[fmt]
//	line_width = 100                 # upstream's
//
// Later settings win: select, then ignore, then each matching override in
// order (its select turns codes back on). A code's severity is its
// registered one unless a severity table names it; "off" drops it. A rule
// name (upstream's, such as unused-import) stands for the codes its
// explanation pages list it on (diagnostics.RuleCodes). An entry that
// names no registered code or rule is an error, as is a key not listed
// here. A lint rule that is off by default (require-file-header) runs when
// select, an override's select or its own key names it by name or code
// (Enabled); a prefix reports the codes but turns no rule on.
type Config struct {
	// Dir is the folder the project file is in; per-path globs are
	// relative to it. "" without a project file.
	Dir  string
	Lint Lint
	Fmt  Fmt
}

// Lint is the [lint] table.
type Lint struct {
	Select, Ignore []string
	// Severity maps a code or prefix to error, warning, info, hint or off.
	Severity map[string]string
	// Overrides apply to the files their Paths match, in order.
	Overrides []Override
	// ComplexityThreshold is upstream's cyclomatic-complexity bound; 0
	// means the rule's default.
	ComplexityThreshold int
	// RequireFileHeader is upstream's opt-in for require-file-header.
	RequireFileHeader bool
}

// Override is one [[lint.overrides]] entry.
type Override struct {
	Paths          []string
	Select, Ignore []string
	Severity       map[string]string
}

// Fmt is the [fmt] table.
type Fmt struct {
	// LineWidth is the formatter's width; 0 means the language's (100).
	LineWidth int
	// SeparatorWidth is upstream's width of separator comments; 0 means
	// the default.
	SeparatorWidth int
}

// Config returns the project's checking and formatting settings (the
// zero Config without a project file); the error is an *Invalid naming
// the key.
func (p Project) Config() (*Config, error) {
	c := &Config{}
	if p.Path == "" {
		return c, nil
	}
	if abs, err := filepath.Abs(p.Dir()); err == nil {
		c.Dir = abs
	} else {
		c.Dir = p.Dir()
	}
	if err := c.parse(p.Data); err != nil {
		return nil, &Invalid{Path: p.Path, Err: fmt.Errorf("%s: %v", filepath.ToSlash(p.Path), err)}
	}
	return c, nil
}

// checkTopLevel refuses a key of harn.toml no table list names.
func checkTopLevel(raw map[string]any) error {
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		if !slices.Contains(readTables, k) && !slices.Contains(upstreamTables, k) {
			return unknownKey(k, "", slices.Concat(readTables, upstreamTables))
		}
	}
	return nil
}

// unknownKey is the error for key (in table prefix) not among known.
func unknownKey(key, prefix string, known []string) error {
	msg := fmt.Sprintf("unknown key %q", prefix+key)
	if near := suggest.Nearest(key, known, max(suggest.Limit(key), 1)); near != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", prefix+near)
	}
	return fmt.Errorf("%s", msg)
}

func (c *Config) parse(data []byte) error {
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		return err
	}
	if err := checkTopLevel(raw); err != nil {
		return err
	}
	if v, ok := raw["fmt"]; ok {
		t, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("fmt: want a table")
		}
		for _, k := range slices.Sorted(maps.Keys(t)) {
			var err error
			switch k {
			case "line_width", "line-width":
				c.Fmt.LineWidth, err = width(t[k], "fmt."+k)
			case "separator_width", "separator-width":
				c.Fmt.SeparatorWidth, err = width(t[k], "fmt."+k)
			default:
				err = unknownKey(k, "fmt.", fmtKeys)
			}
			if err != nil {
				return err
			}
		}
	}
	v, ok := raw["lint"]
	if !ok {
		return nil
	}
	t, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("lint: want a table")
	}
	for _, k := range slices.Sorted(maps.Keys(t)) {
		var err error
		switch k {
		case "select":
			c.Lint.Select, err = codeList(t[k], "lint."+k)
		case "ignore", "disabled":
			var l []string
			l, err = codeList(t[k], "lint."+k)
			c.Lint.Ignore = append(c.Lint.Ignore, l...)
		case "severity":
			c.Lint.Severity, err = severityTable(t[k], "lint.severity")
		case "require_file_header", "require-file-header":
			b, ok := t[k].(bool)
			if !ok {
				err = fmt.Errorf("lint.%s: want true or false", k)
			}
			c.Lint.RequireFileHeader = b
		case "complexity_threshold", "complexity-threshold":
			c.Lint.ComplexityThreshold, err = width(t[k], "lint."+k)
		case "overrides":
			c.Lint.Overrides, err = overrides(t[k])
		default:
			err = unknownKey(k, "lint.", lintKeys)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// width reads a positive whole number.
func width(v any, key string) (int, error) {
	n, ok := v.(int64)
	if !ok || n < 1 || n > 10000 {
		return 0, fmt.Errorf("%s: want a whole number from 1 to 10000", key)
	}
	return int(n), nil
}

// codeList reads a list of codes or code prefixes, each naming at least
// one registered code ("ALL" names them all).
func codeList(v any, key string) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: want a list of codes", key)
	}
	out := make([]string, 0, len(list))
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("%s[%d]: want a code such as \"HARN-TYP-007\" or a prefix such as \"HARN-LNT\"", key, i)
		}
		if err := knownSelector(s); err != nil {
			return nil, fmt.Errorf("%s[%d]: %v", key, i, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// knownSelector refuses a code, prefix or rule name that names no
// registered code.
func knownSelector(s string) error {
	if s == "ALL" || len(diagnostics.RuleCodes(s)) > 0 {
		return nil
	}
	var codes []string
	for _, info := range diagnostics.Codes() {
		if selects(s, info.Code) {
			return nil
		}
		codes = append(codes, info.Code)
	}
	msg := fmt.Sprintf("%q names no diagnostic code or lint rule", s)
	if strings.ToLower(s) == s {
		codes = ruleNames() // spelt as a rule name: suggest one
	}
	if near := suggest.Nearest(s, codes, max(suggest.Limit(s), 1)); near != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", near)
	}
	return fmt.Errorf("%s; see 'harn-check explain'", msg)
}

// severityTable reads a table of code or prefix = severity.
func severityTable(v any, key string) (map[string]string, error) {
	t, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: want a table of code = severity", key)
	}
	out := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(t)) {
		s, ok := t[k].(string)
		if _, valid := diagnostics.ParseSeverity(s); !ok || !valid && s != severityOff {
			return nil, fmt.Errorf("%s.%q: want error, warning, info, hint or off", key, k)
		}
		if err := knownSelector(k); err != nil {
			return nil, fmt.Errorf("%s: %v", key, err)
		}
		out[k] = s
	}
	return out, nil
}

func overrides(v any) ([]Override, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("lint.overrides: want [[lint.overrides]] tables")
	}
	var out []Override
	for i, e := range list {
		t, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("lint.overrides[%d]: want a table", i)
		}
		key := fmt.Sprintf("lint.overrides[%d].", i)
		var o Override
		for _, k := range slices.Sorted(maps.Keys(t)) {
			var err error
			switch k {
			case "paths":
				o.Paths, err = globList(t[k], key+k)
			case "select":
				o.Select, err = codeList(t[k], key+k)
			case "ignore", "disabled":
				var l []string
				l, err = codeList(t[k], key+k)
				o.Ignore = append(o.Ignore, l...)
			case "severity":
				o.Severity, err = severityTable(t[k], key+k)
			default:
				err = unknownKey(k, key, overrideKeys)
			}
			if err != nil {
				return nil, err
			}
		}
		if len(o.Paths) == 0 {
			return nil, fmt.Errorf("%spaths: required (a list of globs such as \"tests/**\")", key)
		}
		out = append(out, o)
	}
	return out, nil
}

func globList(v any, key string) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: want a list of globs", key)
	}
	var out []string
	for i, e := range list {
		s, ok := e.(string)
		if !ok || s == "" {
			return nil, fmt.Errorf("%s[%d]: want a glob such as \"tests/**\"", key, i)
		}
		if _, err := filepath.Match(strings.ReplaceAll(s, "**", "*"), ""); err != nil {
			return nil, fmt.Errorf("%s[%d] %q: %v", key, i, s, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// ruleNames lists every lint rule name the pages know.
func ruleNames() []string {
	var out []string
	for _, info := range diagnostics.Codes() {
		out = append(out, info.Rules...)
	}
	return out
}

// selects reports whether sel (a code, a prefix of whole parts such as
// "HARN-LNT", a prefix of digits such as "LEIA30", a lint rule's name, or
// ALL) names code.
func selects(sel, code string) bool {
	if sel == "ALL" || sel == code {
		return true
	}
	if sel != "" && 'a' <= sel[0] && sel[0] <= 'z' {
		info, _ := diagnostics.Lookup(code)
		return slices.Contains(info.Rules, sel)
	}
	if !strings.HasPrefix(code, sel) || sel == "" {
		return false
	}
	next, last := code[len(sel)], sel[len(sel)-1]
	return next == '-' || last == '-' || isDigit(next) && (isDigit(last) || strings.HasSuffix(sel, "LEIA"))
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// Rule says whether code is reported for the file at path and with which
// severity (def is the code's own). path is the file as the user named
// it; overrides match it relative to the project's folder. The project
// file's own error (InvalidCode) is always reported.
func (c *Config) Rule(path, code string, def diagnostics.Severity) (diagnostics.Severity, bool) {
	if c == nil || code == InvalidCode {
		return def, true
	}
	on := true
	if len(c.Lint.Select) > 0 {
		on = slices.ContainsFunc(c.Lint.Select, func(s string) bool { return selects(s, code) })
	}
	if slices.ContainsFunc(c.Lint.Ignore, func(s string) bool { return selects(s, code) }) {
		on = false
	}
	sev, off, _ := severityFor(c.Lint.Severity, code, def)
	rel := c.rel(path)
	for _, o := range c.Lint.Overrides {
		if !slices.ContainsFunc(o.Paths, func(g string) bool { return sourcefs.GlobMatch(g, rel) }) {
			continue
		}
		if slices.ContainsFunc(o.Select, func(s string) bool { return selects(s, code) }) {
			on = true
		}
		if slices.ContainsFunc(o.Ignore, func(s string) bool { return selects(s, code) }) {
			on = false
		}
		if s, o, named := severityFor(o.Severity, code, def); named {
			sev, off = s, o
		}
	}
	return sev, on && !off
}

// severityFor looks code up in a severity table: the longest selector
// naming it wins. off reports a rule turned off, named that t names it.
func severityFor(t map[string]string, code string, def diagnostics.Severity) (sev diagnostics.Severity, off, named bool) {
	best := ""
	for sel := range t {
		if selects(sel, code) && (best == "" || len(sel) > len(best) || len(sel) == len(best) && sel < best) {
			best = sel
		}
	}
	if best == "" {
		return def, false, false
	}
	if t[best] == severityOff {
		return def, true, true
	}
	s, _ := diagnostics.ParseSeverity(t[best])
	return s, false, true
}

// rel is path relative to the project's folder, slash-separated.
func (c *Config) rel(path string) string {
	abs, err := filepath.Abs(filepath.FromSlash(path))
	if err != nil || c.Dir == "" {
		return filepath.ToSlash(path)
	}
	r, err := filepath.Rel(c.Dir, abs)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(r)
}

// Enabled returns the entries of the configuration that turn lint rules
// on for the file at path: the rule names and the exact codes of lint
// rules in select and in the selects of the overrides matching path, and
// require-file-header when its key is true. (A prefix reports codes but
// runs no rule that is off by default.)
func (c *Config) Enabled(path string) []string {
	if c == nil {
		return nil
	}
	var out []string
	add := func(entries []string) {
		for _, e := range entries {
			if info, ok := diagnostics.Lookup(e); ok && len(info.Rules) > 0 || len(diagnostics.RuleCodes(e)) > 0 {
				out = append(out, e)
			}
		}
	}
	add(c.Lint.Select)
	rel := c.rel(path)
	for _, o := range c.Lint.Overrides {
		if slices.ContainsFunc(o.Paths, func(g string) bool { return sourcefs.GlobMatch(g, rel) }) {
			add(o.Select)
		}
	}
	if c.Lint.RequireFileHeader {
		out = append(out, "require-file-header")
	}
	return out
}

// Apply returns the diagnostics of the file at path as the configuration
// wants them: those it turns off dropped, the others with their
// configured severity.
func (c *Config) Apply(path string, ds []diagnostics.Diagnostic) []diagnostics.Diagnostic {
	if c == nil || len(c.Lint.Select)+len(c.Lint.Ignore)+len(c.Lint.Severity)+len(c.Lint.Overrides) == 0 {
		return ds
	}
	out := make([]diagnostics.Diagnostic, 0, len(ds))
	for _, d := range ds {
		sev, on := c.Rule(path, d.Code, d.Severity)
		if !on {
			continue
		}
		d.Severity = sev
		out = append(out, d)
	}
	return out
}
