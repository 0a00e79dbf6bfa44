package harness

import (
	"encoding/json"
	"math"
	"sort"

	"github.com/harnlang/harn-check/diagnostics"
)

// SchemaVersion is the report's schema version.
const SchemaVersion = 1

// Phase is the report's phase label (upstream's).
const Phase = "runtime-minimal"

// Report is the result of one evaluation run. Field names and meanings
// follow upstream Leia's `leia evaluate --json` report (schema_version
// 1); metrics, metric summaries, subcases, usage, broken_scripts and the
// baseline comparison are additions in the same style.
type Report struct {
	SchemaVersion int           `json:"schema_version"`
	Phase         string        `json:"phase"`
	Status        string        `json:"status"`
	StartedAt     string        `json:"started_at"`
	Runtime       RuntimeInfo   `json:"runtime"`
	Summary       Summary       `json:"summary"`
	LLM           *LLMRun       `json:"llm,omitempty"`
	Inputs        []Input       `json:"inputs"`
	Cases         []Case        `json:"cases"`
	Metrics       MetricSummary `json:"metrics"`
	Findings      []Finding     `json:"findings"`
	BrokenScripts []string      `json:"broken_scripts"`
	Comparison    *Comparison   `json:"comparison,omitempty"`
	Notes         []string      `json:"notes"`
	// Shard is set in the report of one shard of a run (Options.Shard).
	Shard *ReportShard `json:"shard,omitempty"`
}

// ReportShard, in the report of one shard of a run, says which files of
// the whole run it holds (Index of Count, Total files, their Positions)
// and how its cases and findings divide among them, so that Merge can
// put the shards' reports back together.
type ReportShard struct {
	diagnostics.Shard
	// FileFindings counts, per file, the findings of the file itself
	// (TODOs, parse and check findings): Findings begins with them, in
	// file order.
	FileFindings []int `json:"file_findings"`
	// Cases counts, per file, its cases in Cases.
	Cases []int `json:"cases"`
	// CaseFindings counts, per file, the findings of its failed cases,
	// which follow the files' own in Findings.
	CaseFindings []int `json:"case_findings"`
}

// RuntimeInfo names the tool that produced the report.
type RuntimeInfo struct {
	LeiaVersion string `json:"leia_version"`
	GoVersion   string `json:"go_version"`
	GOOS        string `json:"goos"`
	GOARCH      string `json:"goarch"`
	Revision    string `json:"revision,omitempty"`
}

// Summary is the dashboard counts.
type Summary struct {
	Files          int `json:"files"`
	ParsedFiles    int `json:"parsed_files"`
	EvaluateBlocks int `json:"evaluate_blocks"`
	Agents         int `json:"agents"`
	Tools          int `json:"tools"`
	Models         int `json:"models"`
	Budgets        int `json:"budgets"`
	TODOs          int `json:"todos"`
	CasesSelected  int `json:"cases_selected"`
	CasesSkipped   int `json:"cases_skipped"`
	CasesPassed    int `json:"cases_passed"`
	CasesFailed    int `json:"cases_failed"`
	CasesListed    int `json:"cases_listed"`
	Assertions     int `json:"assertions"`
	Subcases       int `json:"subcases"`
	SubcasesFailed int `json:"subcases_failed"`
	// SubcasesSkipped are eval.skip_if'd subcases.
	SubcasesSkipped int     `json:"subcases_skipped"`
	DurationMS      int64   `json:"duration_ms"`
	PassRate        float64 `json:"pass_rate"`
}

// LLMRun describes the model-call mode of the run.
type LLMRun struct {
	Mode           string `json:"mode"`
	RecordPath     string `json:"record_path,omitempty"`
	ReplayPath     string `json:"replay_path,omitempty"`
	GoldenUpdated  bool   `json:"golden_updated,omitempty"`
	LoadedTurns    int    `json:"loaded_turns"`
	ReplayedTurns  int    `json:"replayed_turns"`
	RemainingTurns int    `json:"remaining_turns"`
	RecordedTurns  int    `json:"recorded_turns"`
}

// Input is one file's status: ok, or error (unreadable, syntax or check
// errors, a failed case).
type Input struct {
	Path   string `json:"path"`
	Status string `json:"status"`
}

// Range is a 1-based source position.
type Range struct {
	StartLine   int `json:"start_line"`
	StartColumn int `json:"start_column"`
}

// Case is one evaluate block.
type Case struct {
	CaseID     string `json:"case_id"`
	Name       string `json:"name"`
	SourcePath string `json:"source_path"`
	Range      Range  `json:"range"`
	// Status is listed, passed or failed.
	Status      string       `json:"status"`
	StartedAt   string       `json:"started_at,omitempty"`
	DurationMS  int64        `json:"duration_ms"`
	Assertions  []Assertion  `json:"assertions"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	Subcases    []Subcase    `json:"subcases"`
	// Metrics are those recorded outside any eval.case.
	Metrics []Metric `json:"metrics"`
	// MetricSummaries summarize the case's metrics and its subcases'
	// (skipped subcases excluded).
	MetricSummaries MetricSummary `json:"metric_summaries"`
	Usage           *Usage        `json:"usage,omitempty"`
	BrokenScripts   []string      `json:"broken_scripts"`
}

// Assertion is one assert(...) call in a case body.
type Assertion struct {
	ID string `json:"id"`
	// Status is passed (the case passed), failed (the assertion that
	// failed) or unknown (not reached, or the case failed elsewhere).
	Status  string `json:"status"`
	Range   Range  `json:"range"`
	Message string `json:"message,omitempty"`
}

// Diagnostic is a problem of a case or subcase.
type Diagnostic struct {
	Kind     string `json:"kind"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Range    *Range `json:"range,omitempty"`
}

// Subcase is one eval.case.
type Subcase struct {
	CaseID string `json:"case_id"`
	// Status is running (never finished), passed, failed or skipped.
	Status      string       `json:"status"`
	StartedAt   string       `json:"started_at"`
	DurationMS  int64        `json:"duration_ms"`
	Metrics     []Metric     `json:"metrics"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Metric is one eval.metric: its type is bool, number, string, nil or
// table (JSON-like value).
type Metric struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value any    `json:"value"`
}

// Usage is what a case spent on models.
type Usage struct {
	Turns        int64   `json:"turns"`
	Tokens       int64   `json:"tokens"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	Cost         float64 `json:"cost"`
	StreamEvents int64   `json:"stream_events"`
	ToolCalls    int64   `json:"tool_calls"`
}

// MetricSummary maps metric names to their summaries.
type MetricSummary map[string]*MetricStats

// MetricStats summarizes one metric's values: bool metrics as a pass
// rate (passed of count), numbers as count, mean, min and max, strings
// as category counts. Values of other types are counted only.
type MetricStats struct {
	Type       string         `json:"type"`
	Count      int            `json:"count"`
	Passed     *int           `json:"passed,omitempty"`
	PassRate   *float64       `json:"pass_rate,omitempty"`
	Mean       *float64       `json:"mean,omitempty"`
	Min        *float64       `json:"min,omitempty"`
	Max        *float64       `json:"max,omitempty"`
	Categories map[string]int `json:"categories,omitempty"`
	sum        float64
	numbers    int
}

// Finding is a report-level problem or note.
type Finding struct {
	Kind     string `json:"kind"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Path     string `json:"path,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	// Details carries structured data: a replay mismatch's expected and
	// actual request summaries (metadata only), counts.
	Details map[string]any `json:"details,omitempty"`
}

// Comparison is the result of comparing with a baseline report.
type Comparison struct {
	Baseline         string       `json:"baseline"`
	PassRateBefore   float64      `json:"pass_rate_before"`
	PassRateAfter    float64      `json:"pass_rate_after"`
	Regressions      []CaseChange `json:"regressions"`
	Improvements     []CaseChange `json:"improvements"`
	MetricRegression []string     `json:"metric_regressions"`
	Regressed        bool         `json:"regressed"`
}

// CaseChange is a case whose status changed against the baseline.
type CaseChange struct {
	CaseID string `json:"case_id"`
	Name   string `json:"name"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// add folds one metric into the summary.
func (m MetricSummary) add(mt Metric) {
	s := m[mt.Name]
	if s == nil {
		s = &MetricStats{Type: mt.Type}
		m[mt.Name] = s
	}
	if s.Type != mt.Type {
		s.Type = "mixed"
	}
	s.Count++
	switch v := mt.Value.(type) {
	case bool:
		if s.Passed == nil {
			s.Passed = new(int)
		}
		if v {
			*s.Passed++
		}
	case int64:
		s.addNumber(float64(v))
	case float64:
		s.addNumber(v)
	case json.Number: // a report read back (DecodeReport)
		if i, err := v.Int64(); err == nil {
			s.addNumber(float64(i))
		} else if f, err := v.Float64(); err == nil {
			s.addNumber(f)
		}
	case string:
		if s.Categories == nil {
			s.Categories = map[string]int{}
		}
		s.Categories[v]++
	}
}

func (s *MetricStats) addNumber(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return
	}
	if s.Min == nil || f < *s.Min {
		s.Min = &f
	}
	if s.Max == nil || f > *s.Max {
		g := f
		s.Max = &g
	}
	s.sum += f
	s.numbers++
}

// finish computes pass rates and means.
func (m MetricSummary) finish() {
	for _, s := range m {
		if s.Passed != nil && s.Count > 0 {
			r := round4(float64(*s.Passed) / float64(s.Count))
			s.PassRate = &r
		}
		if s.numbers > 0 {
			mean := round4(s.sum / float64(s.numbers))
			s.Mean = &mean
		}
	}
}

func round4(f float64) float64 { return math.Round(f*10000) / 10000 }

// MarshalJSON keeps a summary's keys sorted (maps already are) and
// writes {} for an empty one.
func (m MetricSummary) MarshalJSON() ([]byte, error) {
	if len(m) == 0 {
		return []byte("{}"), nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := map[string]*MetricStats{}
	for _, k := range keys {
		out[k] = m[k]
	}
	return json.Marshal(out)
}
