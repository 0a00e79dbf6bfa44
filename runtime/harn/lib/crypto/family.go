// Package crypto holds Harn's hashing, signature and key builtins
// (HMAC, JWT signing, AWS SigV4, Ed25519 and RSA keys).
package crypto

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the crypto family of builtins, listed by runtime/harn/lib.
var Family = harn.Family{Name: "crypto", Install: install}
