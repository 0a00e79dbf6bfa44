package difftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/difftest/npmcache"
)

// benchSeconds is how long each helper parses per round; benchRounds rounds
// per side, alternating.
const (
	benchSeconds = 0.5
	benchRounds  = 7
)

// BenchmarkThroughput compares full-parse throughput of our generated parser
// with the official one for json and go, on the same input in the same run.
// Both sides run the same helper code (C allocator, 4 KiB chunks), each in
// its own process. Metrics: the best round's ours-MB/s and
// official-MB/s, their quotient ratio-best, and ratio-median, the median of
// the per-round ours/official quotients (issue 3's target is >= 0.9). With
// HARN_DIFFTEST_OURS=official both sides are the official parser and the
// ratios measure noise.
func BenchmarkThroughput(b *testing.B) {
	mode, err := ModeFromEnv()
	if err != nil {
		b.Fatal(err)
	}
	repo, err := RepoRoot()
	if err != nil {
		b.Fatal(err)
	}
	mode = Resolve(mode, repo)
	goSum, err := RepoGoSum()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var driver string
	if mode == ModeGenerated {
		if driver, err = BuildDriver(ctx, repo, b.TempDir()); err != nil {
			b.Fatal(err)
		}
	}
	for _, lang := range []struct {
		pkg   npmcache.Package
		input func(testing.TB) []byte
	}{
		{npmcache.Grammars[0], benchJSON},
		{npmcache.Grammars[6], benchGo},
	} {
		b.Run(lang.pkg.Language+"/"+string(mode), func(b *testing.B) {
			dir, err := npmcache.Fetch(ctx, lang.pkg)
			if errors.Is(err, npmcache.ErrUnreachable) {
				b.Skipf("skipping: %v", err)
			}
			if err != nil {
				b.Fatal(err)
			}
			official := filepath.Join(dir, "src")
			ours := official
			if mode == ModeGenerated {
				ours = filepath.Join(b.TempDir(), "ours")
				if err := GenerateOurs(ctx, driver, official, ours); err != nil {
					b.Fatal(err)
				}
			}
			input := filepath.Join(b.TempDir(), "input")
			if err := os.WriteFile(input, lang.input(b), 0o644); err != nil {
				b.Fatal(err)
			}
			sides := map[string]*Helper{}
			for name, src := range map[string]string{"ours": ours, "official": official} {
				bin, err := Build(ctx, src, goSum)
				if err != nil {
					b.Fatal(err)
				}
				h, err := StartEnv(bin, nil)
				if err != nil {
					b.Fatal(err)
				}
				defer h.Close()
				sides[name] = h
			}
			best := map[string]float64{}
			var ratios []float64
			for range b.N * benchRounds {
				round := map[string]float64{}
				for _, name := range []string{"official", "ours"} {
					r, err := sides[name].Bench(input, benchSeconds)
					if err != nil {
						b.Fatal(err)
					}
					round[name] = float64(r.Bytes) * float64(r.Runs) / (float64(r.Nanos) / 1e9) / 1e6
					best[name] = max(best[name], round[name])
				}
				ratios = append(ratios, round["ours"]/round["official"])
			}
			sort.Float64s(ratios)
			b.ReportMetric(best["ours"], "ours-MB/s")
			b.ReportMetric(best["official"], "official-MB/s")
			b.ReportMetric(best["ours"]/best["official"], "ratio-best")
			b.ReportMetric(ratios[len(ratios)/2], "ratio-median")
		})
	}
}

// benchJSON is about 2.3 MB of generated JSON.
func benchJSON(testing.TB) []byte {
	return []byte(generatedJSON(24000))
}

// benchGo is about 1.7 MB of Go: the non-test sources of net/http and go/types
// from GOROOT, concatenated (tree-sitter-go accepts repeated package clauses).
func benchGo(tb testing.TB) []byte {
	var buf bytes.Buffer
	for _, dir := range []string{"net/http", "go/types"} {
		names, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		sort.Strings(names)
		for _, n := range names {
			if strings.HasSuffix(n, "_test.go") {
				continue
			}
			data, err := os.ReadFile(n)
			if err != nil {
				tb.Fatal(err)
			}
			buf.Write(data)
		}
	}
	if buf.Len() < 1<<20 {
		tb.Fatal(fmt.Sprintf("only %d bytes of Go found under GOROOT", buf.Len()))
	}
	return buf.Bytes()
}
