// Package encoding holds Harn's text-encoding and byte-string builtins
// (base64, base32, hex, URL encoding, hashes, HMAC and byte
// comparison).
package encoding

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the encoding family of builtins, listed by runtime/harn/lib.
var Family = harn.Family{Name: "encoding", Install: install}
