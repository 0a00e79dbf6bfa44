package host

import (
	"context"
	"net"
	"net/http"
	"strings"
	"time"
)

// CheckNet reports whether the program may connect to address
// ("host:port" or a bare host).
func (h *Host) CheckNet(address string) error {
	if h.grants.Net {
		return nil
	}
	hostOnly := address
	if hst, _, err := net.SplitHostPort(address); err == nil {
		hostOnly = hst
	}
	for _, g := range h.grants.NetHosts {
		if strings.EqualFold(g, address) || strings.EqualFold(g, hostOnly) {
			return nil
		}
	}
	if len(h.grants.NetHosts) > 0 {
		return &DeniedError{Op: "connect", Target: address, Flag: "--allow-net=" + hostOnly,
			Reason: "only " + strings.Join(h.grants.NetHosts, ", ") + " may be reached"}
	}
	return &DeniedError{Op: "connect", Target: address, Flag: "--allow-net", Reason: "network access is not granted"}
}

// Dial opens a network connection after checking the grant.
func (h *Host) Dial(ctx context.Context, network, address string) (net.Conn, error) {
	if err := h.CheckNet(address); err != nil {
		return nil, err
	}
	var d net.Dialer
	return d.DialContext(ctx, network, address)
}

// HTTPClient returns a client whose every request (redirects included) is
// checked against the network grant before it leaves the process; a
// denied request fails with a *DeniedError (wrapped in a *url.Error).
func (h *Host) HTTPClient(timeout time.Duration) *http.Client {
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.DialContext = h.Dial
	// A proxy would be dialed instead of the checked host; programs get
	// direct connections only.
	base.Proxy = nil
	return &http.Client{Timeout: timeout, Transport: &checkedTransport{h: h, base: base}}
}

type checkedTransport struct {
	h    *Host
	base http.RoundTripper
}

func (t *checkedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	addr := req.URL.Host
	if req.URL.Port() == "" {
		port := "80"
		if req.URL.Scheme == "https" {
			port = "443"
		}
		addr = net.JoinHostPort(req.URL.Hostname(), port)
	}
	if err := t.h.CheckNet(addr); err != nil {
		return nil, err
	}
	return t.base.RoundTrip(req)
}
