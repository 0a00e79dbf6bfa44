package catalog

import (
	"path/filepath"

	toml "github.com/pelletier/go-toml/v2"
)

// Skills is what harn.toml's [skills] table says about skill discovery
// (upstream Harn's keys):
//
//	[skills]
//	paths = ["vendor/skills"]           # more skill roots, relative to harn.toml's folder
//	signer_registry_url = "./signers"   # where <fingerprint>.pub signer keys are found
//	disable = ["system"]                # discovery layers turned off
type Skills struct {
	// Paths are the extra skill roots, made absolute against the
	// project's folder.
	Paths []string
	// SignerRegistry is the signer registry: a folder (made absolute
	// against the project's folder) or an http(s) URL as written.
	SignerRegistry string
	// Disable names the discovery layers turned off.
	Disable []string
}

// Skills returns the project's [skills] table (the zero Skills without a
// project file or table, or when the file does not decode; Config
// reports that error).
func (p Project) Skills() Skills {
	var s Skills
	if p.Path == "" {
		return s
	}
	var raw struct {
		Skills struct {
			Paths          []string `toml:"paths"`
			SignerRegistry string   `toml:"signer_registry_url"`
			Disable        []string `toml:"disable"`
		} `toml:"skills"`
	}
	if err := toml.Unmarshal(p.Data, &raw); err != nil {
		return s
	}
	dir := p.Dir()
	for _, path := range raw.Skills.Paths {
		s.Paths = append(s.Paths, resolveIn(dir, path))
	}
	s.SignerRegistry = raw.Skills.SignerRegistry
	if u := s.SignerRegistry; u != "" && !hasScheme(u, "http://") && !hasScheme(u, "https://") {
		if len(u) > len("file://") && u[:len("file://")] == "file://" {
			u = u[len("file://"):]
		}
		s.SignerRegistry = resolveIn(dir, u)
	}
	s.Disable = raw.Skills.Disable
	return s
}

func resolveIn(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, filepath.FromSlash(p))
}

func hasScheme(u, scheme string) bool { return len(u) >= len(scheme) && u[:len(scheme)] == scheme }
