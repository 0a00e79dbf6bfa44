// Package agents defines the agents rule.
//
// # Rule agents
//
// agents: an agent has a string name and something to run: a config
// function, a flow, or request fields (LEIA3003).
//
// `agent { ... }` lowers to llm.agent(name, config, flow, opts): without a
// string `name` the runtime refuses it ("agent dialect requires string
// field name"). It needs `config` (a function building each call's
// request), or `flow` (a function that owns the loop), or declarative
// request fields from which the runtime builds the config (model,
// instructions, system, messages, tools, ...); with only name, params,
// description and output there is nothing to send. `config` and `flow`,
// when their values are known, must be functions. The same holds for the
// name and config arguments of `llm.agent(name, config, flow, opts)`.
package agents
