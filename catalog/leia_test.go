package catalog

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestLeiaHost: the [leia] table declares the go: bindings and host
// globals of the project's embedder; a bad key or value is an *Invalid.
func TestLeiaHost(t *testing.T) {
	cases := []struct {
		toml    string
		want    LeiaHost
		wantErr string
	}{
		{"", LeiaHost{}, ""},
		{"[[routes]]\nprovider = \"p\"\nmodel = \"m\"\n", LeiaHost{}, ""},
		{"[leia]\ngo_modules = [\"go:host/policy\"]\nhost_modules = [\"serve\"]\n",
			LeiaHost{Declared: true, GoModules: []string{"go:host/policy"}, HostModules: []string{"serve"}}, ""},
		{"[leia]\n", LeiaHost{Declared: true}, ""},
		{"[leia]\ngo_module = []\n", LeiaHost{}, `unknown key "go_module"`},
		{"[leia]\ngo_modules = \"go:x\"\n", LeiaHost{}, "want a list of strings"},
		{"[leia]\ngo_modules = [\"policy\"]\n", LeiaHost{}, "not a go: import path"},
		{"[leia]\nhost_modules = [1]\n", LeiaHost{}, "host_modules[0]: want a non-empty string"},
	}
	for _, c := range cases {
		p := Project{Path: "/p/harn.toml", Data: []byte(c.toml)}
		got, err := p.Leia()
		if c.wantErr != "" {
			var inv *Invalid
			if !errors.As(err, &inv) || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%q: got %v, want an *Invalid with %q", c.toml, err, c.wantErr)
			}
			continue
		}
		if err != nil || got.Declared != c.want.Declared || !slices.Equal(got.GoModules, c.want.GoModules) || !slices.Equal(got.HostModules, c.want.HostModules) {
			t.Errorf("%q: got %+v %v, want %+v", c.toml, got, err, c.want)
		}
	}
	if h, err := (Project{}).Leia(); err != nil || h.Declared {
		t.Errorf("no project: %+v %v", h, err)
	}
}
