package catalog

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestProjectSkills(t *testing.T) {
	dir := filepath.FromSlash("/p/proj")
	tests := []struct {
		name, toml string
		want       Skills
	}{
		{"none", "[package]\nname = \"x\"\n", Skills{}},
		{"paths and folder registry", "[skills]\npaths = [\"a/.harn/skills\", \"/abs\"]\nsigner_registry_url = \"./signers\"\ndisable = [\"system\"]\n",
			Skills{Paths: []string{filepath.Join(dir, "a", ".harn", "skills"), filepath.FromSlash("/abs")}, SignerRegistry: filepath.Join(dir, "signers"), Disable: []string{"system"}}},
		{"url registry kept", "[skills]\nsigner_registry_url = \"https://keys.example/\"\n", Skills{SignerRegistry: "https://keys.example/"}},
		{"file url", "[skills]\nsigner_registry_url = \"file://keys\"\n", Skills{SignerRegistry: filepath.Join(dir, "keys")}},
		{"undecodable", "[skills\n", Skills{}},
	}
	for _, tc := range tests {
		p := Project{Path: filepath.Join(dir, File), Data: []byte(tc.toml)}
		got := p.Skills()
		if !slices.Equal(got.Paths, tc.want.Paths) || got.SignerRegistry != tc.want.SignerRegistry || !slices.Equal(got.Disable, tc.want.Disable) {
			t.Errorf("%s: Skills() = %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if got := (Project{}).Skills(); got.Paths != nil || got.SignerRegistry != "" {
		t.Errorf("no project: %+v", got)
	}
}
