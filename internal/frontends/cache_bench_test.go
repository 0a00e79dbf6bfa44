package frontends

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/harnlang/harn-check/driver"
	"github.com/harnlang/harn-check/internal/gencorpus"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// BenchmarkCacheWarmVsCold checks a generated 1,000-file corpus with an
// empty cache (cold: every file checked and stored) and again with the
// cache filled (warm: every result reproduced), in the same run, and
// reports both and their ratio. Every warm report must equal the cold one.
func BenchmarkCacheWarmVsCold(b *testing.B) {
	dir := b.TempDir()
	var bytes int
	for i, src := range gencorpus.Harn(1000) {
		bytes += len(src)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("m%04d.harn", i)), src, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	var cold, warm time.Duration
	for i := 0; i < b.N; i++ {
		cache, err := checkcache.Open(filepath.Join(b.TempDir(), "cache"))
		if err != nil {
			b.Fatal(err)
		}
		opts := driver.Options{Cache: cache, Salt: "bench"}
		t0 := time.Now()
		first, err := Languages().CheckPaths([]string{dir}, opts)
		if err != nil {
			b.Fatal(err)
		}
		cold += time.Since(t0)
		t1 := time.Now()
		second, err := Languages().CheckPaths([]string{dir}, opts)
		if err != nil {
			b.Fatal(err)
		}
		warm += time.Since(t1)
		if first.Summarize() != second.Summarize() || first.Summarize().Diagnostics != 0 {
			b.Fatalf("warm %+v, cold %+v", second.Summarize(), first.Summarize())
		}
	}
	n := float64(b.N)
	b.ReportMetric(1000*n/cold.Seconds(), "cold-files/s")
	b.ReportMetric(1000*n/warm.Seconds(), "warm-files/s")
	b.ReportMetric(float64(bytes)*n/cold.Seconds()/1e6, "cold-MB/s")
	b.ReportMetric(cold.Seconds()/warm.Seconds(), "warm-speedup")
}
