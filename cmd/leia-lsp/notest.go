//go:build !leialsptest

package main

import "log"

// registerTestLanguage does nothing in a normal build; see testlang.go.
func registerTestLanguage(*log.Logger) {}
