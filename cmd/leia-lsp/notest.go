//go:build !leialsptest

package main

import (
	"log"

	"github.com/harnlang/harn-check/language"
)

// testLanguages is empty in a normal build; see testlang.go.
func testLanguages(*log.Logger) []language.Language { return nil }
