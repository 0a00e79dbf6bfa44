package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/runtime/runner"
)

// The outputs of harn-check test that merge joins: the --json document
// and the --junit XML. Each is built from its cases by one function,
// here, for a run and for a merge of shards alike, so that the merged
// output is the whole run's byte for byte.

// testCase is one case of test --json.
type testCase struct {
	Path       string `json:"path"`
	Passed     bool   `json:"passed"`
	Message    string `json:"message,omitempty"`
	DurationMS int64  `json:"duration_ms"`
}

// testDoc is the document test --json prints.
type testDoc struct {
	SchemaVersion int  `json:"schemaVersion"`
	OK            bool `json:"ok"`
	Data          struct {
		Cases   []testCase     `json:"cases"`
		Summary map[string]int `json:"summary"`
	} `json:"data"`
	// Shard is set in the output of one shard of a run (--shard).
	Shard *diagnostics.Shard `json:"shard,omitempty"`
}

// newTestDoc is the --json document of cases.
func newTestDoc(cases []testCase, shard *diagnostics.Shard) *testDoc {
	doc := &testDoc{SchemaVersion: 1, Shard: shard}
	doc.Data.Cases = append([]testCase{}, cases...)
	passed := 0
	for _, c := range cases {
		if c.Passed {
			passed++
		}
	}
	doc.OK = passed == len(cases)
	doc.Data.Summary = map[string]int{"passed": passed, "failed": len(cases) - passed, "total": len(cases)}
	return doc
}

// testCases are the --json cases of results.
func testCases(results []runner.CaseResult) []testCase {
	out := make([]testCase, len(results))
	for i, r := range results {
		out[i] = testCase{Path: r.Rel, Passed: r.Passed, Message: r.Message, DurationMS: r.Duration.Milliseconds()}
	}
	return out
}

// render is the document's bytes: two-space indentation, a final
// newline, no HTML escaping (printJSON's form).
func (d *testDoc) render() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(d)
	return b.Bytes(), err
}

// junitSuite is the --junit document: one testsuite.
type junitSuite struct {
	XMLName    xml.Name    `xml:"testsuite"`
	Name       string      `xml:"name,attr"`
	Tests      int         `xml:"tests,attr"`
	Failures   int         `xml:"failures,attr"`
	Time       string      `xml:"time,attr"`
	Properties *junitProps `xml:"properties,omitempty"`
	Cases      []junitCase `xml:"testcase"`
}

// junitProps are a suite's properties: in the output of one shard, which
// part of the run it holds (the properties of junitShardProps).
type junitProps struct {
	Property []junitProp `xml:"property"`
}

type junitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name    string        `xml:"name,attr"`
	Time    string        `xml:"time,attr"`
	Failure *junitFailure `xml:"failure,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// The properties naming the shard of a --junit output.
const (
	junitShardProp     = "harn-check.shard"
	junitTotalProp     = "harn-check.shard.total"
	junitPositionsProp = "harn-check.shard.positions"
)

// junitSeconds is the form of a JUnit time attribute.
func junitSeconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// newJUnit is the --junit suite of cases taking seconds in all.
func newJUnit(cases []junitCase, seconds float64, shard *diagnostics.Shard) *junitSuite {
	s := &junitSuite{Name: "harn", Tests: len(cases), Time: junitSeconds(seconds), Cases: cases}
	for _, c := range cases {
		if c.Failure != nil {
			s.Failures++
		}
	}
	if shard != nil {
		pos := make([]string, len(shard.Positions))
		for i, p := range shard.Positions {
			pos[i] = strconv.Itoa(p)
		}
		s.Properties = &junitProps{Property: []junitProp{
			{junitShardProp, fmt.Sprintf("%d/%d", shard.Index, shard.Count)},
			{junitTotalProp, strconv.Itoa(shard.Total)},
			{junitPositionsProp, strings.Join(pos, " ")},
		}}
	}
	return s
}

// junitCases are the --junit cases of results.
func junitCases(results []runner.CaseResult) []junitCase {
	out := make([]junitCase, len(results))
	for i, r := range results {
		out[i] = junitCase{Name: r.Rel, Time: junitSeconds(r.Duration.Seconds())}
		if !r.Passed {
			out[i].Failure = &junitFailure{Message: "test failed", Text: r.Message}
		}
	}
	return out
}

// render is the suite's bytes: the XML header, two-space indentation,
// a final newline.
func (s *junitSuite) render() ([]byte, error) {
	b, err := xml.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}

// shard reads the shard a suite's properties name; nil when they name
// none (the output of a run without --shard).
func (s *junitSuite) shard() (*diagnostics.Shard, error) {
	if s.Properties == nil {
		return nil, nil
	}
	props := map[string]string{}
	for _, p := range s.Properties.Property {
		props[p.Name] = p.Value
	}
	spec, ok := props[junitShardProp]
	if !ok {
		return nil, nil
	}
	sh, err := diagnostics.ParseShard(spec)
	if err != nil {
		return nil, fmt.Errorf("property %s: %v", junitShardProp, err)
	}
	if sh.Total, err = strconv.Atoi(props[junitTotalProp]); err != nil {
		return nil, fmt.Errorf("property %s: %v", junitTotalProp, err)
	}
	sh.Positions = []int{}
	for _, f := range strings.Fields(props[junitPositionsProp]) {
		p, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("property %s: %v", junitPositionsProp, err)
		}
		sh.Positions = append(sh.Positions, p)
	}
	return sh, nil
}
