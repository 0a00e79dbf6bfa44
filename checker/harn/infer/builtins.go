package infer

import (
	"github.com/harnlang/harn-check/lang/harn/builtins"
	"github.com/harnlang/harn-check/lang/harn/types"
)

// builtinValue returns the type of a name no scope declares but the
// runtime provides: a builtin function (its signature, whether called or
// used as a value), a global value (argv, pi, skills), a namespace
// (stream, event_log: a dict of builtins) or a host-provided name
// (hostlib_*, __*).
func builtinValue(name string) (types.Type, bool) {
	if b := builtins.Lookup(name); b != nil {
		return b.Signature(), true
	}
	if g := builtins.LookupGlobal(name); g != nil {
		return g.Type, true
	}
	if builtins.IsNamespace(name) || builtins.HostProvided(name) {
		return types.AnyType, true
	}
	return nil, false
}
