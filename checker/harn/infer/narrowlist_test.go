package infer

import (
	"fmt"
	"testing"

	"github.com/harnlang/harn-check/lang/harn/types"
)

// TestNarrowList: a scope's narrowings read back as a map's would, across
// the switch from the short list to a map, with keys of both kinds
// (variables and member paths) and narrowings replaced.
func TestNarrowList(t *testing.T) {
	vars := make([]*variable, 20)
	for i := range vars {
		vars[i] = &variable{name: fmt.Sprint("v", i)}
	}
	ts := []types.Type{types.IntType, types.StringType, types.NilType, types.BoolType}
	for _, n := range []int{0, 1, narrowSmall - 1, narrowSmall, narrowSmall + 1, 3 * narrowSmall} {
		var l narrowList
		want := map[any]types.Type{}
		for i := range n {
			var key any = vars[i%len(vars)]
			if i%3 == 1 {
				key = fmt.Sprint("v", i%len(vars), ".kind") // a member path, not the variable
			}
			l.set(key, ts[i%len(ts)])
			want[key] = ts[i%len(ts)]
			if i%4 == 0 { // narrowed again
				l.set(key, ts[(i+1)%len(ts)])
				want[key] = ts[(i+1)%len(ts)]
			}
		}
		for _, key := range append([]any{"absent", vars[len(vars)-1]}, keysOf(want)...) {
			got, ok := l.get(key)
			w, wok := want[key]
			if ok != wok || got != w {
				t.Errorf("%d narrowings: get(%v) = %v, %v; want %v, %v", n, key, got, ok, w, wok)
			}
		}
	}
}

func keysOf(m map[any]types.Type) []any {
	var out []any
	for k := range m {
		out = append(out, k)
	}
	return out
}
