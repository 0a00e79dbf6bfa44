package crypto

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/internal/blake3"
	"github.com/harnlang/harn-check/runtime/harn"
	"github.com/harnlang/harn-check/runtime/harn/lib/encoding"
)

// The crypto family: BLAKE3, Ed25519 and X25519 keys as hex strings,
// JWT signing (ES256, RS256) and HMAC-signed URLs with expiry and key
// ids. Keys come from the host's random source (crypto/rand); nothing here
// touches the file system or network.

func install(lib *harn.Library) {
	lib.Builtin("blake3", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		sum := blake3.Sum256(harn.BytesOf(harn.Arg(args, 0)))
		return harn.Str(hex.EncodeToString(sum[:])), nil
	})
	lib.Builtin("ed25519_keypair", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return harn.Nil, harn.ThrowValue(harn.Str("ed25519_keypair: " + err.Error()))
		}
		return keypair(hex.EncodeToString(priv.Seed()), hex.EncodeToString(pub)), nil
	})
	lib.Builtin("ed25519_sign", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 2 {
			return harn.Nil, harn.ThrowValue(harn.Str("ed25519_sign: expected (private_hex, message)"))
		}
		seed, err := hex.DecodeString(harn.Display(args[0]))
		if err != nil {
			return harn.Nil, harn.ThrowValue(harn.Str("ed25519_sign: invalid hex private key: " + err.Error()))
		}
		if len(seed) != ed25519.SeedSize {
			return harn.Nil, harn.ThrowValue(harn.Str("ed25519_sign: private key must be 32 bytes"))
		}
		sig := ed25519.Sign(ed25519.NewKeyFromSeed(seed), harn.BytesOf(args[1]))
		return harn.Str(hex.EncodeToString(sig)), nil
	})
	lib.Builtin("ed25519_verify", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		if len(args) < 3 {
			return harn.Nil, harn.ThrowValue(harn.Str("ed25519_verify: expected (public_hex, message, signature_hex)"))
		}
		pub, err1 := hex.DecodeString(harn.Display(args[0]))
		sig, err2 := hex.DecodeString(harn.Display(args[2]))
		if err1 != nil || err2 != nil || len(pub) != ed25519.PublicKeySize || len(sig) != ed25519.SignatureSize {
			return harn.Bool(false), nil
		}
		return harn.Bool(ed25519.Verify(ed25519.PublicKey(pub), harn.BytesOf(args[1]), sig)), nil
	})
	lib.Builtin("x25519_keypair", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		k, err := ecdh.X25519().GenerateKey(rand.Reader)
		if err != nil {
			return harn.Nil, harn.ThrowValue(harn.Str("x25519_keypair: " + err.Error()))
		}
		return keypair(hex.EncodeToString(k.Bytes()), hex.EncodeToString(k.PublicKey().Bytes())), nil
	})
	lib.Builtin("x25519_agree", x25519Agree)
	lib.Builtin("jwt_sign", jwtSign)
	lib.Builtin("signed_url", signedURL)
	lib.Builtin("verify_signed_url", verifySignedURL)
}

func keypair(private, public string) harn.Value {
	d := harn.NewDict(2)
	d.Set("private", harn.Str(private))
	d.Set("public", harn.Str(public))
	return harn.DictValue(d)
}

func x25519Agree(c *harn.Call, args []harn.Value) (harn.Value, error) {
	if len(args) < 2 {
		return harn.Nil, harn.ThrowValue(harn.Str("x25519_agree: expected (private_hex, peer_public_hex)"))
	}
	priv, err := hex.DecodeString(harn.Display(args[0]))
	if err != nil {
		return harn.Nil, harn.ThrowValue(harn.Str("x25519_agree: invalid private hex: " + err.Error()))
	}
	pub, err := hex.DecodeString(harn.Display(args[1]))
	if err != nil {
		return harn.Nil, harn.ThrowValue(harn.Str("x25519_agree: invalid public hex: " + err.Error()))
	}
	if len(priv) != 32 {
		return harn.Nil, harn.ThrowValue(harn.Str("x25519_agree: private must be 32 bytes"))
	}
	if len(pub) != 32 {
		return harn.Nil, harn.ThrowValue(harn.Str("x25519_agree: public must be 32 bytes"))
	}
	sk, err := ecdh.X25519().NewPrivateKey(priv)
	if err != nil {
		return harn.Nil, harn.ThrowValue(harn.Str("x25519_agree: " + err.Error()))
	}
	pk, err := ecdh.X25519().NewPublicKey(pub)
	if err != nil {
		return harn.Nil, harn.ThrowValue(harn.Str("x25519_agree: " + err.Error()))
	}
	shared, err := sk.ECDH(pk)
	if err != nil {
		return harn.Nil, harn.ThrowValue(harn.Str("x25519_agree: " + err.Error()))
	}
	return harn.Str(hex.EncodeToString(shared)), nil
}

// jwtSign is jwt_sign(alg, claims, private_key_pem): a compact JWS with
// header {"alg", "typ": "JWT"} signed with ES256 (P-256, raw r||s) or
// RS256 (PKCS #1 v1.5).
func jwtSign(c *harn.Call, args []harn.Value) (harn.Value, error) {
	fail := func(format string, a ...any) (harn.Value, error) {
		return harn.Nil, harn.Errorf("%s", "jwt_sign: "+fmt.Sprintf(format, a...))
	}
	if len(args) != 3 {
		return fail("requires 3 arguments: alg, claims, private_key")
	}
	if args[0].Kind() != harn.KindString {
		return fail("alg must be a string, got %s", args[0].TypeName())
	}
	alg := args[0].AsString()
	if alg != "ES256" && alg != "RS256" {
		return fail("unsupported algorithm `%s`; expected ES256 or RS256", alg)
	}
	if args[1].Kind() != harn.KindDict {
		return fail("claims must be a dict, got %s", args[1].TypeName())
	}
	if args[2].Kind() != harn.KindString {
		return fail("private_key must be a PEM string, got %s", args[2].TypeName())
	}
	key, err := parsePrivateKeyPEM(args[2].AsString())
	var signer crypto.Signer
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		if alg == "ES256" {
			signer = k
		}
	case *rsa.PrivateKey:
		if alg == "RS256" {
			signer = k
		}
	}
	if err != nil || signer == nil {
		why := "not a " + alg + " key"
		if err != nil {
			why = err.Error()
		}
		return fail("invalid %s PEM private key: %s", alg, why)
	}
	var header, payload strings.Builder
	header.WriteString(`{"typ":"JWT","alg":`)
	header.WriteString(harn.JSON(harn.Str(alg)))
	header.WriteString("}")
	payload.WriteString(harn.JSON(args[1]))
	enc := base64.RawURLEncoding
	input := enc.EncodeToString([]byte(header.String())) + "." + enc.EncodeToString([]byte(payload.String()))
	digest := sha256.Sum256([]byte(input))
	var sig []byte
	if k, ok := signer.(*ecdsa.PrivateKey); ok {
		r, s, serr := ecdsa.Sign(rand.Reader, k, digest[:])
		if serr != nil {
			return fail("signing failed: %v", serr)
		}
		sig = make([]byte, 64)
		r.FillBytes(sig[:32])
		s.FillBytes(sig[32:])
	} else {
		sig, err = signer.Sign(rand.Reader, digest[:], crypto.SHA256)
		if err != nil {
			return fail("signing failed: %v", err)
		}
	}
	return harn.Str(input + "." + enc.EncodeToString(sig)), nil
}

// parsePrivateKeyPEM reads a PKCS #8, SEC 1 (EC) or PKCS #1 (RSA) key.
func parsePrivateKeyPEM(s string) (any, error) {
	block, _ := pem.Decode([]byte(s))
	if block == nil {
		return nil, fmt.Errorf("no PEM block")
	}
	if k, err := x509.ParsePKCS8PrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	if k, err := x509.ParseECPrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	return x509.ParsePKCS1PrivateKey(block.Bytes)
}

// signedURLOpts are the options of signed_url and verify_signed_url.
type signedURLOpts struct {
	sigParam, expParam, kidParam, kid string
	skew                              int64
}

func parseSignedURLOpts(v harn.Value, fn string) (signedURLOpts, error) {
	o := signedURLOpts{sigParam: "sig", expParam: "exp", kidParam: "kid"}
	if v.Kind() == harn.KindNil {
		return o, nil
	}
	if v.Kind() != harn.KindDict {
		return o, harn.Errorf("%s", fmt.Sprintf("%s: options must be a dict, got %s", fn, v.TypeName()))
	}
	d := v.AsDict()
	str := func(key string, dst *string) error {
		x, ok := d.Get(key)
		if !ok || x.Kind() == harn.KindNil {
			return nil
		}
		if x.Kind() != harn.KindString {
			return harn.Errorf("%s", fmt.Sprintf("%s: option `%s` must be a string, got %s", fn, key, x.TypeName()))
		}
		*dst = x.AsString()
		return nil
	}
	for _, p := range []struct {
		key string
		dst *string
	}{{"signature_param", &o.sigParam}, {"expires_param", &o.expParam}, {"kid_param", &o.kidParam}, {"kid", &o.kid}} {
		if err := str(p.key, p.dst); err != nil {
			return o, err
		}
	}
	if x, ok := d.Get("skew_seconds"); ok && x.Kind() != harn.KindNil {
		if x.Kind() != harn.KindInt {
			return o, harn.Errorf("%s", fmt.Sprintf("%s: option `skew_seconds` must be an int, got %s", fn, x.TypeName()))
		}
		o.skew = x.AsInt()
	}
	for _, p := range [][2]string{{"signature_param", o.sigParam}, {"expires_param", o.expParam}, {"kid_param", o.kidParam}} {
		if p[1] == "" {
			return o, harn.Errorf("%s", fmt.Sprintf("%s: option `%s` cannot be empty", fn, p[0]))
		}
	}
	if o.sigParam == o.expParam || o.sigParam == o.kidParam || o.expParam == o.kidParam {
		return o, harn.Errorf("%s", fn+": signature_param, expires_param, and kid_param must be distinct")
	}
	if o.skew < 0 {
		return o, harn.Errorf("%s", fn+": skew_seconds must be greater than or equal to 0")
	}
	return o, nil
}

func (o signedURLOpts) reserved(key string) bool {
	return key == o.sigParam || key == o.expParam || key == o.kidParam
}

type queryPair struct{ key, value string }

// signedURLParts splits a URL (absolute with a host, or a path starting
// with /) into the signed resource, the prefix the output starts with and
// the query pairs, form-decoded.
func signedURLParts(raw, fn string) (resource, prefix string, pairs []queryPair, err error) {
	if u, perr := url.Parse(raw); perr == nil && u.Scheme != "" {
		if u.Host == "" || u.Opaque != "" {
			return "", "", nil, harn.Errorf("%s", fn+": expected an absolute URL with a host or an absolute path starting with `/`")
		}
		path := u.EscapedPath()
		if path == "" {
			path = "/"
		}
		origin := strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
		return origin + path, origin + path, formPairs(u.RawQuery), nil
	}
	s, _, _ := strings.Cut(raw, "#")
	path, query, _ := strings.Cut(s, "?")
	if path == "" {
		path = "/"
	}
	if !strings.HasPrefix(path, "/") {
		return "", "", nil, harn.Errorf("%s", fn+": expected an absolute URL or an absolute path starting with `/`")
	}
	path = percentEncodePath(path)
	return path, path, formPairs(query), nil
}

// formPairs decodes application/x-www-form-urlencoded pairs in order.
func formPairs(q string) []queryPair {
	var out []queryPair
	for part := range strings.SplitSeq(q, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		out = append(out, queryPair{formUnescape(k), formUnescape(v)})
	}
	return out
}

func formUnescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return strings.ReplaceAll(s, "+", " ")
}

// percentEncodePath escapes a path, keeping unreserved characters, '/'
// and well-formed %XX escapes (upper-cased).
func percentEncodePath(s string) string {
	const hexd = "0123456789ABCDEF"
	isHex := func(b byte) bool {
		return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("-_.~/", c) >= 0:
			b.WriteByte(c)
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte('%')
			b.WriteString(strings.ToUpper(s[i+1 : i+3]))
			i += 2
		default:
			b.WriteByte('%')
			b.WriteByte(hexd[c>>4])
			b.WriteByte(hexd[c&15])
		}
	}
	return b.String()
}

// canonicalQuery percent-encodes each pair and sorts them.
func canonicalQuery(pairs []queryPair) string {
	enc := make([]string, len(pairs))
	for i, p := range pairs {
		enc[i] = encoding.PercentEncode(p.key) + "\x00" + encoding.PercentEncode(p.value)
	}
	sort.Strings(enc)
	for i, e := range enc {
		enc[i] = strings.Replace(e, "\x00", "=", 1)
	}
	return strings.Join(enc, "&")
}

// signedURLSignature is the base64url HMAC-SHA256 of the version line,
// the resource and the canonical query.
func signedURLSignature(secret, resource, query string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("harn-signed-url-v1\n" + resource + "\n" + query))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func signedURL(c *harn.Call, args []harn.Value) (harn.Value, error) {
	const fn = "signed_url"
	if len(args) < 4 || len(args) > 5 {
		return harn.Nil, harn.Errorf("%s", fn+": requires 4 or 5 arguments: base, claims, secret, expires_at, options?")
	}
	o, err := parseSignedURLOpts(harn.Arg(args, 4), fn)
	if err != nil {
		return harn.Nil, err
	}
	if args[0].Kind() != harn.KindString {
		return harn.Nil, harn.Errorf("%s", fmt.Sprintf("%s: base must be a string, got %s", fn, args[0].TypeName()))
	}
	if args[1].Kind() != harn.KindDict {
		return harn.Nil, harn.Errorf("%s", fmt.Sprintf("%s: claims must be a dict, got %s", fn, args[1].TypeName()))
	}
	claims := args[1].AsDict()
	for _, r := range []string{o.sigParam, o.expParam, o.kidParam} {
		if claims.Has(r) {
			return harn.Nil, harn.Errorf("%s", fmt.Sprintf("%s: claims cannot contain reserved parameter `%s`", fn, r))
		}
	}
	if args[2].Kind() != harn.KindString {
		return harn.Nil, harn.Errorf("%s", fmt.Sprintf("%s: secret must be a string, got %s", fn, args[2].TypeName()))
	}
	if args[3].Kind() != harn.KindInt {
		return harn.Nil, harn.Errorf("%s", fmt.Sprintf("%s: expires_at must be an int, got %s", fn, args[3].TypeName()))
	}
	resource, prefix, pairs, err := signedURLParts(args[0].AsString(), fn)
	if err != nil {
		return harn.Nil, err
	}
	kept := pairs[:0]
	for _, p := range pairs {
		if !o.reserved(p.key) {
			kept = append(kept, p)
		}
	}
	pairs = kept
	for _, k := range claims.Keys() {
		v, _ := claims.Get(k)
		pairs = append(pairs, queryPair{k, harn.Display(v)})
	}
	pairs = append(pairs, queryPair{o.expParam, strconv.FormatInt(args[3].AsInt(), 10)})
	if o.kid != "" {
		pairs = append(pairs, queryPair{o.kidParam, o.kid})
	}
	sig := signedURLSignature(args[2].AsString(), resource, canonicalQuery(pairs))
	q := canonicalQuery(append(pairs, queryPair{o.sigParam, sig}))
	if q == "" {
		return harn.Str(prefix), nil
	}
	return harn.Str(prefix + "?" + q), nil
}

func verifySignedURL(c *harn.Call, args []harn.Value) (harn.Value, error) {
	const fn = "verify_signed_url"
	if len(args) < 3 || len(args) > 4 {
		return harn.Nil, harn.Errorf("%s", fn+": requires 3 or 4 arguments: url, secret_or_keys, now, options?")
	}
	o, err := parseSignedURLOpts(harn.Arg(args, 3), fn)
	if err != nil {
		return harn.Nil, err
	}
	if args[0].Kind() != harn.KindString {
		return harn.Nil, harn.Errorf("%s", fmt.Sprintf("%s: url must be a string, got %s", fn, args[0].TypeName()))
	}
	if args[2].Kind() != harn.KindInt {
		return harn.Nil, harn.Errorf("%s", fmt.Sprintf("%s: now must be an int, got %s", fn, args[2].TypeName()))
	}
	now := args[2].AsInt()
	resource, _, pairs, err := signedURLParts(args[0].AsString(), fn)
	if err != nil {
		return harn.Nil, err
	}
	result := func(valid bool, reason string, sigOK, expired bool, exp *int64, kid *string, claims *harn.Dict) harn.Value {
		d := harn.NewDict(7)
		d.Set("valid", harn.Bool(valid))
		d.Set("reason", harn.Str(reason))
		d.Set("signature_valid", harn.Bool(sigOK))
		d.Set("expired", harn.Bool(expired))
		d.Set("expires_at", harn.Nil)
		if exp != nil {
			d.Set("expires_at", harn.Int(*exp))
		}
		d.Set("kid", harn.Nil)
		if kid != nil {
			d.Set("kid", harn.Str(*kid))
		}
		if claims == nil {
			claims = harn.NewDict(0)
		}
		d.Set("claims", harn.DictValue(claims))
		return harn.DictValue(d)
	}
	values := func(key string) []string {
		var out []string
		for _, p := range pairs {
			if p.key == key {
				out = append(out, p.value)
			}
		}
		return out
	}
	sigs := values(o.sigParam)
	if len(sigs) != 1 {
		return result(false, "missing_signature", false, false, nil, nil, nil), nil
	}
	exps := values(o.expParam)
	if len(exps) != 1 {
		return result(false, "missing_expiry", false, false, nil, nil, nil), nil
	}
	exp, perr := strconv.ParseInt(exps[0], 10, 64)
	if perr != nil {
		return result(false, "invalid_expiry", false, false, nil, nil, nil), nil
	}
	kids := values(o.kidParam)
	if len(kids) > 1 {
		return result(false, "duplicate_kid", false, false, &exp, nil, nil), nil
	}
	var kid *string
	if len(kids) == 1 {
		kid = &kids[0]
	}
	claims := harn.NewDict(len(pairs))
	var unsigned []queryPair
	for _, p := range pairs {
		if !o.reserved(p.key) {
			claims.Set(p.key, harn.Str(p.value))
		}
		if p.key != o.sigParam {
			unsigned = append(unsigned, p)
		}
	}
	var secret string
	switch keys := args[1]; keys.Kind() {
	case harn.KindString:
		secret = keys.AsString()
	case harn.KindDict:
		var v harn.Value
		ok := false
		if kid != nil {
			v, ok = keys.AsDict().Get(*kid)
		}
		if !ok {
			return result(false, "unknown_key", false, false, &exp, kid, claims), nil
		}
		secret = harn.Display(v)
	default:
		return harn.Nil, harn.Errorf("%s", fmt.Sprintf("%s: secret_or_keys must be a string or dict, got %s", fn, keys.TypeName()))
	}
	want := signedURLSignature(secret, resource, canonicalQuery(unsigned))
	sigOK := subtle.ConstantTimeCompare([]byte(sigs[0]), []byte(want)) == 1
	expired := now > exp+o.skew
	reason := "ok"
	switch {
	case !sigOK:
		reason = "bad_signature"
	case expired:
		reason = "expired"
	}
	return result(sigOK && !expired, reason, sigOK, expired, &exp, kid, claims), nil
}
