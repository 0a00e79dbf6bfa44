// Package runner runs programs: a list of Languages maps a file extension
// to the runtime of its language (Harn, Leia), and Suite runs a folder of
// programs against their expected output the way upstream Harn's
// conformance runner does.
//
// The binary lists its languages explicitly (cmd/harn-check builds the
// list from package language's values); `harn-check run FILE` and
// `harn-check test` find a program's runtime in it by the file's
// extension. No package registers a runtime from init.
//
// Invariants: the package knows no language; it does no checking itself
// (Suite takes a Check hook from its caller) and touches the file system
// only to read programs and their expectation files.
package runner

import (
	"context"
	"io"
	"path/filepath"
	"sort"

	"github.com/harnlang/harn-check/runtime/evaluate"
	"github.com/harnlang/harn-check/runtime/execution"
	"github.com/harnlang/harn-check/runtime/host"
)

// Program is a program to run.
type Program struct {
	// Path is the program's file; its folder is the program's folder.
	Path string
	Src  []byte
	// Args are the program's own arguments.
	Args []string
}

// Env is what a run gets from its caller.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Grants are the user's --allow-* flags.
	Grants host.Grants
	// TempDir overrides the temp dir ("" = a private one created for the
	// run and removed after it).
	TempDir string
	// LLMMockReplay is the path of a .llm-mock.jsonl tape to replay for
	// the program's model calls ("" = none).
	LLMMockReplay string
	// Seed makes the program's randomness deterministic when set.
	Seed *uint64
	// Limits bound the run (steps, wall time, memory, live tasks; the
	// zero value bounds nothing, the CLI passes execution.Defaults or
	// the user's flags).
	Limits execution.Limits
	// Evaluation configures harness.llm.evaluate* (route catalog, tape,
	// journal, ledger); nil uses the harn.toml found above the program.
	// The runtime adds the program's credentials lookup and network grant.
	Evaluation *evaluate.Options
	// LLM says where a Leia program's model turns go.
	LLM LLMConfig
	// ModuleRoot is a folder whose source modules the program may import
	// without a grant, as it imports its own folder's: harn-check test
	// sets the suite root, so a test may import a helper module beside
	// its folder. It grants no other read. "" = the program's folder only.
	ModuleRoot string
	// WorkDir is the program's working directory (what cwd() reports);
	// "" = the process's. harn-check test sets the root of the
	// repository holding the suite, the folder upstream's runner is
	// started in, so results do not depend on where it was started.
	WorkDir string
}

// LLM modes (LLMConfig.Mode).
const (
	// LLMLive uses the providers the program's model aliases configure
	// (HTTP needs --allow-net; keys come from the environment).
	LLMLive = ""
	// LLMMock answers every turn with the built-in mock provider.
	LLMMock = "mock"
	// LLMReplay answers from a .records.json fixture, strictly.
	LLMReplay = "replay"
	// LLMRecord calls the live providers and writes the fixture.
	LLMRecord = "record"
)

// LLMConfig is the model-call configuration of a run.
type LLMConfig struct {
	Mode string
	// Fixture is the .records.json file replayed or recorded.
	Fixture string
	// Trace, when set, receives the run's trace events as JSON lines
	// (metadata only: no prompt, completion or credential).
	Trace io.Writer
	// NoLiveCalls refuses every model call that would leave the process
	// (llm.Options.NoLiveCalls); `harn-check test` sets it, as upstream's
	// test runner sets HARN_LLM_CALLS_DISABLED.
	NoLiveCalls bool
}

// Language is a runtime as the runner sees it: the run facet of a
// language (package language holds the whole value).
type Language struct {
	// Name is the language's display name ("Harn").
	Name string
	// Extension includes the dot (".harn").
	Extension string
	// Run executes the program. It returns nil on success, the program's
	// uncaught error otherwise (see Formatter), or an error loading it.
	Run func(ctx context.Context, p Program, env Env) error
}

// Formatter is implemented by runtime errors that know how to print
// themselves with a trace (`at fn (file:line:col)` lines).
type Formatter interface {
	Format() string
}

// Languages is the list of runtimes a binary runs programs with,
// assembled where the binary is built.
type Languages []Language

// ForPath returns the runtime for path's extension.
func (ls Languages) ForPath(path string) (Language, bool) {
	ext := filepath.Ext(path)
	for _, l := range ls {
		if l.Extension == ext {
			return l, true
		}
	}
	return Language{}, false
}

// Extensions lists the languages' extensions, sorted.
func (ls Languages) Extensions() []string {
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, l.Extension)
	}
	sort.Strings(out)
	return out
}

// FormatError renders a program's error for standard error: its own
// format when it has one, else "error: " and the message.
func FormatError(err error) string {
	if f, ok := err.(Formatter); ok {
		return f.Format()
	}
	return "error: " + err.Error() + "\n"
}
