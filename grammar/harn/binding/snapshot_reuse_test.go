package binding

import (
	"fmt"
	"reflect"
	"testing"
)

// TestSnapshotReuse: lowering reuses one file's snapshot arrays for the
// next file, so nothing a parse returns may point into them. Each file's
// result, kept while other files (larger, smaller, broken) are parsed,
// must stay equal to a fresh parse of it.
func TestSnapshotReuse(t *testing.T) {
	files := []string{
		"fn a(x: int) -> int {\n  return x + 1\n}\n",
		"pipeline main() {\n  let xs = [1, 2, 3]\n  for x in xs { log(x) }\n}\n",
		"fn broken( {\n  let = \n}\n",
		"// only a comment\n",
		"",
	}
	for i := range 40 {
		files = append(files, fmt.Sprintf("fn f%d() -> string {\n  return \"%d\" + \"x\"\n}\n", i, i))
	}
	type result struct {
		file  any
		diags any
	}
	var kept []result
	for _, src := range files {
		f, d := Parse("a.harn", []byte(src))
		kept = append(kept, result{f, d})
	}
	for i, src := range files {
		f, d := Parse("a.harn", []byte(src))
		if !reflect.DeepEqual(kept[i].file, any(f)) || !reflect.DeepEqual(kept[i].diags, any(d)) {
			t.Errorf("file %d: the result kept from the first parse changed when later files were parsed", i)
		}
	}
}
