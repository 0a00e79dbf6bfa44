package driver

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/sourcefs"
	"github.com/harnlang/harn-check/manifest/checkcache"
)

// Options configure a check run.
type Options struct {
	// Extensions restricts discovery; nil means the extensions of the
	// run's languages.
	Extensions []string
	// Cache, when set, stores results and reproduces them for unchanged
	// files.
	Cache *checkcache.Cache
	// Salt names the checker build in cache keys, so that a new build
	// never reuses an old build's results.
	Salt string
	// Limits bound the run (zero fields: the defaults).
	Limits limits.Limits
	// AllowEmpty accepts a folder without any file to check.
	AllowEmpty bool
	// Workers is the number of files checked at once; 0 means one per
	// CPU (GOMAXPROCS). The report is the same for every value.
	Workers int
	// Lint, when set, runs the languages' lint rules so chosen besides
	// the checks (Request.Lint).
	Lint *LintSelection
	// Shard, when set, checks only the shard's part of the files found
	// (diagnostics.Shard.Has), each still with its imports and with every
	// file of the run known to the session, so that each file's
	// diagnostics are those of the whole run; the report says which part
	// it holds (Report.Shard) for diagnostics.Merge.
	Shard *diagnostics.Shard
	// NoManifests leaves every file's Manifest nil in the report, for a
	// caller that prints none (text output, lint): a Harn file's manifest
	// is a few KB, which a run over tens of thousands of files would
	// otherwise hold to its end. The cache still stores them.
	NoManifests bool
}

// CheckPaths discovers the files under paths, analyses each with its
// language's checker and returns the report. Files are checked by
// opts.Workers goroutines sharing one Session (each imported module is
// parsed and checked once per run) and reported in discovery order, so
// the report is byte for byte the same however many workers ran.
//
// The report keeps the Source of a file only when a diagnostic needs it:
// the file has diagnostics, or another file's diagnostic points into it.
// Every other Source is nil, so that a run over many clean files does not
// hold them all to its end (renderers and fixes read no others).
func (ls Languages) CheckPaths(paths []string, opts Options) (*diagnostics.Report, error) {
	exts := opts.Extensions
	if exts == nil {
		exts = ls.Extensions()
	}
	found, err := Discover(paths, DiscoverOptions{Extensions: exts, AllowEmpty: opts.AllowEmpty})
	if err != nil {
		return nil, err
	}
	lim := opts.Limits.Resolved()
	if len(found) > lim.Modules {
		return nil, &UsageError{fmt.Sprintf("%d files to check, more than the limit of %d modules in one run (%s); check the project in parts or raise the limit with --%s",
			len(found), lim.Modules, limits.CodeModules, limits.FlagModules)}
	}
	r := &run{langs: ls, opts: opts, limits: lim, session: NewSession(), hashes: newFileHashes(lim.FileSize)}
	r.session.unrecorded = opts.Cache == nil
	names := make([]string, len(found))
	for i, f := range found {
		names[i] = filepath.ToSlash(f.Path)
	}
	r.session.SetFiles(names)
	sole := len(found) == 1
	var shard *diagnostics.Shard
	if opts.Shard != nil {
		found, shard = diagnostics.Part(opts.Shard, found)
	}
	files := make([]diagnostics.File, len(found))
	sources := make([]map[string][]byte, len(found))
	errs := make([]error, len(found))
	// dropped marks the files whose Source was read but not kept.
	dropped := make([]bool, len(found))
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(len(found), 1))
	// Each worker takes the next file by counting, not from a channel fed
	// by this goroutine: handing over each file woke a third goroutine
	// on the two cores the workers need.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(found) {
					return
				}
				files[i], sources[i], errs[i] = r.file(found[i], sole)
				if len(files[i].Diagnostics) == 0 && files[i].Source != nil {
					files[i].Source, dropped[i] = nil, true
				}
			}
		}()
	}
	wg.Wait()
	if opts.Cache != nil {
		// The run's results become visible to later runs; a failed
		// flush only costs them a re-check.
		_ = opts.Cache.Flush()
	}
	report := &diagnostics.Report{Files: files, Sources: map[string][]byte{}, Shard: shard}
	for i := range found {
		if errs[i] != nil {
			return nil, errs[i]
		}
		// Which file first crosses the module limit depends on the
		// order workers happen to take files in; the run as a whole
		// crosses it or not, so it fails as a whole.
		for _, d := range files[i].Diagnostics {
			if d.Code == limits.CodeModules {
				return nil, &UsageError{fmt.Sprintf("the files of this run and their imports are more than %d modules (%s); check the project in parts or raise the limit with --%s",
					lim.Modules, limits.CodeModules, limits.FlagModules)}
			}
		}
		for p, s := range sources[i] {
			report.Sources[p] = s
		}
	}
	restoreSources(report, found, dropped, r.limits.FileSize)
	return report, nil
}

// restoreSources gives back their Source to the files CheckPaths did not
// keep it of that a diagnostic of the report points into (a related span
// or a fix in an imported file that is reported too): the checker's copy
// when a result carried one (Result.Sources), else the file read again.
func restoreSources(report *diagnostics.Report, found []Found, dropped []bool, maxSize int64) {
	var wanted map[string]bool
	for _, f := range report.Files {
		for _, d := range f.Diagnostics {
			for _, rel := range d.Related {
				if rel.Path != "" && rel.Path != f.Path {
					wanted = addPath(wanted, rel.Path)
				}
			}
			for _, fix := range d.Fixes {
				for _, e := range fix.Edits {
					if e.Path != "" && e.Path != f.Path {
						wanted = addPath(wanted, e.Path)
					}
				}
			}
		}
	}
	if len(wanted) == 0 {
		return
	}
	for i := range report.Files {
		f := &report.Files[i]
		if !dropped[i] || !wanted[f.Path] {
			continue
		}
		if s, ok := report.Sources[f.Path]; ok {
			f.Source = s
		} else if s, err := sourcefs.Read(found[i].Path, maxSize); err == nil {
			f.Source = s
		}
	}
}

// addPath adds p to the set m, making it when nil.
func addPath(m map[string]bool, p string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[p] = true
	return m
}

// CheckSource checks one file's content that does not come from disk
// (`check -` reads stdin): path is the name it is reported under, its
// folder the one imports and harn.toml are found from; ext chooses the
// language when path has no extension of a known one. The report is the
// one CheckPaths gives for a file with that name and content.
func (ls Languages) CheckSource(path, ext string, src []byte, opts Options) *diagnostics.Report {
	lim := opts.Limits.Resolved()
	r := &run{langs: ls, opts: opts, limits: lim, session: NewSession(), hashes: newFileHashes(lim.FileSize)}
	display := filepath.ToSlash(path)
	r.session.SetFiles([]string{display})
	file := diagnostics.File{Path: display, Source: src}
	if binary, why := sourcefs.Binary(src); binary {
		d := diagnostics.New(display, diagnostics.SourceIO, "HARN-IO-002", diagnostics.Span{},
			fmt.Sprintf("not checked: the input is binary, not source text (%s)", why))
		return &diagnostics.Report{Files: []diagnostics.File{{Path: display, Diagnostics: []diagnostics.Diagnostic{d}}}}
	}
	if _, known := ls.ForPath(path); ext == "" || known {
		ext = filepath.Ext(path)
	}
	res := ls.Check(Request{Path: display, Ext: ext, Source: src, Limits: lim, Session: r.session})
	file.Diagnostics = r.configure(path, display, res.Diagnostics)
	file.Manifest = res.Manifest
	report := &diagnostics.Report{Files: []diagnostics.File{file}, Sources: map[string][]byte{}}
	for p, s := range res.Sources {
		report.Sources[p] = s
	}
	return report
}

// run is the state of one CheckPaths call.
type run struct {
	langs   Languages
	opts    Options
	limits  limits.Limits
	session *Session
	hashes  *fileHashes
	fps     fingerprints
	// configs memoises the project settings of each folder: the lock
	// guards the map only, and each folder's settings are read once
	// outside it, so that a worker reading one folder's harn.toml does
	// not hold up another checking a file whose folder is known.
	configMu sync.Mutex
	configs  map[string]*folderProject
}

// folderProject is the project settings of one folder, read once.
type folderProject struct {
	once sync.Once
	p    Project
}

// file reads and checks one discovered file. sole is set when it is the
// only file of the run: a file that cannot be read is then a usage error,
// since there is nothing else to report on.
func (r *run) file(f Found, sole bool) (diagnostics.File, map[string][]byte, error) {
	display := filepath.ToSlash(f.Path)
	if f.Err != nil {
		return diagnostics.File{Path: display, Diagnostics: []diagnostics.Diagnostic{notRead(display, f.Err, r.limits)}}, nil, nil
	}
	src, err := sourcefs.Read(f.Path, r.limits.FileSize)
	if err != nil {
		var tl *sourcefs.TooLargeError
		if sole && !errors.As(err, &tl) {
			return diagnostics.File{}, nil, &UsageError{fmt.Sprintf("%s: cannot read: %s", f.Path, sourcefs.Reason(err))}
		}
		return diagnostics.File{Path: display, Diagnostics: []diagnostics.Diagnostic{notRead(display, err, r.limits)}}, nil, nil
	}
	if binary, why := sourcefs.Binary(src); binary {
		d := diagnostics.New(display, diagnostics.SourceIO, "HARN-IO-002", diagnostics.Span{},
			fmt.Sprintf("not checked: the file is binary, not source text (%s)", why))
		d.Help = "source files are UTF-8 text; if this file is generated or vendored, move it out of the checked folders"
		// No Source: a binary file is never quoted.
		return diagnostics.File{Path: display, Diagnostics: []diagnostics.Diagnostic{d}}, nil, nil
	}
	req := Request{Path: display, Source: src, Limits: r.limits, Session: r.session, Lint: r.project(f.Path).Lint(display, r.opts.Lint)}
	res := r.checkCached(f.Path, req)
	file := diagnostics.File{Path: display, Source: src, Diagnostics: r.configure(f.Path, display, res.Diagnostics)}
	if !r.opts.NoManifests {
		file.Manifest = res.Manifest
	}
	return file, res.Sources, nil
}

// configure applies the project's [lint] settings (Project.Report) to a
// file's diagnostics after the cache, so that a cached result never
// depends on harn.toml's reporting settings.
func (r *run) configure(path, display string, ds []diagnostics.Diagnostic) []diagnostics.Diagnostic {
	return r.project(path).Report(display, ds)
}

// project returns the settings of the project the file at path is in,
// found once per folder of the run.
func (r *run) project(path string) Project {
	abs := dirOf(path)
	r.configMu.Lock()
	fp := r.configs[abs]
	if fp == nil {
		if r.configs == nil {
			r.configs = map[string]*folderProject{}
		}
		fp = &folderProject{}
		r.configs[abs] = fp
	}
	r.configMu.Unlock()
	fp.once.Do(func() { fp.p = ProjectFor(nil, abs) })
	return fp.p
}

// notRead is the diagnostic for a file that was found but not read.
func notRead(path string, err error, lim limits.Limits) diagnostics.Diagnostic {
	var nr *sourcefs.NotRegularError
	var out *sourcefs.OutsideError
	var tl *sourcefs.TooLargeError
	switch {
	case errors.As(err, &nr):
		d := diagnostics.New(path, diagnostics.SourceIO, "HARN-IO-003", diagnostics.Span{},
			"not checked: not a regular file: it is a "+nr.What)
		d.Help = "a pipe, socket or device could block or never end, and a file under /proc or /sys is made up by the kernel; only regular files are checked"
		return d
	case errors.As(err, &out):
		d := diagnostics.New(path, diagnostics.SourceIO, "HARN-IO-004", diagnostics.Span{},
			"not checked: "+out.Describe()+" being checked")
		d.Help = "links out of a checked folder are not followed, so a checkout cannot make the check read files elsewhere; name the file on the command line to check it"
		return d
	case errors.As(err, &tl):
		d := diagnostics.New(path, diagnostics.SourceIO, limits.CodeFileSize, diagnostics.Span{},
			fmt.Sprintf("not checked: the file is %s, more than the limit of %s", sourcefs.FormatSize(tl.Size), sourcefs.FormatSize(tl.Max)))
		d.Help = fmt.Sprintf("generated or vendored files that large are usually not meant to be checked; raise the limit with --%s", limits.FlagFileSize)
		return d
	}
	return diagnostics.New(path, diagnostics.SourceIO, "HARN-IO-001", diagnostics.Span{},
		"cannot read file: "+sourcefs.Reason(err))
}

// fileHashes memoises content hashes of dependencies within one run.
type fileHashes struct {
	max int64
	m   sync.Map // path -> string
}

func newFileHashes(max int64) *fileHashes { return &fileHashes{max: max} }

func (h *fileHashes) hash(path string) string {
	if v, ok := h.m.Load(path); ok {
		return v.(string)
	}
	v := ""
	if data, err := sourcefs.Read(path, h.max); err == nil {
		v = checkcache.HashBytes(data)
	}
	h.m.Store(path, v)
	return v
}

// checkCached is Check through the cache, when there is one. The key
// holds the file's absolute path as well as the path it is reported
// under: the same content in two folders (with different harn.toml files
// or imports beside it) never shares an entry, and a cached diagnostic
// always carries the path the user named. An entry is used only while its
// non-module deps read the same and its import closure has the same
// fingerprint (see checkcache).
func (r *run) checkCached(path string, req Request) Result {
	if r.opts.Cache == nil {
		return r.langs.Check(req)
	}
	abs := absClean(path)
	key := checkcache.Key(r.opts.Salt, abs+"\x00"+req.Path+"\x00"+req.Lint.Key(), req.Source)
	if e, ok := r.opts.Cache.Get(key, r.hashes.hash); ok && (e.Closure == "" || r.closureOnDisk(abs) == e.Closure) {
		return Result{Diagnostics: e.Diagnostics, Manifest: e.Manifest, Sources: e.Sources}
	}
	res := r.langs.Check(req)
	deps := make([]checkcache.Dep, 0, len(res.Deps))
	for _, d := range res.Deps {
		d.Path = absClean(d.Path)
		deps = append(deps, d)
	}
	closure := r.closureChecked(abs)
	// A failed store only costs a later re-check.
	_ = r.opts.Cache.Put(key, &checkcache.Entry{Diagnostics: res.Diagnostics, Manifest: res.Manifest, Sources: res.Sources, Deps: deps, Closure: closure})
	return res
}

// fingerprints computes closure fingerprints for a run, from the modules
// recorded in the run's session (after checks) or from the files' current
// contents and the cache's module records (to validate entries before any
// check). Within a run files do not change, so each fingerprint is
// computed once.
type fingerprints struct {
	mu      sync.Mutex
	disk    checkcache.Fingerprinter
	checked checkcache.Fingerprinter
	// stored are the modules whose records are in the cache.
	stored map[string]bool
}

// closureOnDisk fingerprints abs's closure as the files are now, using the
// cache's module records; "" when a module has no record.
func (r *run) closureOnDisk(abs string) string {
	f := &r.fps
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.disk.Lookup == nil {
		f.disk.Lookup = func(p string) (checkcache.Module, bool) {
			sum := r.hashes.hash(p)
			if m, ok := r.session.Module(p); ok && m.SHA256 == sum {
				return m, true
			}
			if sum == "" {
				return checkcache.Module{Path: p}, true // missing: no imports
			}
			return r.opts.Cache.GetModule(r.opts.Salt, p, sum)
		}
	}
	fp, _ := f.disk.Fingerprint(abs)
	return fp
}

// closureChecked fingerprints abs's closure from the modules the check
// recorded, and stores the records of that closure the cache does not
// have yet; "" for a file whose language records no modules and for a
// module that imports nothing.
func (r *run) closureChecked(abs string) string {
	if m, ok := r.session.Module(abs); ok && len(m.Imports) == 0 {
		// A module that imports nothing has no closure beyond itself,
		// and the entry's key already covers its content: no fingerprint
		// to check, and no record to write for it (a file that imports
		// it writes it). Most files are such leaves; this halves the
		// files a cold run creates.
		return ""
	}
	fp, records := r.closureRecords(abs)
	// The records are written outside the lock closureRecords takes: a
	// write creates a file, which costs milliseconds on some file
	// systems, and holding the lock through it made the workers of a
	// parallel run take turns.
	for _, m := range records {
		// A failed store only costs a later re-check.
		_ = r.opts.Cache.PutModule(r.opts.Salt, m)
	}
	return fp
}

// closureRecords fingerprints abs's closure and returns the records of
// that closure not yet stored in this run (each is returned once per
// run); "" and none when a module of it has no record.
func (r *run) closureRecords(abs string) (string, []checkcache.Module) {
	f := &r.fps
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.checked.Lookup == nil {
		f.checked.Lookup = r.session.Module
		f.stored = map[string]bool{}
	}
	fp, ok := f.checked.Fingerprint(abs)
	if !ok {
		return "", nil
	}
	var records []checkcache.Module
	stack := []string{abs}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.stored[p] {
			continue
		}
		f.stored[p] = true
		m, ok := r.session.Module(p)
		if !ok {
			continue
		}
		if m.SHA256 != "" {
			records = append(records, m)
		}
		stack = append(stack, m.Imports...)
	}
	return fp, records
}
