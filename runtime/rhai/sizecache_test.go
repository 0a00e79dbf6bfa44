package rhai

import (
	"strings"
	"testing"
)

// TestSizeCacheStaysExact checks the incremental size bookkeeping: each
// script sits right at a limit of 50, so a stale count either way flips
// the outcome.
func TestSizeCacheStaysExact(t *testing.T) {
	debugSizes = true
	defer func() { debugSizes = false }()
	lim := Limits{MaxArraySize: 50, MaxMapSize: 50}
	cases := []struct {
		name, src string
		err       string // "" means within the limits
	}{
		{"clear through an index shrinks the count", "let a = [[1, 2, 3]]; a[0].clear(); for i in 0..48 { a.push(i); } a.len()", ""},
		{"pop shrinks the count", "let a = [1, 2, 3]; a.pop(); a.pop(); for i in 0..48 { a.push(i); } a.len()", ""},
		{"replacing an entry shrinks the count", "let m = #{a: [1, 2, 3, 4, 5]}; m.a = 1; for i in 0..49 { m[\"k\" + i] = i; } m.len()", ""},
		{"pushing a container counts its elements", "let a = []; let b = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]; for i in 0..5 { a.push(b); } a.len()", "Size of array too large"},
		{"growth through an index is seen", "let a = [[]]; for i in 0..60 { a[0].push(i); } a.len()", "Size of array too large"},
		{"growth through a property is seen", "let m = #{x: #{}}; for i in 0..60 { m.x[\"k\" + i] = 1; } m.len()", "Size of object map too large"},
		{"an alias's change does not leak", "let a = [[1, 2, 3]]; let b = a; b[0].clear(); for i in 0..47 { a.push(i); } a.len()", "Size of array too large"},
		{"plus-assign counts nested arrays", "let a = []; for i in 0..10 { a += [[1, 2, 3, 4]]; } a.len()", ""},
		{"plus-assign past the limit", "let a = []; for i in 0..11 { a += [[1, 2, 3, 4]]; } a.len()", "Size of array too large"},
		{"this-method growth is seen", "fn grow() { this.push([1, 2, 3, 4]); } let a = []; for i in 0..11 { a.grow(); } a.len()", "Size of array too large"},
		{"string index assignment inside a container", "let a = [\"abc\"]; a[0][1] = 'X'; a[0]", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := run(t, c.src, lim)
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("unexpected %v", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Message, c.err)):
				t.Fatalf("got %v, want %q", err, c.err)
			}
		})
	}
}
