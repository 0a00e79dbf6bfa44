package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/harnlang/harn-check/internal/english"
)

// JSON renders the report: two-space indentation, a final newline, no
// HTML escaping; the same report gives the same bytes.
func (r *Report) JSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ReadReport reads a JSON report (a baseline).
func ReadReport(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, unwrap(err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not an evaluate report: %v", path, err)
	}
	if r.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("%s: report schema_version %d, want %d", path, r.SchemaVersion, SchemaVersion)
	}
	return &r, nil
}

// Text renders the report for a terminal.
func (r *Report) Text(w io.Writer) error {
	var b strings.Builder
	for _, c := range r.Cases {
		fmt.Fprintf(&b, "%-6s %s  %s", strings.ToUpper(c.Status), c.CaseID, c.Name)
		if c.Status != "listed" {
			fmt.Fprintf(&b, " (%d ms)", c.DurationMS)
		}
		b.WriteByte('\n')
		for _, d := range c.Diagnostics {
			fmt.Fprintf(&b, "       %s: %s\n", d.Kind, firstLine(d.Message))
		}
		for _, s := range c.Subcases {
			if s.Status != "passed" {
				fmt.Fprintf(&b, "       subcase %s: %s", s.CaseID, s.Status)
				if len(s.Diagnostics) > 0 {
					fmt.Fprintf(&b, ": %s", firstLine(s.Diagnostics[0].Message))
				}
				b.WriteByte('\n')
			}
		}
	}
	s := r.Summary
	fmt.Fprintf(&b, "\ncases: %d passed, %d failed", s.CasesPassed, s.CasesFailed)
	if s.CasesListed > 0 {
		fmt.Fprintf(&b, ", %d listed", s.CasesListed)
	}
	if s.CasesSkipped > 0 {
		fmt.Fprintf(&b, ", %d filtered out", s.CasesSkipped)
	}
	part := ""
	if r.Shard != nil {
		part = fmt.Sprintf(" (shard %d/%d of %d)", r.Shard.Index, r.Shard.Count, r.Shard.Total)
	}
	fmt.Fprintf(&b, " of %s in %s%s; pass rate %.1f%%\n", english.Count(s.EvaluateBlocks, "evaluate block", "evaluate blocks"), english.Count(s.Files, "file", "files"), part, 100*s.PassRate)
	if s.Subcases > 0 {
		fmt.Fprintf(&b, "subcases: %d passed, %d failed, %d skipped\n", s.Subcases-s.SubcasesFailed-s.SubcasesSkipped, s.SubcasesFailed, s.SubcasesSkipped)
	}
	if line := r.Metrics.text(); line != "" {
		b.WriteString("metrics: " + line + "\n")
	}
	if l := r.LLM; l != nil {
		switch l.Mode {
		case "replay":
			fmt.Fprintf(&b, "llm: replay %s: %d of %d turns replayed, %d left\n", l.ReplayPath, l.ReplayedTurns, l.LoadedTurns, l.RemainingTurns)
		case "record", "update_golden":
			fmt.Fprintf(&b, "llm: %s %s: %d turns recorded\n", l.Mode, l.RecordPath, l.RecordedTurns)
		default:
			fmt.Fprintf(&b, "llm: %s\n", l.Mode)
		}
	}
	if len(r.BrokenScripts) > 0 {
		fmt.Fprintf(&b, "broken validator scripts: %s\n", strings.Join(r.BrokenScripts, ", "))
	}
	warnings := 0
	for _, f := range r.Findings {
		if f.Kind == "check_warning" {
			warnings++
		}
		if f.Kind == "todo" || f.Kind == "case_runtime_error" || caseFindingKinds[f.Kind] || f.Severity != "error" {
			continue
		}
		loc := f.Path
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d:%d", f.Path, f.Line, f.Column)
		}
		fmt.Fprintf(&b, "%s: %s: %s: %s\n", f.Severity, f.Kind, loc, firstLine(f.Message))
	}
	if warnings > 0 {
		fmt.Fprintf(&b, "checker warnings: %d (harn-check check shows them)\n", warnings)
	}
	if c := r.Comparison; c != nil {
		fmt.Fprintf(&b, "baseline %s: pass rate %.1f%% -> %.1f%%, %d regressions, %d improvements\n", c.Baseline, 100*c.PassRateBefore, 100*c.PassRateAfter, len(c.Regressions), len(c.Improvements))
		for _, x := range c.Regressions {
			fmt.Fprintf(&b, "  regression %s (%s): %s -> %s\n", x.CaseID, x.Name, x.Before, x.After)
		}
		for _, m := range c.MetricRegression {
			fmt.Fprintf(&b, "  metric regression: %s\n", m)
		}
	}
	fmt.Fprintf(&b, "status: %s\n", r.Status)
	_, err := io.WriteString(w, b.String())
	return err
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func (m MetricSummary) text() string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, n+" "+m[n].text())
	}
	return strings.Join(parts, "; ")
}

func (s *MetricStats) text() string {
	switch {
	case s.PassRate != nil:
		return fmt.Sprintf("%d/%d (%.1f%%)", *s.Passed, s.Count, 100**s.PassRate)
	case s.Mean != nil:
		return fmt.Sprintf("n=%d mean=%g min=%g max=%g", s.Count, *s.Mean, *s.Min, *s.Max)
	case len(s.Categories) > 0:
		keys := make([]string, 0, len(s.Categories))
		for k := range s.Categories {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var cs []string
		for _, k := range keys {
			cs = append(cs, fmt.Sprintf("%s=%d", k, s.Categories[k]))
		}
		return strings.Join(cs, " ")
	}
	return fmt.Sprintf("n=%d", s.Count)
}

// HTML renders a self-contained page: summary, cases, findings.
func (r *Report) HTML(w io.Writer) error {
	var b strings.Builder
	e := html.EscapeString
	b.WriteString("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Leia evaluate report</title>\n")
	b.WriteString("<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}.passed{color:#176d1e}.failed{color:#b00020}.listed{color:#555}</style></head><body>\n")
	s := r.Summary
	fmt.Fprintf(&b, "<h1>Leia evaluate report: <span class=\"%s\">%s</span></h1>\n", statusClass(r.Status), e(r.Status))
	fmt.Fprintf(&b, "<p>%d passed, %d failed, %d listed of %s in %s; pass rate %.1f%%. Started %s.</p>\n",
		s.CasesPassed, s.CasesFailed, s.CasesListed, english.Count(s.EvaluateBlocks, "evaluate block", "evaluate blocks"), english.Count(s.Files, "file", "files"), 100*s.PassRate, e(r.StartedAt))
	b.WriteString("<h2>Cases</h2>\n<table><tr><th>Status</th><th>Case</th><th>Name</th><th>ms</th><th>Details</th></tr>\n")
	for _, c := range r.Cases {
		var det []string
		for _, d := range c.Diagnostics {
			det = append(det, e(d.Kind+": "+firstLine(d.Message)))
		}
		for _, sc := range c.Subcases {
			det = append(det, e("subcase "+sc.CaseID+": "+sc.Status))
		}
		if line := c.MetricSummaries.text(); line != "" {
			det = append(det, e("metrics: "+line))
		}
		fmt.Fprintf(&b, "<tr><td class=\"%s\">%s</td><td>%s</td><td>%s</td><td>%d</td><td>%s</td></tr>\n",
			statusClass(c.Status), e(c.Status), e(c.CaseID), e(c.Name), c.DurationMS, strings.Join(det, "<br>"))
	}
	b.WriteString("</table>\n")
	if line := r.Metrics.text(); line != "" {
		fmt.Fprintf(&b, "<h2>Metrics</h2>\n<p>%s</p>\n", e(line))
	}
	if len(r.Findings) > 0 {
		b.WriteString("<h2>Findings</h2>\n<table><tr><th>Severity</th><th>Kind</th><th>Where</th><th>Message</th></tr>\n")
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s:%d:%d</td><td>%s</td></tr>\n", e(f.Severity), e(f.Kind), e(f.Path), f.Line, f.Column, e(f.Message))
		}
		b.WriteString("</table>\n")
	}
	if len(r.BrokenScripts) > 0 {
		fmt.Fprintf(&b, "<p>Broken validator scripts: %s</p>\n", e(strings.Join(r.BrokenScripts, ", ")))
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func statusClass(s string) string {
	switch s {
	case "passed", "ok":
		return "passed"
	case "listed":
		return "listed"
	}
	return "failed"
}

// Compare sets the report's comparison with a baseline: a case that
// passed in the baseline and fails now is a regression (cases are
// matched by case id, then by file and name), a fall of the overall pass
// rate or of a bool metric's pass rate by more than threshold is one too.
func (r *Report) Compare(base *Report, path string, threshold float64) {
	c := &Comparison{Baseline: path, PassRateBefore: base.Summary.PassRate, PassRateAfter: r.Summary.PassRate,
		Regressions: []CaseChange{}, Improvements: []CaseChange{}, MetricRegression: []string{}}
	byID := map[string]Case{}
	byName := map[string]Case{}
	for _, bc := range base.Cases {
		byID[bc.CaseID] = bc
		byName[bc.SourcePath+"\x00"+bc.Name] = bc
	}
	for _, nc := range r.Cases {
		bc, ok := byID[nc.CaseID]
		if !ok {
			bc, ok = byName[nc.SourcePath+"\x00"+nc.Name]
		}
		if !ok || bc.Status == nc.Status {
			continue
		}
		ch := CaseChange{CaseID: nc.CaseID, Name: nc.Name, Before: bc.Status, After: nc.Status}
		switch {
		case bc.Status == "passed" && nc.Status == "failed":
			c.Regressions = append(c.Regressions, ch)
		case bc.Status == "failed" && nc.Status == "passed":
			c.Improvements = append(c.Improvements, ch)
		}
	}
	if c.PassRateBefore-c.PassRateAfter > threshold && r.Summary.CasesPassed+r.Summary.CasesFailed > 0 {
		c.MetricRegression = append(c.MetricRegression, fmt.Sprintf("pass_rate %.4g -> %.4g", c.PassRateBefore, c.PassRateAfter))
	}
	names := make([]string, 0, len(r.Metrics))
	for n := range r.Metrics {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		now, before := r.Metrics[n], base.Metrics[n]
		if now == nil || before == nil || now.PassRate == nil || before.PassRate == nil {
			continue
		}
		if *before.PassRate-*now.PassRate > threshold {
			c.MetricRegression = append(c.MetricRegression, fmt.Sprintf("%s pass rate %.4g -> %.4g", n, *before.PassRate, *now.PassRate))
		}
	}
	c.Regressed = len(c.Regressions) > 0 || len(c.MetricRegression) > 0
	r.Comparison = c
}
