package imports

import "testing"

func TestFile(t *testing.T) {
	for _, c := range []struct {
		from, spec, want string
		module           bool
	}{
		{"p/a.harn", "./m", "p/m.harn", true},
		{"p/a.harn", "./m.harn", "p/m.harn", true},
		{"p/a.harn", "../lib/m", "lib/m.harn", true},
		{"p/a.harn", "./v1.2/m", "p/v1.2/m.harn", true},
		{"p/a.harn", "../.env", ".env", false},
		{"p/a.harn", "./data.json", "p/data.json", false},
		{"p/a.harn", "./m.harn.txt", "p/m.harn.txt", false},
	} {
		got, module := File(c.from, c.spec)
		if got != c.want || module != c.module {
			t.Errorf("File(%q, %q) = %q, %v; want %q, %v", c.from, c.spec, got, module, c.want, c.module)
		}
	}
	if !Relative("./m") || !Relative("../m") || Relative("std/predicate") || Relative("pkg") {
		t.Error("Relative misclassifies")
	}
}
