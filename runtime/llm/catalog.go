package llm

import (
	"os"
	"path/filepath"

	"github.com/harnlang/harn-check/catalog"
)

// CatalogFile is the project file routes are read from.
const CatalogFile = "harn.toml"

// FindCatalog returns the built-in catalog extended by the first
// harn.toml in dir or one of its parents (the file the checker uses for a
// program in dir), and that file's path ("" when there is none).
func FindCatalog(dir string) (*catalog.Catalog, string, error) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	for range 64 {
		p := filepath.Join(dir, CatalogFile)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			c, err := LoadCatalog(p)
			return c, p, err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return catalog.Default(), "", nil
}

// LoadCatalog returns the built-in catalog extended by one file's routes.
func LoadCatalog(path string) (*catalog.Catalog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return catalog.Default().Parse(filepath.ToSlash(path), data)
}
