package difftest

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Sample is one input: a file on disk (Path) or text the tests wrote (Text).
type Sample struct {
	Name string
	Path string
	Text []byte
	Size int
}

// Load returns the sample's bytes.
func (s Sample) Load() ([]byte, error) {
	if s.Path == "" {
		return s.Text, nil
	}
	return os.ReadFile(s.Path)
}

// matchers decide which files on disk are samples of a language.
var matchers = map[string]func(path string, d fs.DirEntry) bool{
	"json":       ext(".json"),
	"css":        ext(".css"),
	"toml":       ext(".toml"),
	"lua":        ext(".lua"),
	"properties": ext(".properties"),
	"go":         ext(".go"),
	"python":     ext(".py"),
	"make": func(path string, d fs.DirEntry) bool {
		b := d.Name()
		return b == "Makefile" || b == "makefile" || b == "GNUmakefile" || strings.HasSuffix(b, ".mk")
	},
	"bash": func(path string, d fs.DirEntry) bool {
		return strings.HasSuffix(d.Name(), ".sh") || strings.HasPrefix(path, "/usr/bin/") && shellShebang(path)
	},
}

func ext(e string) func(string, fs.DirEntry) bool {
	return func(_ string, d fs.DirEntry) bool { return strings.HasSuffix(d.Name(), e) }
}

func shellShebang(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := f.Read(head)
	line, _, _ := bytes.Cut(head[:n], []byte("\n"))
	return bytes.HasPrefix(line, []byte("#!")) &&
		(bytes.HasSuffix(line, []byte("/sh")) || bytes.Contains(line, []byte("bash")) || bytes.Contains(line, []byte("/sh ")))
}

// roots are the directories searched for samples. The Go module cache is
// included: it holds many JSON, TOML and Makefile samples on any Go machine.
func roots() []string {
	rs := []string{runtime.GOROOT(), "/usr/lib/python3", "/usr/share", "/usr/lib", "/usr/bin", "/etc"}
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		if m := strings.TrimSpace(string(out)); m != "" {
			rs = append(rs, m)
		}
	}
	if ds, _ := filepath.Glob("/usr/lib/python3.*"); len(ds) > 0 {
		rs = append(rs, ds...)
	}
	return rs
}

var (
	diskOnce  sync.Once
	diskFiles map[string][]Sample
)

// DiskSamples returns every file on disk recognised as a sample of lang,
// sorted by path, at most maxSize bytes each.
func DiskSamples(lang string, maxSize int64) []Sample {
	diskOnce.Do(scanDisk)
	var out []Sample
	for _, s := range diskFiles[lang] {
		if int64(s.Size) <= maxSize {
			out = append(out, s)
		}
	}
	return out
}

func scanDisk() {
	diskFiles = map[string][]Sample{}
	seen := map[string]bool{}
	for _, root := range roots() {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if seen[path] {
					return fs.SkipDir
				}
				seen[path] = true
				return nil
			}
			if !d.Type().IsRegular() || seen[path] {
				return nil
			}
			for lang, match := range matchers {
				if match(path, d) {
					info, err := d.Info()
					if err != nil || info.Size() == 0 {
						break
					}
					seen[path] = true
					diskFiles[lang] = append(diskFiles[lang], Sample{Name: path, Path: path, Size: int(info.Size())})
					break
				}
			}
			return nil
		})
	}
	for _, list := range diskFiles {
		sort.Slice(list, func(i, j int) bool { return list[i].Path < list[j].Path })
	}
}

// Spread picks at most n samples spread evenly over the sorted list, so a
// capped run still covers every directory.
func Spread(samples []Sample, n int) []Sample {
	if n <= 0 || len(samples) <= n {
		return samples
	}
	out := make([]Sample, 0, n)
	for i := range n {
		out = append(out, samples[i*len(samples)/n])
	}
	return out
}
