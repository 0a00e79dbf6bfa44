package harn

import "testing"

// BenchmarkFormatOnly formats the 5,000-line input of BenchmarkFormat5000
// alone and reports allocations, for profiling the formatter's own cost.
func BenchmarkFormatOnly(b *testing.B) {
	src := benchSource(b, 5000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Format(src); err != nil {
			b.Fatal(err)
		}
	}
}
