// Package crypto holds Harn's signature and key builtins: BLAKE3,
// Ed25519 and X25519 keys, JWT signing (ES256, RS256) and HMAC-signed
// URLs with expiry and key ids.
package crypto

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the crypto family of builtins, listed by runtime/harn/lib.
var Family = harn.Family{Name: "crypto", Install: install}
