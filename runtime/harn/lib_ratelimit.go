package harn

import (
	"sync"
	"time"
)

// Provider rate limits: llm_rate_limit(provider, {rpm}) sets (rpm <= 0
// clears) a sliding one-minute window per provider, llm_rate_limit
// (provider) reads it; with_rate_limit(provider, f, {max_retries,
// backoff_ms}) waits for a permit, calls f, and retries it with doubling
// backoff (capped at 30s) when it fails with a rate_limit, overloaded,
// transient_network or timeout error.

type rateLimits struct {
	mu     sync.Mutex
	rpm    map[string]int64
	recent map[string][]time.Time
}

func rateLimitsOf(c *Call) *rateLimits {
	return c.th.in.State("rate_limits", func() any {
		return &rateLimits{rpm: map[string]int64{}, recent: map[string][]time.Time{}}
	}).(*rateLimits)
}

// acquire waits until the provider's window has room, then records a
// request.
func (rl *rateLimits) acquire(c *Call, provider string) error {
	for {
		rl.mu.Lock()
		limit := rl.rpm[provider]
		if limit <= 0 {
			rl.mu.Unlock()
			return nil
		}
		now := time.Now()
		ts := rl.recent[provider]
		for len(ts) > 0 && ts[0].Before(now.Add(-time.Minute)) {
			ts = ts[1:]
		}
		if int64(len(ts)) < limit {
			rl.recent[provider] = append(ts, now)
			rl.mu.Unlock()
			return nil
		}
		wait := ts[0].Add(time.Minute).Sub(now)
		rl.recent[provider] = ts
		rl.mu.Unlock()
		var err error
		c.th.block(func() { err = c.th.in.host.Sleep(c.th.ctx, wait) })
		if err != nil {
			if lerr := c.th.checkLimits(); lerr != nil {
				return lerr
			}
			return plainError("Deadline exceeded")
		}
	}
}

// errorCategory is the category of a caught error: the category a thrown
// dict carries, the error's own, or one read from its message.
func errorCategory(e *Error) string {
	if e.Value.k == KindDict {
		if c, ok := e.Value.r.(*Dict).Get("category"); ok {
			return parseCategory(Display(c))
		}
	}
	if e.Category != "" {
		return e.Category
	}
	if e.Value.k == KindString {
		return classifyMessage(e.Value.r.(string))
	}
	return "generic"
}

func installRatelimit(lib *Library) {
	lib.Builtin("llm_rate_limit", func(c *Call, args []Value) (Value, error) {
		provider := Display(Arg(args, 0))
		if Arg(args, 0).k == KindNil || provider == "" {
			return Nil, runtimeError("llm_rate_limit: provider name is required")
		}
		rl := rateLimitsOf(c)
		rl.mu.Lock()
		defer rl.mu.Unlock()
		if o := Arg(args, 1); o.k == KindDict {
			rpm, ok := o.r.(*Dict).Get("rpm")
			if !ok || rpm.k != KindInt {
				return Nil, runtimeError("llm_rate_limit: options must include 'rpm' (integer)")
			}
			if int64(rpm.n) <= 0 {
				delete(rl.rpm, provider)
				delete(rl.recent, provider)
			} else {
				rl.rpm[provider] = int64(rpm.n)
			}
			return Bool(true), nil
		}
		if n, ok := rl.rpm[provider]; ok {
			return Int(n), nil
		}
		return Nil, nil
	})
	lib.Builtin("with_rate_limit", func(c *Call, args []Value) (Value, error) {
		provider := Display(Arg(args, 0))
		if Arg(args, 0).k == KindNil || provider == "" {
			return Nil, runtimeError("with_rate_limit: provider name is required")
		}
		f := Arg(args, 1)
		if f.k != KindClosure {
			return Nil, runtimeError("with_rate_limit: second argument must be a closure")
		}
		maxRetries, backoff := int64(5), int64(1000)
		if o := Arg(args, 2); o.k == KindDict {
			if m := OptInt(o.r.(*Dict), "max_retries"); m != nil {
				maxRetries = max(*m, 0)
			}
			if b := OptInt(o.r.(*Dict), "backoff_ms"); b != nil {
				backoff = max(*b, 1)
			}
		}
		rl := rateLimitsOf(c)
		for attempt := int64(0); ; attempt++ {
			if err := rl.acquire(c, provider); err != nil {
				return Nil, err
			}
			v, err := c.th.callValue(f, nil)
			if err == nil {
				return v, nil
			}
			e, ok := catchable(err)
			if !ok || attempt >= maxRetries {
				return Nil, err
			}
			switch errorCategory(e) {
			case "rate_limit", "overloaded", "transient_network", "timeout":
			default:
				return Nil, err
			}
			var serr error
			c.th.block(func() { serr = c.th.in.host.Sleep(c.th.ctx, time.Duration(backoff)*time.Millisecond) })
			if serr != nil {
				if lerr := c.th.checkLimits(); lerr != nil {
					return Nil, lerr
				}
				return Nil, plainError("Deadline exceeded")
			}
			backoff = min(backoff*2, 30_000)
		}
	})
}
