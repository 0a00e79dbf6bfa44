package host

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/harnlang/harn-check/internal/sourcefs"
)

// Config describes the program a Host serves and what it was granted.
type Config struct {
	// Root is the program's folder: relative paths resolve against it and
	// it is readable and writable. "" means the working directory.
	Root string
	// TempDir is the temporary directory the program may use; "" means a
	// private one, created for the run inside os.TempDir() (never the
	// shared temp dir itself, where other users' and programs' files lie)
	// and removed by Close.
	TempDir string
	// Grants are the user's --allow-* flags.
	Grants Grants
	// WorkDir is the program's working directory, what it is told the
	// current directory is; "" means the process's. It grants nothing.
	WorkDir string
	// LookupEnv reads the environment; nil means os.LookupEnv.
	LookupEnv func(key string) (string, bool)
	// Now reads the clock; nil means time.Now.
	Now func() time.Time
	// Seed, when set, makes Rand deterministic (tests, replays).
	Seed *uint64
	// Stdin, Stdout and Stderr are the program's streams; nil means an
	// empty input and discarded output.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Host is the capability layer of one running program.
type Host struct {
	root, temp string
	workDir    string
	// ownTemp is set when temp is this run's private temp dir: named by
	// New, created at its first use (ensureTemp), removed by Close.
	ownTemp bool
	// tempOnce creates an own temp dir; tempErr is why it could not be,
	// and tempMade is set once it was.
	tempOnce sync.Once
	tempErr  error
	tempMade bool
	// allowed are the real paths of the directories the program may use.
	allowed []string
	grants  Grants
	lookup  func(string) (string, bool)
	now     func() time.Time
	start   time.Time

	envMu  sync.Mutex
	envSet map[string]*string // overlay: nil value = unset

	randMu sync.Mutex
	rng    *rand.Rand // nil until the first draw of an unseeded run

	stdin          io.Reader
	stdout, stderr io.Writer
	outMu          sync.Mutex
}

// New builds a Host. It fails when Root or TempDir cannot be resolved to a
// real directory; a granted --allow-fs directory that does not exist is
// allowed (its path is checked as written) so that a program may create it.
func New(cfg Config) (*Host, error) {
	root := cfg.Root
	if root == "" {
		root = "."
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("program folder %s: %v", root, err)
	}
	realRoot, err := filepath.EvalSymlinks(absRoot)
	if err != nil {
		return nil, fmt.Errorf("program folder %s: %v", root, err)
	}
	var realTemp string
	ownTemp := cfg.TempDir == ""
	if ownTemp {
		// The private temp dir is named now, under the real path of the
		// shared one, and made at its first use: most runs never use it,
		// and making and removing it cost every run two file-system
		// operations on the shared temp dir. Its name is unguessable (64
		// random bits), and only ensureTemp makes it (Mkdir fails on
		// anything already there).
		base, err := filepath.Abs(os.TempDir())
		if err == nil {
			base, err = filepath.EvalSymlinks(base)
		}
		if err != nil {
			return nil, fmt.Errorf("private temp dir: %v", err)
		}
		var name [8]byte
		cryptoFill(name[:])
		realTemp = filepath.Join(base, "harn-run-"+hex.EncodeToString(name[:]))
	} else {
		absTemp, err := filepath.Abs(cfg.TempDir)
		if err == nil {
			absTemp, err = filepath.EvalSymlinks(absTemp)
		}
		if err != nil {
			return nil, fmt.Errorf("temp dir %s: %v", cfg.TempDir, err)
		}
		realTemp = absTemp
	}
	h := &Host{
		root:    realRoot,
		workDir: cfg.WorkDir,
		temp:    realTemp,
		ownTemp: ownTemp,
		grants:  cfg.Grants,
		lookup:  cfg.LookupEnv,
		now:     cfg.Now,
		envSet:  map[string]*string{},
		stdin:   cfg.Stdin,
		stdout:  cfg.Stdout,
		stderr:  cfg.Stderr,
	}
	h.allowed = []string{realRoot, realTemp}
	for _, d := range cfg.Grants.FS {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("--allow-fs=%s: %v", d, err)
		}
		if r := sourcefs.RealPath(filepath.Clean(abs)); r != "" {
			h.allowed = append(h.allowed, r)
		}
	}
	if h.lookup == nil {
		h.lookup = os.LookupEnv
	}
	if ownTemp {
		// The program and the processes it runs see the private temp
		// dir as theirs.
		h.envSet["TMPDIR"] = &realTemp
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.stdin == nil {
		h.stdin = bytes.NewReader(nil)
	}
	if h.stdout == nil {
		h.stdout = io.Discard
	}
	if h.stderr == nil {
		h.stderr = io.Discard
	}
	if cfg.Seed != nil {
		var seed [32]byte
		s := *cfg.Seed
		for i := range 8 {
			seed[i] = byte(s >> (8 * i))
		}
		h.rng = rand.New(rand.NewChaCha8(seed))
	} // else seeded from the system at the first draw (generator)
	h.start = time.Now()
	return h, nil
}

// generator is the run's generator, under randMu. A run without
// Config.Seed seeds it from the system's generator at its first draw,
// so that a run drawing nothing makes no getrandom call.
func (h *Host) generator() *rand.Rand {
	if h.rng == nil {
		var seed [32]byte
		cryptoFill(seed[:])
		h.rng = rand.New(rand.NewChaCha8(seed))
	}
	return h.rng
}

// Close removes the private temp dir made for the run, with everything
// the program left in it; a temp dir given in Config is left alone. The
// Host must not be used afterwards.
func (h *Host) Close() error {
	if !h.ownTemp {
		return nil
	}
	h.ownTemp = false
	// No temp dir is made from now on; one made before is removed.
	h.tempOnce.Do(func() { h.tempErr = errors.New("the run has ended") })
	if !h.tempMade {
		return nil
	}
	return os.RemoveAll(h.temp)
}

// ensureTemp makes the run's private temp dir the first time it is
// needed: when the program asks for its path (TempDir, TMPDIR, the
// environment of a process) or uses a path in it.
func (h *Host) ensureTemp() error {
	if !h.ownTemp {
		return nil
	}
	h.tempOnce.Do(func() {
		if h.tempErr = os.Mkdir(h.temp, 0o700); h.tempErr == nil {
			h.tempMade = true
		} else {
			h.tempErr = fmt.Errorf("private temp dir: %v", h.tempErr)
		}
	})
	return h.tempErr
}

// Root is the real path of the program's folder.
func (h *Host) Root() string { return h.root }

// WorkDir is the program's working directory: Config.WorkDir, else the
// process's ("" when it cannot be read).
func (h *Host) WorkDir() string {
	if h.workDir != "" {
		return h.workDir
	}
	wd, _ := os.Getwd()
	return wd
}

// TempDir is the real path of the program's temporary directory, made
// for the run if it is its private one and was not made yet (if that
// fails, the path names no directory and using it fails).
func (h *Host) TempDir() string {
	_ = h.ensureTemp()
	return h.temp
}

// Grants returns the grants the host was built with.
func (h *Host) Grants() Grants { return h.grants }

// Stdin is the program's standard input.
func (h *Host) Stdin() io.Reader { return h.stdin }

// Stdout is the program's standard output. Writes from concurrent tasks
// should go through WriteStdout so lines do not interleave.
func (h *Host) Stdout() io.Writer { return h.stdout }

// Stderr is the program's standard error.
func (h *Host) Stderr() io.Writer { return h.stderr }

// WriteStdout writes s to standard output in one locked write.
func (h *Host) WriteStdout(s string) error {
	h.outMu.Lock()
	defer h.outMu.Unlock()
	_, err := io.WriteString(h.stdout, s)
	return err
}

// WriteStderr writes s to standard error in one locked write.
func (h *Host) WriteStderr(s string) error {
	h.outMu.Lock()
	defer h.outMu.Unlock()
	_, err := io.WriteString(h.stderr, s)
	return err
}

// LookupEnv reads an environment variable, seeing the program's own
// SetEnv/UnsetEnv calls first.
func (h *Host) LookupEnv(key string) (string, bool) {
	if key == "TMPDIR" {
		_ = h.ensureTemp()
	}
	h.envMu.Lock()
	v, ok := h.envSet[key]
	h.envMu.Unlock()
	if ok {
		if v == nil {
			return "", false
		}
		return *v, true
	}
	return h.lookup(key)
}

// SetEnv sets a variable in the program's private overlay; the process
// environment is never changed. Processes the program runs inherit it.
func (h *Host) SetEnv(key, value string) {
	h.envMu.Lock()
	defer h.envMu.Unlock()
	h.envSet[key] = &value
}

// UnsetEnv hides a variable from the program (and its child processes).
func (h *Host) UnsetEnv(key string) {
	h.envMu.Lock()
	defer h.envMu.Unlock()
	h.envSet[key] = nil
}

// Environ is the environment a child process gets: the process
// environment with the program's overlay applied, sorted by name.
func (h *Host) Environ() []string {
	_ = h.ensureTemp()
	base := os.Environ()
	h.envMu.Lock()
	defer h.envMu.Unlock()
	out := make([]string, 0, len(base)+len(h.envSet))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, over := h.envSet[k]; over {
			continue
		}
		out = append(out, kv)
	}
	for k, v := range h.envSet {
		if v != nil {
			out = append(out, k+"="+*v)
		}
	}
	sortStrings(out)
	return out
}
