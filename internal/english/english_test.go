package english

import "testing"

func TestA(t *testing.T) {
	for in, want := range map[string]string{"int": "an int", "string": "a string", "Object": "an Object", "dict": "a dict", "": ""} {
		if got := A(in); got != want {
			t.Errorf("A(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 files"}, {1, "1 file"}, {2, "2 files"}} {
		if got := Count(tc.n, "file", "files"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
