package ai

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
	"github.com/harnlang/harn-check/runtime/validator"
)

// Config is what a host gives the AI layer of one interpreter.
type Config struct {
	// Provider, when set, answers every turn whatever model a request
	// names (the mock, a replay, a host-owned provider).
	Provider llm.Provider
	// Factory makes a provider from a model alias's provider
	// configuration (the live mode); nil ignores script-declared
	// providers, so a turn without Provider fails "llm provider not
	// configured".
	Factory func(ProviderConfig) (llm.Provider, error)
	// Trace receives the run's metadata-only events.
	Trace llm.TraceSink
	// Source labels trace events: live, mock, replay.
	Source string
	// Capabilities, when not nil, is the set of tool capability labels the
	// host grants: a tool requiring another label is refused, not run.
	Capabilities []string
	// Dir is the program's folder; validator paths are relative to it.
	Dir string
	// Host is the program's host (clock, environment); may be nil.
	Host *host.Host
}

// ProviderConfig is the provider part of a model alias, as upstream
// Leia's llm.ProviderConfig names it.
type ProviderConfig struct {
	Name, Protocol, BaseURL, ProviderModel, Provider string
	// APIKey is the key value the script passed (from the environment);
	// APIKeyEnv the environment variable it names instead.
	APIKey, APIKeyEnv string
}

// Usage counts what a run spent on models (eval.usage reads it).
type Usage struct {
	Turns, InputTokens, OutputTokens, StreamEvents, ToolCalls int64
	Cost                                                      float64
}

// Runtime is the AI layer of one interpreter: its model aliases, agent
// defaults, ambient budgets, usage counters and
// the validators it compiled. Natives run under the interpreter's lock,
// so the state needs no other synchronisation; mu guards what a host
// reads from outside a run (Usage, BrokenScripts).
type Runtime struct {
	in  *leia.Interp
	cfg Config

	models   *leia.Table
	defaults *leia.Table
	budgets  []*budget

	agentMeta map[*leia.Native]*agentMeta
	snapshots map[string]leia.Value
	tokenSeq  int

	validators map[string]*validator.Validator
	broken     validator.BrokenScripts

	mu    sync.Mutex
	usage Usage

	// nesting counts the AI calls in progress on the Go stack (agents,
	// turns, dispatches): an agent that calls itself as a tool, or a
	// stream callback that starts a turn, recurses through Go frames the
	// interpreter's depth counter does not see.
	nesting int
}

// MaxNesting bounds AI calls nested inside one another.
const MaxNesting = 64

// enter counts one nested AI call; it fails past MaxNesting.
func (rt *Runtime) enter() leia.Value {
	if rt.nesting >= MaxNesting {
		return ErrorWith("budget", fmt.Sprintf("llm calls nested deeper than %d (an agent calling itself?)", MaxNesting), "dimension", "nesting", "limit", MaxNesting)
	}
	rt.nesting++
	return leia.Nil
}

func (rt *Runtime) leave() { rt.nesting-- }

// Family builds the natives of one helper family for a run, one file per
// family; the part-3 helpers (workflows, retrieval, sections ...) are
// families too.
type Family func(rt *Runtime) map[string]leia.NativeFunc

type family struct {
	module string
	build  Family
}

// families are the helper families in the order Install makes them: a
// module's tables are made in the order of its first family here, and a
// later family's name replaces an earlier one's in the same module.
func families() []family {
	return []family{
		{"llm", agentFamily},
		{"llm", approvalFamily},
		{"llm", budgetFamily},
		{"llm", budgetOutcomeFamily},
		{"llm", checkpointFamily},
		{"llm", envelopeFamily},
		{"llm", fixtureIndexFamily},
		{"loop", loopFamily},
		{"llm", messageFamily("llm")},
		{"msg", messageFamily("msg")},
		{"history", historyFamily},
		{"chat", chatFamily},
		{"llm", modelsFamily},
		{"llm", outcomeRetrievalFamily},
		{"llm", planningFamily},
		{"llm", policyFamily},
		{"llm", replayFamily},
		{"llm", replayRecordsFamily},
		{"llm", reportFamily},
		{"llm", retrievalFamily},
		{"llm", schemaFamily},
		{"llm", sectionsFamily},
		{"llm", toolContractsFamily},
		{"llm", toolOutcomeFamily},
		{"llm", toolsFamily},
		{"llm", traceFamily},
		{"llm", turnFamily},
		{"llm", workflowFamily},
	}
}

// Install puts the AI layer on an interpreter: the llm, msg, history,
// chat and loop modules, the global toolof, and the AI dialect tags.
func Install(in *leia.Interp, cfg Config) *Runtime {
	rt := &Runtime{in: in, cfg: cfg, models: leia.NewTable(0, 4), defaults: leia.NewTable(0, 4),
		agentMeta: map[*leia.Native]*agentMeta{}, snapshots: map[string]leia.Value{}, validators: map[string]*validator.Validator{}}
	fams := families()
	var order []string
	index := map[string]int{}
	for _, f := range fams {
		if _, ok := index[f.module]; !ok {
			index[f.module] = len(order)
			order = append(order, f.module)
		}
	}
	// The modules' natives are made at the first use of any of them (a
	// program that calls no model pays nothing for them); the global
	// toolof is llm.toolof, so it is made now and handed to the llm
	// module, calling the family's native once that is made.
	var (
		tables   []*leia.Table
		toolofFn leia.NativeFunc
	)
	toolof := leia.NewNative("llm.toolof", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if toolofFn == nil {
			tables[index["llm"]].GetStr("toolof") // makes the modules
		}
		if toolofFn == nil {
			return nil, fmt.Errorf("llm.toolof is not available")
		}
		return toolofFn(t, a)
	})
	tables = in.RegisterLazyModules(order, func(mods []*leia.Table) {
		for _, f := range fams {
			m := mods[index[f.module]]
			fns := f.build(rt)
			names := make([]string, 0, len(fns))
			for n := range fns {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				if f.module == "llm" && n == "toolof" {
					toolofFn = fns[n]
					m.SetStr(n, toolof)
					continue
				}
				m.SetStr(n, leia.NewNative(f.module+"."+n, fns[n]))
			}
		}
		if i, ok := index["llm"]; ok {
			mods[i].SetStr("config", rt.configModule())
		}
	})
	if _, ok := index["llm"]; ok {
		in.SetGlobal("toolof", toolof)
	}
	rt.registerDialects()
	return rt
}

// RequestHook adjusts a request table after its messages are built and
// before it is lowered (turns and agent loops alike): retrieval context
// and evidence become messages this way (part 3).
type RequestHook func(rt *Runtime, t *leia.Thread, opts *leia.Table)

// requestHooks are the request hooks, in the order they run.
func requestHooks() []RequestHook { return []RequestHook{expandRequest} }

func (rt *Runtime) applyRequestHooks(t *leia.Thread, opts *leia.Table) {
	for _, h := range requestHooks() {
		h(rt, t, opts)
	}
}

// Interp is the interpreter the runtime belongs to.
func (rt *Runtime) Interp() *leia.Interp { return rt.in }

// Usage returns the counters so far.
func (rt *Runtime) Usage() Usage {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.usage
}

func (rt *Runtime) addUsage(f func(u *Usage)) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	f(&rt.usage)
}

// BrokenScripts names the validators that failed to run, each once.
func (rt *Runtime) BrokenScripts() []string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.broken.Names()
}

// Emit sends a trace event (metadata only) to the host's sink.
func (rt *Runtime) Emit(ev llm.TraceEvent) {
	if rt.cfg.Trace == nil {
		return
	}
	if ev.Source == "" {
		ev.Source = rt.cfg.Source
	}
	rt.cfg.Trace.Emit(ev)
}

// now is the host clock (the wall clock without a host).
func (rt *Runtime) now() time.Time {
	if rt.cfg.Host != nil {
		return rt.cfg.Host.Now()
	}
	return time.Now()
}
