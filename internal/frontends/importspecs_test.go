package frontends

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/harnlang/harn-check/internal/gencorpus"
)

// importSpecRE is the regular expression importSpecs scans for by hand.
var importSpecRE = regexp.MustCompile(`\bimport\b[^"]*"([^"\n]*)"`)

// TestImportSpecsAgreesWithRegexp: the hand-written scan finds exactly
// what the regular expression finds, on import forms and on random text
// made of the pieces that matter (the keyword inside words, quotes,
// newlines, non-ASCII bytes).
func TestImportSpecsAgreesWithRegexp(t *testing.T) {
	cases := []string{
		"",
		`import {a} from "./a"`,
		"import {\n  a,\n  b\n} from \"./lib/b\"\nimport \"./c\"\n",
		`reimport "x" imports "y" _import "z" import_ "w" import"v"`,
		"import {a} from \"./broken\nimport {b} from \"./ok\"",
		`import "unterminated`,
		`import`,
		`"import" "./quoted"`,
		"// import \"./commented\"\nlet s = \"import \\\"./in-string\\\"\"",
		"é import \"./é\" import\xff\"./bad\"",
	}
	pieces := []string{"import", "import", "\"", "\"", "\n", " ", "x", "_", "é", "\xff", "./m", "{a}", "from"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var b strings.Builder
		for range r.IntN(20) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		cases = append(cases, b.String())
	}
	for _, src := range cases {
		var want [][]byte
		for _, m := range importSpecRE.FindAllSubmatch([]byte(src), -1) {
			want = append(want, m[1])
		}
		got := importSpecs([]byte(src))
		if len(got) != len(want) {
			t.Fatalf("%q: got %q, want %q", src, got, want)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("%q: got %q, want %q", src, got, want)
			}
		}
	}
}

// BenchmarkImportSpecs scans 1,000 generated modules with importSpecs and
// with the regular expression, and reports their ratio.
//
//	go test ./internal/frontends -run '^$' -bench ImportSpecs
func BenchmarkImportSpecs(b *testing.B) {
	files := gencorpus.Harn(1000)
	var scan, re time.Duration
	for range b.N {
		t0 := time.Now()
		for _, f := range files {
			importSpecs(f)
		}
		t1 := time.Now()
		for _, f := range files {
			importSpecRE.FindAllSubmatch(f, -1)
		}
		scan, re = scan+t1.Sub(t0), re+time.Since(t1)
	}
	b.ReportMetric(float64(scan.Microseconds())/float64(b.N), "µs/scan-1000-files")
	b.ReportMetric(float64(re.Microseconds())/float64(b.N), "µs/regexp-1000-files")
	b.ReportMetric(re.Seconds()/scan.Seconds(), "speedup")
}
