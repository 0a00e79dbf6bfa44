package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/sourcefs"
)

// File is the project file's name. Only this package reads it: the
// checker, the runtimes, the language server and the CLI find and load it
// through Find, Load and FindProject.
const File = "harn.toml"

// InvalidCode is the one diagnostic of an invalid harn.toml. The checker
// reports it and checks no route against a catalog it cannot read; a run
// refuses with it before running.
const InvalidCode = "HARN-CFG-001"

// maxDepth bounds the walk up from a directory.
const maxDepth = 64

// Loader reads a file: the checker's module loader (so a language
// server's unsaved buffers are seen), a host's sandboxed read, or OS.
// Any error is "no readable file here".
type Loader interface {
	ReadFile(path string) ([]byte, error)
}

// LoaderFunc adapts a function to Loader.
type LoaderFunc func(path string) ([]byte, error)

// ReadFile calls f.
func (f LoaderFunc) ReadFile(path string) ([]byte, error) { return f(path) }

// OS reads regular files from disk within the default size limit (a pipe,
// device or huge harn.toml is not read).
var OS Loader = LoaderFunc(func(path string) ([]byte, error) { return sourcefs.Read(path, 0) })

// Probe is one candidate harn.toml a discovery read (the check cache
// keys on every probe, present or missing).
type Probe struct {
	Path    string
	Content []byte
	Missing bool
}

// Project is a discovered (or named) harn.toml.
type Project struct {
	// Path is the file's path; "" when no harn.toml was found.
	Path string
	// Data is its content.
	Data []byte
	// Probes are the candidates read, in order, ending with Path.
	Probes []Probe
}

// Dir is the project's root: the folder holding its harn.toml ("" when
// none was found).
func (p Project) Dir() string {
	if p.Path == "" {
		return ""
	}
	return filepath.Dir(p.Path)
}

// ID identifies the project file's content for caches: "default" without
// one, path@sha256 otherwise.
func (p Project) ID() string {
	if p.Path == "" {
		return "default"
	}
	sum := sha256.Sum256(p.Data)
	return p.Path + "@" + hex.EncodeToString(sum[:])
}

// FindProject walks up from dir and returns the first harn.toml l reads.
func FindProject(l Loader, dir string) Project {
	var p Project
	if l == nil {
		return p
	}
	d := dir
	for range maxDepth {
		cand := filepath.Join(d, File)
		data, err := l.ReadFile(cand)
		if err == nil {
			p.Probes = append(p.Probes, Probe{Path: cand, Content: data})
			p.Path, p.Data = cand, data
			return p
		}
		p.Probes = append(p.Probes, Probe{Path: cand, Missing: true})
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return p
}

// Invalid is the error of a harn.toml that cannot be used: unreadable or
// not a valid route catalog. Its Diagnostic is InvalidCode.
type Invalid struct {
	// Path is the harn.toml's path.
	Path string
	// Err says what is wrong, naming the route and key.
	Err error
}

func (e *Invalid) Error() string { return e.Err.Error() }

func (e *Invalid) Unwrap() error { return e.Err }

// Diagnostic is the one diagnostic of an invalid catalog, reported on
// file (the checked program, or the harn.toml itself).
func (e *Invalid) Diagnostic(file string) diagnostics.Diagnostic {
	d := diagnostics.New(file, diagnostics.SourceSetup, InvalidCode, diagnostics.Span{}, e.Error())
	d.Help = "fix " + File + " where the message says; no route is checked or run until it is valid"
	return d
}

// Catalog returns the built-in catalog extended by the project's routes;
// the error is an *Invalid, for the routes or any other part of the file
// (Config).
func (p Project) Catalog() (*Catalog, error) {
	if p.Path == "" {
		return Default(), nil
	}
	cat, err := Default().Parse(filepath.ToSlash(p.Path), p.Data)
	if err != nil {
		return nil, &Invalid{Path: p.Path, Err: err}
	}
	// The whole file is checked: a misspelt table or [lint] key is the
	// same error as a broken route.
	if _, err := p.Config(); err != nil {
		return nil, err
	}
	return cat, nil
}

// Find is the route catalog in force for a program in dir: the built-in
// catalog extended by the nearest harn.toml at or above dir that l reads.
// The error is an *Invalid; the Project says which files were probed.
func Find(l Loader, dir string) (*Catalog, Project, error) {
	p := FindProject(l, dir)
	cat, err := p.Catalog()
	return cat, p, err
}

// Load is the route catalog of one named file (`run --catalog`, `llm
// evaluate --catalog`): the built-in catalog extended by its routes. A
// file l cannot read is an *Invalid too.
func Load(l Loader, path string) (*Catalog, Project, error) {
	data, err := l.ReadFile(path)
	if err != nil {
		p := Project{Probes: []Probe{{Path: path, Missing: true}}}
		return nil, p, &Invalid{Path: path, Err: fmt.Errorf("%s: %v", filepath.ToSlash(path), err)}
	}
	p := Project{Path: path, Data: data, Probes: []Probe{{Path: path, Content: data}}}
	cat, err := p.Catalog()
	return cat, p, err
}
