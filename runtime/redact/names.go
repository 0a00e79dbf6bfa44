package redact

import (
	"net/url"
	"strings"
)

// Names is a word list saying which names (HTTP headers, URL query
// parameters) carry a secret. Each runtime keeps its upstream's list
// (HarnHeaders, HarnParams, LeiaNames); the matching is done here, once.
// Names are compared in lower case.
type Names struct {
	// Exact names are secret as a whole.
	Exact []string
	// Contains words make any name holding them secret.
	Contains []string
	// Suffixes make any name ending in them secret.
	Suffixes []string
}

// Sensitive reports whether name carries a secret.
func (n Names) Sensitive(name string) bool {
	l := strings.ToLower(name)
	for _, e := range n.Exact {
		if l == e {
			return true
		}
	}
	for _, w := range n.Contains {
		if strings.Contains(l, w) {
			return true
		}
	}
	for _, s := range n.Suffixes {
		if strings.HasSuffix(l, s) {
			return true
		}
	}
	return false
}

// HarnHeaders are the headers upstream Harn's HTTP mocks redact when
// they list calls.
var HarnHeaders = Names{Exact: []string{"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token"}}

// HarnParams are the URL query parameters upstream Harn redacts.
var HarnParams = Names{
	Exact:    []string{"api_key", "apikey", "access_token", "refresh_token", "id_token", "client_secret", "password", "secret", "token"},
	Suffixes: []string{"_token", "_secret"},
}

// LeiaNames are the header and query-parameter words upstream Leia's
// replay records redact.
var LeiaNames = Names{Contains: []string{"auth", "cookie", "token", "key", "secret", "session", "password", "signature"}}

// URL returns raw with the value of each query parameter that names
// calls sensitive replaced by mark (escaped), in place: the other
// parameters, their order and spelling are kept. With dropUser the
// user info (user:password@) is removed too. changed says whether
// anything was redacted; err is set, and raw returned, when raw is not a
// URL.
func URL(raw string, names Names, mark string, dropUser bool) (safe string, changed bool, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return raw, false, err
	}
	if dropUser && u.User != nil {
		u.User, changed = nil, true
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			k, _, _ := strings.Cut(p, "=")
			if name, err := url.QueryUnescape(k); err == nil && names.Sensitive(name) {
				parts[i], changed = k+"="+url.QueryEscape(mark), true
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	if !changed {
		return raw, false, nil
	}
	return u.String(), true, nil
}
