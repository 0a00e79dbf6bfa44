package llm

import (
	"fmt"
	"os"
	"strings"
)

// CallsDisabledEnv is upstream Harn's switch that refuses every model
// call that would leave the process: set to 1, true, yes or on, only the
// mock (and scripted or replayed answers) may answer. Upstream's test
// runner sets it; so does `harn-check test` (Options.NoLiveCalls).
const CallsDisabledEnv = "HARN_LLM_CALLS_DISABLED"

// CallsDisabledByEnv reports whether the process environment sets
// CallsDisabledEnv. It reads the process's own environment, never a
// program's view of it (Options.Getenv), so a program cannot lift it.
func CallsDisabledByEnv() bool {
	v, _ := os.LookupEnv(CallsDisabledEnv)
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// CheckLive is nil when a real call to provider may be made, and
// otherwise the ErrAuthorityDenied error naming CallsDisabledEnv: calls
// are disabled by o.NoLiveCalls or by the environment. The mock provider
// is always allowed. Every request the Transport sends is checked; a
// runtime may check earlier to fail before resolving a route.
func (o Options) CheckLive(provider string) error {
	if provider == "mock" || !o.NoLiveCalls && !CallsDisabledByEnv() {
		return nil
	}
	return &Error{Kind: ErrAuthorityDenied, Detail: fmt.Sprintf("LLM calls are disabled by %s; provider `%s` would make a real LLM request", CallsDisabledEnv, provider)}
}
