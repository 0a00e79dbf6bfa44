// Package npmcache downloads tree-sitter grammar packages from the npm
// registry with `npm pack` and keeps them unpacked in a cache outside the
// repository, for tests that compare our generator with the official one.
//
// Nothing it downloads is ever written inside the repository. The cache root
// is $HARN_NPM_CACHE, or <os.UserCacheDir>/harn-check/npm.
package npmcache

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Package is one pinned npm grammar package.
type Package struct {
	Name     string // npm name, e.g. "@tree-sitter-grammars/tree-sitter-toml"
	Version  string // exact version
	Language string // the grammar's name (tree_sitter_<Language> is its exported symbol)
	Stretch  bool   // not required by issue 3's acceptance
}

// Spec returns "name@version" as npm understands it.
func (p Package) Spec() string { return p.Name + "@" + p.Version }

// Key returns a file-name-safe identifier for the package version.
func (p Package) Key() string {
	return strings.NewReplacer("@", "", "/", "__").Replace(p.Name) + "-" + p.Version
}

// Grammars lists the packages issue 3 tests against: the required ones first,
// then the stretch ones.
var Grammars = []Package{
	{Name: "tree-sitter-json", Version: "0.24.8", Language: "json"},
	{Name: "tree-sitter-properties", Version: "0.3.0", Language: "properties"},
	{Name: "@tree-sitter-grammars/tree-sitter-toml", Version: "0.7.0", Language: "toml"},
	{Name: "tree-sitter-lua", Version: "2.1.3", Language: "lua"},
	{Name: "tree-sitter-css", Version: "0.25.0", Language: "css"},
	{Name: "tree-sitter-make", Version: "1.1.1", Language: "make"},
	{Name: "tree-sitter-go", Version: "0.25.0", Language: "go"},
	{Name: "@tree-sitter-grammars/tree-sitter-lua", Version: "0.4.1", Language: "lua", Stretch: true},
	{Name: "tree-sitter-python", Version: "0.25.0", Language: "python", Stretch: true},
	{Name: "tree-sitter-bash", Version: "0.25.1", Language: "bash", Stretch: true},
}

// ErrUnreachable reports that the npm registry could not be reached; tests
// skip on it (and only on it).
var ErrUnreachable = errors.New("npm registry unreachable")

// Root returns the cache root directory, creating it.
func Root() (string, error) {
	root := os.Getenv("HARN_NPM_CACHE")
	if root == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("npmcache: no cache dir (set HARN_NPM_CACHE): %w", err)
		}
		root = filepath.Join(base, "harn-check", "npm")
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("npmcache: %w", err)
	}
	return root, nil
}

// Fetch returns the directory holding the unpacked package (the tarball's
// "package/" folder), downloading it on first use.
func Fetch(ctx context.Context, p Package) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	dest := filepath.Join(root, "pkg", p.Key())
	if _, err := os.Stat(filepath.Join(dest, ".complete")); err == nil {
		return filepath.Join(dest, "package"), nil
	}
	tarball, err := pack(ctx, root, p)
	if err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Join(root), "unpack-")
	if err != nil {
		return "", fmt.Errorf("npmcache: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := untar(tarball, tmp); err != nil {
		return "", fmt.Errorf("npmcache: unpacking %s: %w", tarball, err)
	}
	if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
		return "", fmt.Errorf("npmcache: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return "", fmt.Errorf("npmcache: %w", err)
	}
	if err := os.Rename(tmp, dest); err != nil {
		// A concurrent fetch may have won the race; accept its result.
		if _, serr := os.Stat(filepath.Join(dest, ".complete")); serr != nil {
			return "", fmt.Errorf("npmcache: %w", err)
		}
	}
	return filepath.Join(dest, "package"), nil
}

// pack runs `npm pack` into root/tarballs unless the tarball is there.
func pack(ctx context.Context, root string, p Package) (string, error) {
	dir := filepath.Join(root, "tarballs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("npmcache: %w", err)
	}
	want := filepath.Join(dir, strings.NewReplacer("@", "", "/", "-").Replace(p.Name)+"-"+p.Version+".tgz")
	if _, err := os.Stat(want); err == nil {
		return want, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("npmcache: npm not found in PATH (needed to download %s): %w", p.Spec(), err)
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "pack", "--json", "--pack-destination", dir, p.Spec())
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := stderr.String()
		for _, sign := range []string{"ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENETUNREACH", "network"} {
			if strings.Contains(msg, sign) {
				return "", fmt.Errorf("npmcache: npm pack %s: %w: %s", p.Spec(), ErrUnreachable, firstLine(msg, sign))
			}
		}
		if ctx.Err() != nil {
			return "", fmt.Errorf("npmcache: npm pack %s: %w: timed out", p.Spec(), ErrUnreachable)
		}
		return "", fmt.Errorf("npmcache: npm pack %s: %v\n%s", p.Spec(), err, strings.TrimSpace(msg))
	}
	var out []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || len(out) != 1 {
		return "", fmt.Errorf("npmcache: npm pack %s: unexpected output %q", p.Spec(), stdout.String())
	}
	got := filepath.Join(dir, filepath.Base(out[0].Filename))
	if got != want {
		if err := os.Rename(got, want); err != nil {
			return "", fmt.Errorf("npmcache: %w", err)
		}
	}
	return want, nil
}

func firstLine(s, containing string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, containing) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// untar extracts regular files and directories of a .tgz into dir, refusing
// paths that escape it.
func untar(tarball, dir string) error {
	f, err := os.Open(tarball)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, ".."+string(filepath.Separator)) {
			return fmt.Errorf("entry %q escapes the destination", h.Name)
		}
		target := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
			if err != nil {
				return err
			}
			_, cerr := io.Copy(out, tr)
			if err := out.Close(); cerr == nil {
				cerr = err
			}
			if cerr != nil {
				return cerr
			}
		}
	}
}
