package harn

import (
	"encoding/json"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// project_fingerprint(path?): what kind of project a folder is, from the
// files under it (four levels deep, build and vendor folders skipped):
// its languages (primary_language is the only one, "mixed" or
// "unknown"), frameworks, package managers, test runner, build tool,
// version control (looked for in the folder and its parents), CI
// systems, whether it has tests and which lockfiles it holds. Lists are
// in a fixed preference order, so the first is the one to use. Every read
// goes through the host.

var (
	fingerprintSkipDirs = []string{".git", ".hg", ".next", ".svn", ".venv", "__pycache__", "build", "coverage",
		"dist", "node_modules", "target", "venv"}
	fpLanguageOrder  = []string{"rust", "typescript", "python", "go", "swift", "ruby"}
	fpFrameworkOrder = []string{"axum", "next", "react", "django", "fastapi", "rails"}
	fpManagerOrder   = []string{"cargo", "spm", "pnpm", "npm", "yarn", "uv", "poetry", "pip", "go-mod", "bundler"}
	fpRunnerOrder    = []string{"nextest", "cargo-test", "vitest", "jest", "mocha", "pytest", "unittest", "go-test",
		"xctest", "rspec", "minitest"}
	fpBuildOrder = []string{"cargo", "spm", "next", "vite", "uv", "poetry", "pnpm", "npm", "yarn", "go", "bundler", "pip"}
	fpCIOrder    = []string{"github-actions", "gitlab-ci", "circleci", "buildkite", "azure-pipelines", "bitrise"}
	// fpLockfiles maps a lockfile name to the package manager it implies.
	fpLockfiles = map[string]string{"Cargo.lock": "cargo", "package-lock.json": "npm", "pnpm-lock.yaml": "pnpm",
		"yarn.lock": "yarn", "uv.lock": "uv", "poetry.lock": "poetry", "Pipfile.lock": "pip",
		"requirements.lock": "pip", "go.sum": "go-mod", "Gemfile.lock": "bundler", "Package.resolved": "spm",
		"bun.lockb": "npm", "bun.lock": "npm"}
	fpTestDirs = []string{"tests", "test", "__tests__", "spec", "e2e", "cypress"}
	fpCIFiles  = map[string]string{".gitlab-ci.yml": "gitlab-ci", "azure-pipelines.yml": "azure-pipelines",
		"bitrise.yml": "bitrise", "circle.yml": "circleci"}
)

const fingerprintMaxDepth = 4

type strSet map[string]bool

func (s strSet) add(v string) { s[v] = true }

// ordered lists s: the names of order first, in that order, then the
// rest sorted.
func (s strSet) ordered(order []string) []string {
	out := []string{}
	for _, o := range order {
		if s[o] {
			out = append(out, o)
		}
	}
	var rest []string
	for v := range s {
		if !slices.Contains(order, v) {
			rest = append(rest, v)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

type fpSignals struct {
	c                                        *Call
	languages, frameworks, managers, runners strSet
	builds, ci, lockfiles                    strSet
	hasTests, specDir, testDir               bool
	nextDep, nextConfig, viteDep, viteConfig bool
	node, python, pythonPip, ruby            bool
}

func (s *fpSignals) read(p string) (string, bool) {
	b, err := s.c.th.in.host.ReadFile(p)
	if err != nil {
		return "", false
	}
	return string(b), true
}

func (s *fpSignals) walk(base, dir string, depth int) {
	des, err := s.c.th.in.host.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range des {
		name := de.Name()
		full := filepath.Join(dir, name)
		rel, _ := filepath.Rel(base, full)
		rel = filepath.ToSlash(rel)
		if de.IsDir() {
			s.dir(rel, name)
			if depth < fingerprintMaxDepth && !slices.Contains(fingerprintSkipDirs, name) {
				s.walk(base, full, depth+1)
			}
			continue
		}
		if de.Type().IsRegular() {
			s.file(full, rel, name)
		}
	}
}

func (s *fpSignals) dir(rel, name string) {
	lower := strings.ToLower(name)
	if slices.Contains(fpTestDirs, lower) {
		s.hasTests = true
		s.specDir = s.specDir || lower == "spec"
		s.testDir = s.testDir || lower == "test" || lower == "tests"
	}
	if rel == ".github/workflows" || strings.HasSuffix(rel, "/.github/workflows") {
		s.ci.add("github-actions")
	}
	switch name {
	case ".circleci":
		s.ci.add("circleci")
	case ".buildkite":
		s.ci.add("buildkite")
	case "crates":
		s.languages.add("rust")
	case "cmd", "pkg":
		s.languages.add("go")
	}
}

func (s *fpSignals) file(full, rel, name string) {
	if m, ok := fpLockfiles[name]; ok {
		s.lockfiles.add(rel)
		s.managers.add(m)
	}
	if strings.HasPrefix(rel, ".github/workflows/") {
		s.ci.add("github-actions")
	}
	if ci, ok := fpCIFiles[name]; ok {
		s.ci.add(ci)
	}
	switch name {
	case "Cargo.toml":
		s.cargo(full)
	case "package.json":
		s.packageJSON(full)
	case "pyproject.toml":
		s.pyproject(full)
	case "requirements.txt", "requirements-dev.txt", "requirements-test.txt":
		s.languages.add("python")
		s.python, s.pythonPip = true, true
		s.builds.add("pip")
		text, _ := s.read(full)
		s.pythonText(text)
	case "setup.py":
		s.languages.add("python")
		s.python, s.pythonPip = true, true
		text, _ := s.read(full)
		s.pythonText(text)
	case "go.mod":
		s.languages.add("go")
		s.managers.add("go-mod")
		s.builds.add("go")
		s.runners.add("go-test")
	case "Package.swift":
		s.languages.add("swift")
		s.managers.add("spm")
		s.builds.add("spm")
		s.runners.add("xctest")
	case "Gemfile":
		s.gemfile(full)
	}
	switch name {
	case "next.config.js", "next.config.mjs", "next.config.ts":
		s.nextConfig = true
		s.languages.add("typescript")
		s.builds.add("next")
	case "vitest.config.js", "vitest.config.ts", "vitest.config.mjs":
		s.runners.add("vitest")
		s.hasTests = true
	case "jest.config.js", "jest.config.ts", "jest.config.cjs":
		s.runners.add("jest")
		s.hasTests = true
	case "vite.config.js", "vite.config.ts", "vite.config.mjs":
		s.viteConfig = true
		s.builds.add("vite")
	case ".mocharc.js", ".mocharc.json", ".mocharc.yml", ".mocharc.yaml":
		s.runners.add("mocha")
		s.hasTests = true
	case "pytest.ini", "tox.ini", "conftest.py":
		s.runners.add("pytest")
		s.hasTests = true
	}
	if name == "nextest.toml" || strings.HasSuffix(rel, "/.config/nextest.toml") {
		s.runners.add("nextest")
	}
	switch path.Ext(name) {
	case ".rs":
		s.languages.add("rust")
	case ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs":
		s.languages.add("typescript")
		s.node = true
	case ".py":
		s.languages.add("python")
		s.python = true
	case ".go":
		s.languages.add("go")
	case ".swift":
		s.languages.add("swift")
	case ".rb":
		s.languages.add("ruby")
		s.ruby = true
	}
}

func (s *fpSignals) cargo(full string) {
	s.languages.add("rust")
	s.managers.add("cargo")
	s.builds.add("cargo")
	s.runners.add("cargo-test")
	text, ok := s.read(full)
	if !ok {
		return
	}
	var doc map[string]any
	if toml.Unmarshal([]byte(text), &doc) != nil {
		return
	}
	for _, p := range [][]string{{"dependencies"}, {"dev-dependencies"}, {"build-dependencies"}, {"workspace", "dependencies"}} {
		if t, ok := tomlPath(doc, p).(map[string]any); ok {
			if _, ok := t["axum"]; ok {
				s.frameworks.add("axum")
			}
		}
	}
}

func tomlPath(doc map[string]any, p []string) any {
	var cur any = doc
	for _, seg := range p {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		if cur, ok = m[seg]; !ok {
			return nil
		}
	}
	return cur
}

func (s *fpSignals) packageJSON(full string) {
	text, ok := s.read(full)
	if !ok {
		return
	}
	var doc map[string]any
	if json.Unmarshal([]byte(text), &doc) != nil {
		return
	}
	s.node = true
	deps := strSet{}
	for _, k := range []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"} {
		if m, ok := doc[k].(map[string]any); ok {
			for name := range m {
				deps.add(name)
			}
		}
	}
	if deps["next"] {
		s.nextDep = true
		s.builds.add("next")
	}
	if deps["react"] {
		s.frameworks.add("react")
		s.languages.add("typescript")
	}
	if deps["typescript"] {
		s.languages.add("typescript")
	}
	if deps["vite"] {
		s.viteDep = true
		s.builds.add("vite")
	}
	for _, r := range []string{"vitest", "jest", "mocha"} {
		if deps[r] {
			s.runners.add(r)
			s.hasTests = true
		}
	}
	if pm, ok := doc["packageManager"].(string); ok {
		for _, m := range []string{"pnpm", "yarn", "npm"} {
			if strings.HasPrefix(pm, m+"@") {
				s.managers.add(m)
				break
			}
		}
	}
	if scripts, ok := doc["scripts"].(map[string]any); ok {
		for _, v := range scripts {
			if cmd, ok := v.(string); ok {
				s.command(cmd)
			}
		}
	}
}

func (s *fpSignals) pyproject(full string) {
	text, ok := s.read(full)
	if !ok {
		return
	}
	s.languages.add("python")
	s.python = true
	s.pythonText(text)
	var doc map[string]any
	if toml.Unmarshal([]byte(text), &doc) != nil {
		s.pythonPip = true
		return
	}
	poetry := tomlPath(doc, []string{"tool", "poetry"}) != nil
	uv := tomlPath(doc, []string{"tool", "uv"}) != nil
	if poetry {
		s.managers.add("poetry")
		s.builds.add("poetry")
	}
	if uv {
		s.managers.add("uv")
		s.builds.add("uv")
	}
	if !poetry && !uv {
		s.pythonPip = true
	}
}

func (s *fpSignals) pythonText(text string) {
	lower := strings.ToLower(text)
	if strings.Contains(lower, "fastapi") {
		s.frameworks.add("fastapi")
	}
	if strings.Contains(lower, "django") {
		s.frameworks.add("django")
	}
	if strings.Contains(lower, "pytest") {
		s.runners.add("pytest")
		s.hasTests = true
	}
	if strings.Contains(lower, "unittest") {
		s.runners.add("unittest")
		s.hasTests = true
	}
}

func (s *fpSignals) gemfile(full string) {
	s.languages.add("ruby")
	s.ruby = true
	s.managers.add("bundler")
	s.builds.add("bundler")
	text, ok := s.read(full)
	if !ok {
		return
	}
	gem := func(n string) bool {
		return strings.Contains(text, `gem "`+n+`"`) || strings.Contains(text, `gem '`+n+`'`)
	}
	if gem("rails") {
		s.frameworks.add("rails")
	}
	for _, r := range []string{"rspec", "minitest"} {
		if gem(r) {
			s.runners.add(r)
		}
	}
}

// command reads a package script for the tools it runs.
func (s *fpSignals) command(cmd string) {
	n := strings.ToLower(cmd)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(n, w) {
				return true
			}
		}
		return false
	}
	if has("next build", "next dev") {
		s.builds.add("next")
	}
	if has("vite build", "vite dev", "npx vite") {
		s.viteDep = true
		s.builds.add("vite")
	}
	for _, r := range []struct{ runner, word string }{{"vitest", "vitest"}, {"jest", "jest"}, {"mocha", "mocha"},
		{"nextest", "cargo nextest"}, {"cargo-test", "cargo test"}, {"pytest", "pytest"}, {"unittest", "unittest"},
		{"go-test", "go test"}, {"xctest", "swift test"}} {
		if has(r.word) {
			s.runners.add(r.runner)
			s.hasTests = true
		}
	}
	if has("swift build") {
		s.builds.add("spm")
	}
}

// finish applies the rules that need every signal, then renders.
func (s *fpSignals) finish(vcs string) Value {
	if s.nextDep && s.nextConfig {
		s.frameworks.add("next")
		s.languages.add("typescript")
		s.builds.add("next")
	}
	if s.node && !s.managers["npm"] && !s.managers["pnpm"] && !s.managers["yarn"] {
		s.managers.add("npm")
	}
	if s.python && !s.managers["poetry"] && !s.managers["uv"] && s.pythonPip {
		s.managers.add("pip")
	}
	if s.languages["rust"] {
		s.builds.add("cargo")
		s.runners.add("cargo-test")
	}
	if s.languages["go"] {
		s.managers.add("go-mod")
		s.builds.add("go")
		s.runners.add("go-test")
	}
	if s.languages["swift"] {
		s.managers.add("spm")
		s.builds.add("spm")
		s.runners.add("xctest")
	}
	if s.python && len(s.runners) == 0 {
		s.runners.add("pytest")
	}
	if s.ruby {
		s.managers.add("bundler")
		s.builds.add("bundler")
		if len(s.runners) == 0 {
			if s.specDir {
				s.runners.add("rspec")
			} else if s.testDir {
				s.runners.add("minitest")
			}
		}
	}
	if s.viteDep || s.viteConfig {
		s.builds.add("vite")
		if s.hasTests && len(s.runners) == 0 {
			s.runners.add("vitest")
		}
	}
	if s.node && len(s.builds) == 0 {
		for _, m := range []string{"pnpm", "yarn", "npm"} {
			if s.managers[m] {
				s.builds.add(m)
				break
			}
		}
	}
	if s.python && len(s.builds) == 0 {
		for _, m := range []string{"uv", "poetry", "pip"} {
			if s.managers[m] {
				s.builds.add(m)
				break
			}
		}
	}
	langs := s.languages.ordered(fpLanguageOrder)
	primary := "mixed"
	switch len(langs) {
	case 0:
		primary = "unknown"
	case 1:
		primary = langs[0]
	}
	first := func(xs []string) any {
		if len(xs) == 0 {
			return nil
		}
		return xs[0]
	}
	managers, runners, builds := s.managers.ordered(fpManagerOrder), s.runners.ordered(fpRunnerOrder), s.builds.ordered(fpBuildOrder)
	ci := s.ci.ordered(fpCIOrder)
	locks := s.lockfiles.ordered(nil)
	var v any
	if vcs != "" {
		v = vcs
	}
	return goValue(map[string]any{"primary_language": primary, "languages": langs,
		"frameworks": s.frameworks.ordered(fpFrameworkOrder), "package_manager": first(managers),
		"package_managers": managers, "test_runner": first(runners), "build_tool": first(builds), "vcs": v,
		"ci": ci, "has_tests": s.hasTests, "has_ci": len(ci) > 0, "lockfile_paths": locks})
}

// detectVCS looks for .git or .hg in dir and its parents (a parent the
// program may not read ends the search).
func detectVCS(c *Call, dir string) string {
	for d := dir; ; {
		for _, v := range [][2]string{{".git", "git"}, {".hg", "hg"}} {
			if _, err := c.th.in.host.Stat(filepath.Join(d, v[0])); err == nil {
				return v[1]
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

func projectFingerprint(c *Call, args []Value) (Value, error) {
	if len(args) > 1 {
		return Nil, throwValue(Str("project_fingerprint: expected at most 1 argument"))
	}
	p := "."
	if len(args) == 1 {
		p = Display(args[0])
	}
	h := c.th.in.host
	dir := h.Abs(p)
	if fi, err := h.Stat(dir); err != nil || !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	if _, err := h.Stat(dir); err != nil {
		return Nil, ioError("project.scan: failed to resolve path", err)
	}
	s := &fpSignals{c: c, languages: strSet{}, frameworks: strSet{}, managers: strSet{}, runners: strSet{},
		builds: strSet{}, ci: strSet{}, lockfiles: strSet{}}
	s.walk(dir, dir, 0)
	return s.finish(detectVCS(c, dir)), nil
}

func installProjectFingerprint(lib *Library) { lib.Builtin("project_fingerprint", projectFingerprint) }
