package leia

import (
	"context"

	"github.com/harnlang/harn-check/runtime/execution"
	"github.com/harnlang/harn-check/runtime/host"
)

// Accessors for layers built on the interpreter in their own packages
// (the AI dialect, the evaluate harness).

// Host is the interpreter's access to the operating system (nil when the
// embedder gave none).
func (in *Interp) Host() *host.Host { return in.opts.Host }

// Context is the context of the current run or call (cancellation and
// --timeout); natives that wait on the outside world pass it on.
func (in *Interp) Context() context.Context { return in.run.Context() }

// Execution is the execution core's run in progress (of the latest Run
// or Call).
func (in *Interp) Execution() *execution.Run { return in.run }

// Closure returns the Leia function of a function value, or nil.
func (v Value) Closure() *Closure {
	if v.k != KindFunction {
		return nil
	}
	return v.closure()
}

// ParamNames returns the declared parameter names of a Leia function
// (without a trailing `name...` parameter).
func (c *Closure) ParamNames() []string { return append([]string(nil), c.proto.params...) }
