package harn

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"time"

	"github.com/harnlang/harn-check/runtime/host"
)

// TLS configurations of the inbound HTTP server family: a dict {mode,
// terminate_tls, scheme, hsts, ...} a host adapter reads. plain is
// cleartext; edge is HTTPS terminated by a proxy in front (HSTS on by
// default, hsts_* options); pem names certificate and key files, which
// must exist (and be readable under the program's grants); self_signed_dev
// generates a throwaway ECDSA certificate for the given hosts.
// http_server_security_headers turns a configuration into the response
// headers it implies: strict-transport-security when HSTS is on.

func tlsConfig(mode string, terminate bool, scheme string, hsts bool) *Dict {
	d := NewDict(8)
	d.Set("mode", Str(mode))
	d.Set("terminate_tls", Bool(terminate))
	d.Set("scheme", Str(scheme))
	d.Set("hsts", Bool(hsts))
	return d
}

func optIntDefault(o *Dict, key string, def int64) int64 {
	if v, ok := o.Get(key); ok && v.k == KindInt {
		return v.AsInt()
	}
	return def
}

func optBoolDefault(o *Dict, key string, def bool) bool {
	if v, ok := o.Get(key); ok && v.k == KindBool {
		return v.AsBool()
	}
	return def
}

// selfSignedDev generates a certificate and PKCS#8 key, both PEM, for hosts.
func selfSignedDev(hosts []string) (string, string, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return "", "", err
	}
	now := time.Now()
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: hosts[0]},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(30 * 24 * time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return "", "", err
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", "", err
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8})), nil
}

func installHttpServerTls(lib *Library) {
	lib.Builtin("http_server_tls_plain", func(c *Call, args []Value) (Value, error) {
		return DictValue(tlsConfig("plain", false, "http", false)), nil
	})
	lib.Builtin("http_server_tls_edge", func(c *Call, args []Value) (Value, error) {
		o := optsArg(args, 0)
		d := tlsConfig("edge", false, "https", optBoolDefault(o, "hsts", true))
		d.Set("hsts_max_age_seconds", Int(optIntDefault(o, "hsts_max_age_seconds", 31536000)))
		d.Set("hsts_include_subdomains", Bool(optBoolDefault(o, "hsts_include_subdomains", false)))
		d.Set("hsts_preload", Bool(optBoolDefault(o, "hsts_preload", false)))
		return DictValue(d), nil
	})
	lib.Builtin("http_server_tls_pem", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, Errorf("http_server_tls_pem: requires cert path and key path")
		}
		certPath, keyPath := Display(args[0]), Display(args[1])
		for _, f := range []struct{ path, what string }{{certPath, "certificate"}, {keyPath, "private key"}} {
			fi, err := c.th.in.host.Stat(f.path)
			var denied *host.DeniedError
			if errors.As(err, &denied) {
				return Nil, ioError("http_server_tls_pem", err)
			}
			if err != nil || !fi.Mode().IsRegular() {
				return Nil, Errorf("http_server_tls_pem: %s not found: %s", f.what, f.path)
			}
		}
		d := tlsConfig("pem", true, "https", true)
		d.Set("cert_path", Str(certPath))
		d.Set("key_path", Str(keyPath))
		return DictValue(d), nil
	})
	lib.Builtin("http_server_tls_self_signed_dev", func(c *Call, args []Value) (Value, error) {
		hosts := []string{"localhost", "127.0.0.1"}
		switch h := Arg(args, 0); h.k {
		case KindNil:
		case KindList:
			hosts = nil
			for _, x := range h.r.(*List).SharedItems() {
				if Display(x) == "" {
					return Nil, Errorf("http_server_tls_self_signed_dev: host names must be non-empty")
				}
				hosts = append(hosts, Display(x))
			}
			if len(hosts) == 0 {
				return Nil, Errorf("http_server_tls_self_signed_dev: host list must not be empty")
			}
		default:
			if Display(h) == "" {
				return Nil, Errorf("http_server_tls_self_signed_dev: host name must be non-empty")
			}
			hosts = []string{Display(h)}
		}
		certPEM, keyPEM, err := selfSignedDev(hosts)
		if err != nil {
			return Nil, Errorf("http_server_tls_self_signed_dev: failed to generate certificate: %v", err)
		}
		d := tlsConfig("self_signed_dev", true, "https", false)
		d.Set("hosts", NewListValue(StrValues(hosts)))
		d.Set("cert_pem", Str(certPEM))
		d.Set("key_pem", Str(keyPEM))
		return DictValue(d), nil
	})
	lib.Builtin("http_server_security_headers", func(c *Call, args []Value) (Value, error) {
		cfg := Arg(args, 0)
		if cfg.k != KindDict {
			return Nil, Errorf("http_server_security_headers: requires a TLS config dict")
		}
		o := cfg.r.(*Dict)
		out := NewDict(1)
		if !optBoolDefault(o, "hsts", false) {
			return DictValue(out), nil
		}
		v := fmt.Sprintf("max-age=%d", max(optIntDefault(o, "hsts_max_age_seconds", 31536000), 0))
		if optBoolDefault(o, "hsts_include_subdomains", false) {
			v += "; includeSubDomains"
		}
		if optBoolDefault(o, "hsts_preload", false) {
			v += "; preload"
		}
		out.Set("strict-transport-security", Str(v))
		return DictValue(out), nil
	})
}
