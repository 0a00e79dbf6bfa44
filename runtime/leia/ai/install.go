package ai

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
	"github.com/harnlang/harn-check/runtime/runner"
)

// RunProgram runs a Leia program the way `harn-check run` does, with the
// AI layer (Extension) installed.
func RunProgram(ctx context.Context, p runner.Program, env runner.Env) error {
	return leia.RunProgramWith(ctx, p, env, Extension)
}

// extension installs the AI layer into every interpreter RunProgram
// makes, with the run's model-call mode.
// Extension installs the AI layer for a command-line run (a
// leia.Extension): the configuration of the run's mode (live, mock,
// replay, record; --llm-mock's script), then Install. The finish function
// reports a replay's mismatches or writes the recording.
func Extension(in *leia.Interp, p runner.Program, env runner.Env) (func(error) error, error) {
	cfg, finish, err := ConfigFor(in.Host(), p.Path, env.LLM)
	if err != nil {
		return nil, err
	}
	if env.LLMMockReplay != "" {
		// --llm-mock FILE: the mock answers from the script first.
		if env.LLM.Mode != runner.LLMLive && env.LLM.Mode != runner.LLMMock {
			return nil, fmt.Errorf("--llm-mock %s: a mock script does not combine with --llm-%s", env.LLMMockReplay, env.LLM.Mode)
		}
		data, err := os.ReadFile(env.LLMMockReplay)
		if err != nil {
			return nil, fmt.Errorf("--llm-mock: %w", err)
		}
		answers, err := llm.ParseMockScript(data, env.LLMMockReplay, nil)
		if err != nil {
			return nil, fmt.Errorf("--llm-mock: %w", err)
		}
		cfg.Provider, cfg.Source, cfg.Factory = MockProvider(answers...), "mock", nil
	}
	Install(in, cfg)
	return finish, nil
}

// ConfigFor builds the AI configuration of a run in one of the modes
// (runner.LLMConfig): live (providers from the program's model aliases;
// HTTP needs --allow-net, keys come from the environment), mock, replay
// (strict, from a fixture) or record (live, written to the fixture). The
// finish function reports a replay's mismatch, exhaustion or leftover
// turns, or writes the recording, after the program ran.
func ConfigFor(h *host.Host, path string, lc runner.LLMConfig) (Config, func(error) error, error) {
	cfg := Config{Dir: filepath.Dir(path), Host: h, Source: "live"}
	if lc.Trace != nil {
		cfg.Trace = llm.NewJSONLTrace(lc.Trace)
	}
	var finish func(error) error
	switch lc.Mode {
	case runner.LLMMock:
		cfg.Provider, cfg.Source = MockProvider(), "mock"
	case runner.LLMReplay:
		recs, err := llm.LoadRecords(lc.Fixture)
		if err != nil {
			return cfg, nil, fmt.Errorf("--llm-replay: %w", err)
		}
		rp := llm.NewReplay(recs)
		cfg.Provider, cfg.Source = rp, "replay"
		finish = func(runErr error) error {
			if err := rp.Finish(); err != nil {
				return &RunFailure{Run: runErr, Replay: err}
			}
			return runErr
		}
	case runner.LLMRecord:
		rec := &llm.Recorder{}
		live := liveFactory(h, lc.NoLiveCalls)
		cfg.Factory = func(pc ProviderConfig) (llm.Provider, error) {
			p, err := live(pc)
			if err != nil {
				return nil, err
			}
			return rec.Wrap(p), nil
		}
		finish = func(runErr error) error {
			if err := llm.SaveRecords(lc.Fixture, rec.Records()); err != nil {
				return errors.Join(runErr, fmt.Errorf("--llm-record: %w", err))
			}
			return runErr
		}
	case runner.LLMLive:
		cfg.Factory = liveFactory(h, lc.NoLiveCalls)
	default:
		return cfg, nil, fmt.Errorf("unknown llm mode %q", lc.Mode)
	}
	return cfg, finish, nil
}

// MockProvider is the built-in mock (runtime/llm's Mock on a mock route):
// deterministic and offline; the scripted answers first, then "mock
// reply" unless a request offers or forces a tool or asks for a JSON
// shape.
func MockProvider(script ...*llm.Scripted) llm.Provider {
	r := catalog.Route{Provider: "mock", Model: "leia", Operations: []string{catalog.OpTextGeneration}}
	r.Runtime.API = catalog.APIMock
	m := llm.NewMock(r)
	if len(script) > 0 {
		m.Script = llm.NewMockScript(script...)
	}
	return m
}

// RunFailure is a run whose replay failed: the replay's error, after the
// program's own error when it had one.
type RunFailure struct {
	Run, Replay error
}

// Error implements error.
func (e *RunFailure) Error() string {
	if e.Run == nil {
		return e.Replay.Error()
	}
	return e.Run.Error() + "; " + e.Replay.Error()
}

// Unwrap returns both errors.
func (e *RunFailure) Unwrap() []error { return []error{e.Run, e.Replay} }

// Format prints the program's error (with its trace) and the replay's.
func (e *RunFailure) Format() string {
	var b strings.Builder
	if e.Run != nil {
		b.WriteString(runner.FormatError(e.Run))
	}
	b.WriteString("error: " + e.Replay.Error() + "\n")
	return b.String()
}

// ExitCode keeps a program's own exit status, else 1.
func (e *RunFailure) ExitCode() int {
	var ec interface{ ExitCode() int }
	if e.Run != nil && errors.As(e.Run, &ec) && ec.ExitCode() != 0 {
		return ec.ExitCode()
	}
	return 1
}

// LiveFactory makes providers from model configurations for a live run:
// openai/anthropic-compatible HTTP (base_url required; the host's
// --allow-net grant is checked before any request) or the mock. The
// credential comes from the environment only: api_key_env names the
// variable, or api_key must be a value some environment variable holds
// (as os.getenv gives it); a literal key in source is refused.
func LiveFactory(h *host.Host) func(ProviderConfig) (llm.Provider, error) {
	return liveFactory(h, false)
}

// liveFactory is LiveFactory; noLive refuses real calls
// (llm.Options.NoLiveCalls).
func liveFactory(h *host.Host, noLive bool) func(ProviderConfig) (llm.Provider, error) {
	return func(pc ProviderConfig) (llm.Provider, error) {
		api, ok := normalizeProtocol(pc.Protocol)
		if !ok {
			return nil, fmt.Errorf("model %s: unsupported model protocol %q", pc.Name, pc.Protocol)
		}
		r := catalog.Route{Provider: pc.Provider, Model: pc.Name, Operations: []string{catalog.OpTextGeneration}}
		if r.Provider == "" {
			r.Provider = "leia"
		}
		r.Runtime = catalog.Runtime{API: api, BaseURL: pc.BaseURL, WireModel: pc.ProviderModel}
		if api != catalog.APIMock {
			if pc.BaseURL == "" {
				return nil, fmt.Errorf("model %s: protocol %s needs base_url (or endpoint)", pc.Name, pc.Protocol)
			}
			switch {
			case pc.APIKeyEnv != "":
				r.Runtime.APIKeyEnv = pc.APIKeyEnv
			case pc.APIKey != "":
				name := envHolding(pc.APIKey)
				if name == "" {
					return nil, fmt.Errorf("model %s: api_key must come from the environment (os.getenv(\"VAR\") or api_key_env); the value given is in no environment variable", pc.Name)
				}
				r.Runtime.APIKeyEnv = name
			}
		}
		opts := llm.Options{Getenv: os.LookupEnv, NoLiveCalls: noLive}
		if h != nil {
			opts.CheckNet = h.CheckNet
		} else {
			opts.CheckNet = func(string) error { return errors.New("no host: network denied") }
		}
		return llm.New(r, opts)
	}
}

// envHolding names an environment variable whose value is v ("" when
// none is).
func envHolding(v string) string {
	var names []string
	for _, kv := range os.Environ() {
		if k, val, ok := strings.Cut(kv, "="); ok && val == v && k != "" {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return names[0]
}
