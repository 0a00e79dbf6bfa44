package catalog

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestProjectHooks(t *testing.T) {
	tests := []struct {
		name, toml string
		want       string // Event|Pattern|Module|Function per hook, ";"-joined
		err        string
	}{
		{"none", "[package]\nname = \"p\"\n", "", ""},
		{"two", "[[hooks]]\nevent = \"PreToolUse\"\npattern = \"tool.name =~ \\\"w\\\"\"\nhandler = \"pkg::deny\"\n\n[[hooks]]\nevent = \"PostToolUse\"\nhandler = \"a::b::rewrite\"\n",
			`PreToolUse|tool.name =~ "w"|pkg|deny;PostToolUse|*|a::b|rewrite`, ""},
		{"unknown event", "[[hooks]]\nevent = \"OnTuesday\"\nhandler = \"m::f\"\n", "", `entry 1: unknown event "OnTuesday"`},
		{"bad handler", "[[hooks]]\nevent = \"PreToolUse\"\nhandler = \"just_a_function\"\n", "", "expected <module>::<function>"},
		{"bad toml", "[[hooks]\n", "", "harn.toml"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Project{Path: filepath.Join("proj", File), Data: []byte(tc.toml)}
			hooks, err := p.Hooks()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				if _, ok := err.(*Invalid); !ok {
					t.Errorf("err is %T, want *Invalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hooks {
				got = append(got, h.Event+"|"+h.Pattern+"|"+h.Module+"|"+h.Function)
			}
			if s := strings.Join(got, ";"); s != tc.want {
				t.Errorf("hooks = %s, want %s", s, tc.want)
			}
		})
	}
}

func TestProjectModulePath(t *testing.T) {
	p := Project{Path: filepath.Join("proj", File), Data: []byte("[package]\nname = \"pkg\"\n[exports]\ntools = \"src/tools.harn\"\n")}
	for _, tc := range []struct{ module, want string }{
		{"pkg", filepath.Join("proj", "lib.harn")},
		{"tools", filepath.Join("proj", "src", "tools.harn")},
		{"other/module", ""},
	} {
		got, ok := p.ModulePath(tc.module)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("ModulePath(%q) = %q, %v; want %q", tc.module, got, ok, tc.want)
		}
	}
}
