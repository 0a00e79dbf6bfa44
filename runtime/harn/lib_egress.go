package harn

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/runtime/redact"
)

// egress_policy: which hosts a program's outbound requests may reach,
// on top of --allow-net. Rules are hosts ("api.example.com"), suffix
// wildcards ("*.example.com", subdomains only), IP addresses, CIDR
// blocks ("10.0.0.0/8"), each optionally with a port ("host:8443"); a
// deny rule wins over an allow rule, and "default" (allow unless given)
// decides the rest. The policy also comes from HARN_EGRESS_ALLOW,
// HARN_EGRESS_DENY and HARN_EGRESS_DEFAULT. Mocked requests are answered
// before the policy is asked; a refused request throws an EgressBlocked
// error dict (category egress_blocked).

type egressRule struct {
	raw    string
	host   string // exact host, or the suffix of a wildcard
	suffix bool
	ip     netip.Addr
	prefix netip.Prefix
	port   int // 0: any
}

type egressPolicy struct {
	allow, deny []egressRule
	denyDefault bool
	source      string
}

type egressState struct {
	mu     sync.Mutex
	seeded bool
	policy *egressPolicy
}

func egressOf(c *Call) *egressState {
	return c.th.in.State("egress", func() any { return &egressState{} }).(*egressState)
}

func egressErr(format string, a ...any) error { return throwValue(Str(fmt.Sprintf(format, a...))) }

func normalizeEgressHost(h string) string {
	return strings.ToLower(strings.Trim(strings.TrimSuffix(strings.TrimSpace(h), "."), "[]"))
}

func parseEgressRule(raw string) (egressRule, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return egressRule{}, egressErr("egress_policy: empty egress rule")
	}
	r := egressRule{raw: raw}
	host := raw
	if u, err := url.Parse(raw); err == nil && u.Scheme != "" && u.Host != "" {
		host = u.Hostname()
		r.port = defaultPort(u)
	} else if strings.HasPrefix(raw, "[") {
		inner, rest, ok := strings.Cut(raw[1:], "]")
		if !ok || rest != "" && !strings.HasPrefix(rest, ":") {
			return r, egressErr("egress_policy: invalid bracketed host rule `%s`", raw)
		}
		host = inner
		if rest != "" {
			p, err := strconv.ParseUint(rest[1:], 10, 16)
			if err != nil {
				return r, egressErr("egress_policy: invalid port in `%s`: %v", raw, err)
			}
			r.port = int(p)
		}
	} else if i := strings.LastIndexByte(raw, ':'); i > 0 && !strings.Contains(raw[:i], ":") && raw[i+1:] != "" && strings.Trim(raw[i+1:], "0123456789") == "" {
		p, err := strconv.ParseUint(raw[i+1:], 10, 16)
		if err != nil {
			return r, egressErr("egress_policy: invalid port in `%s`: %v", raw, err)
		}
		host, r.port = raw[:i], int(p)
	}
	host = normalizeEgressHost(host)
	switch {
	case strings.HasPrefix(host, "*."):
		if host == "*." {
			return r, egressErr("egress_policy: invalid wildcard rule `%s`", raw)
		}
		r.host, r.suffix = host[2:], true
	case strings.Contains(host, "/"):
		p, err := netip.ParsePrefix(host)
		if err != nil {
			return r, egressErr("egress_policy: invalid CIDR rule `%s`: %v", raw, err)
		}
		r.prefix = p.Masked()
	default:
		if ip, err := netip.ParseAddr(host); err == nil {
			r.ip = ip
		} else {
			r.host = host
		}
	}
	return r, nil
}

func defaultPort(u *url.URL) int {
	if p := u.Port(); p != "" {
		n, _ := strconv.Atoi(p)
		return n
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "ws":
		return 80
	case "https", "wss":
		return 443
	}
	return 0
}

func (r egressRule) matches(host string, ip netip.Addr, port int) bool {
	if r.port != 0 && r.port != port {
		return false
	}
	switch {
	case r.suffix:
		return len(host) > len(r.host) && strings.HasSuffix(host, "."+r.host)
	case r.prefix.IsValid():
		return ip.IsValid() && r.prefix.Contains(ip)
	case r.ip.IsValid():
		return ip.IsValid() && r.ip == ip
	}
	return host == r.host
}

func parseEgressRules(items []string) ([]egressRule, error) {
	var out []egressRule
	for _, s := range items {
		r, err := parseEgressRule(s)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func parseEgressDefault(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "allow":
		return false, nil
	case "deny":
		return true, nil
	}
	return false, egressErr("egress_policy: default must be `allow` or `deny`, got `%s`", strings.ToLower(strings.TrimSpace(s)))
}

// seed installs the policy of the HARN_EGRESS_* environment once.
func (st *egressState) seed(c *Call) error {
	if st.seeded {
		return nil
	}
	st.seeded = true
	h := c.th.in.host
	allow, ok1 := h.LookupEnv("HARN_EGRESS_ALLOW")
	deny, ok2 := h.LookupEnv("HARN_EGRESS_DENY")
	def, ok3 := h.LookupEnv("HARN_EGRESS_DEFAULT")
	if !ok1 && !ok2 && !ok3 {
		return nil
	}
	split := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' || r == ';' })
	}
	p := &egressPolicy{source: "env"}
	var err error
	if p.allow, err = parseEgressRules(split(allow)); err != nil {
		return err
	}
	if p.deny, err = parseEgressRules(split(deny)); err != nil {
		return err
	}
	if p.denyDefault, err = parseEgressDefault(def); err != nil {
		return err
	}
	st.policy = p
	return nil
}

// enforceEgress throws EgressBlocked when the policy refuses rawURL.
func enforceEgress(c *Call, surface, rawURL string) error {
	st := egressOf(c)
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.seed(c); err != nil {
		return err
	}
	p := st.policy
	if p == nil {
		return nil
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return egressErr("egress: invalid URL `%s`: %v", rawURL, err)
	}
	host := normalizeEgressHost(u.Hostname())
	if host == "" {
		return egressErr("egress: URL `%s` does not include a host", rawURL)
	}
	ip, _ := netip.ParseAddr(host)
	port := defaultPort(u)
	reason := ""
	for _, r := range p.deny {
		if r.matches(host, ip, port) {
			reason = "matched deny rule `" + r.raw + "`"
			break
		}
	}
	if reason == "" {
		for _, r := range p.allow {
			if r.matches(host, ip, port) {
				return nil
			}
		}
		if !p.denyDefault {
			return nil
		}
		reason = "no allow rule matched"
	}
	safe, _, _ := redact.URL(rawURL, redact.HarnParams, "[redacted]", false)
	d := NewDict(8)
	d.Set("type", Str("EgressBlocked"))
	d.Set("category", Str("egress_blocked"))
	target := host
	d.Set("port", Nil)
	if port != 0 {
		target = host + ":" + strconv.Itoa(port)
		d.Set("port", Int(int64(port)))
	}
	d.Set("message", Str(fmt.Sprintf("EgressBlocked: %s blocked %s for %s (%s)", surface, target, safe, reason)))
	d.Set("surface", Str(surface))
	d.Set("url", Str(safe))
	d.Set("host", Str(host))
	d.Set("reason", Str(reason))
	return throwValue(DictValue(d))
}

func installEgress(lib *Library) {
	lib.Builtin("egress_policy", func(c *Call, args []Value) (Value, error) {
		cfg := Arg(args, 0)
		if cfg.k != KindDict {
			return Nil, egressErr("egress_policy: requires a config dict")
		}
		d := cfg.r.(*Dict)
		rules := func(key string) ([]egressRule, error) {
			v, ok := d.Get(key)
			if !ok || v.k == KindNil {
				return nil, nil
			}
			if v.k != KindList {
				return nil, egressErr("egress_policy: %s must be a list", key)
			}
			var raws []string
			for _, it := range v.r.(*List).items {
				raws = append(raws, Display(it))
			}
			return parseEgressRules(raws)
		}
		p := &egressPolicy{source: "stdlib"}
		var err error
		if p.allow, err = rules("allow"); err != nil {
			return Nil, err
		}
		if p.deny, err = rules("deny"); err != nil {
			return Nil, err
		}
		if v, ok := d.Get("default"); ok {
			if p.denyDefault, err = parseEgressDefault(Display(v)); err != nil {
				return Nil, err
			}
		}
		st := egressOf(c)
		st.mu.Lock()
		st.seeded, st.policy = true, p
		st.mu.Unlock()
		raws := func(rs []egressRule) Value {
			out := make([]Value, len(rs))
			for i, r := range rs {
				out[i] = Str(r.raw)
			}
			return NewListValue(out)
		}
		sum := NewDict(5)
		sum.Set("configured", Bool(true))
		sum.Set("source", Str(p.source))
		sum.Set("default", Str(map[bool]string{false: "allow", true: "deny"}[p.denyDefault]))
		sum.Set("allow", raws(p.allow))
		sum.Set("deny", raws(p.deny))
		return DictValue(sum), nil
	})
}

// hostPort is the host:port a URL connects to.
func hostPort(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if p := defaultPort(u); p != 0 {
		return net.JoinHostPort(u.Hostname(), strconv.Itoa(p))
	}
	return u.Host
}
