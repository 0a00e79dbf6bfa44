package validator

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/runtime/rhai"
)

// a2uiAnswer builds a deterministic a2ui document of at least size bytes.
func a2uiAnswer(size int) string {
	var cards []string
	for i := 0; ; i++ {
		cards = append(cards, fmt.Sprintf(`{"component": "Card", "children": [{"component": "Text", "text": "Finding %d: latency rose %d%% after change %d"}, {"component": "Image", "url": "https://example.com/chart-%d.png"}, {"component": "Row", "children": [{"component": "Button", "label": "Details"}]}]}`, i, i%97, i*7, i))
		doc := `{"root": {"component": "Column", "children": [` + strings.Join(cards, ", ") + `]}}`
		if len(doc) >= size {
			return doc
		}
	}
}

// benchValidators returns the example a2ui validator and, as the
// reference, the same script whose validate only calls parse_json.
func benchValidators(b *testing.B) (full, parseOnly *Validator) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "validators", "validators", "a2ui.rhai"))
	if err != nil {
		b.Fatal(err)
	}
	full, cerr := Compile("a2ui.rhai", string(src), rhai.Limits{})
	if cerr != nil {
		b.Fatal(cerr)
	}
	ref := strings.Replace(string(src), "fn validate(content)", "fn validate_full(content)", 1) +
		"\nfn validate(content) { parse_json(content); () }\n"
	parseOnly, cerr = Compile("a2ui-parse-only.rhai", ref, rhai.Limits{})
	if cerr != nil {
		b.Fatal(cerr)
	}
	return full, parseOnly
}

// BenchmarkA2UIValidator measures validations per second of the example
// a2ui validator over a 10 KB answer, beside the same script's parse_json
// alone and encoding/json as references in the same run.
func BenchmarkA2UIValidator(b *testing.B) {
	full, parseOnly := benchValidators(b)
	answer := a2uiAnswer(10 * 1024)
	for _, c := range []struct {
		name string
		v    *Validator
	}{{"validator", full}, {"parse_json_only", parseOnly}} {
		if r := c.v.Validate(answer); r.Verdict != Pass {
			b.Fatalf("%s: %+v %+v", c.name, r, r.Failure)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(answer)))
			for b.Loop() {
				c.v.Validate(answer)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "validations/s")
		})
	}
	// Alternating the sides in one loop keeps the ratios honest on a busy
	// machine: all see the same load.
	b.Run("interleaved", func(b *testing.B) {
		var tFull, tParse, tGo time.Duration
		for b.Loop() {
			t0 := time.Now()
			full.Validate(answer)
			t1 := time.Now()
			parseOnly.Validate(answer)
			t2 := time.Now()
			var v any
			if err := json.Unmarshal([]byte(answer), &v); err != nil {
				b.Fatal(err)
			}
			tFull += t1.Sub(t0)
			tParse += t2.Sub(t1)
			tGo += time.Since(t2)
		}
		n := float64(b.N)
		b.ReportMetric(n/tFull.Seconds(), "validations/s")
		b.ReportMetric(n/tParse.Seconds(), "parse_json_only/s")
		b.ReportMetric(tFull.Seconds()/tParse.Seconds(), "validator/parse_json")
		b.ReportMetric(tParse.Seconds()/tGo.Seconds(), "parse_json/encoding_json")
	})
	b.Run("encoding_json_unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(answer)))
		for b.Loop() {
			var v any
			if err := json.Unmarshal([]byte(answer), &v); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "validations/s")
	})
}
