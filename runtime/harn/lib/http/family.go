// Package http holds Harn's web-format builtins: cookies (parse,
// serialize, signing, sessions) and multipart bodies; the HTTP client,
// server and URL builtins are still in runtime/harn.
package http

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the family of the HTTP category's web formats, listed by
// runtime/harn/lib.
var Family = harn.Family{Name: "http formats", Install: install}

func install(lib *harn.Library) {
	installCookies(lib)
	installMultipart(lib)
}
