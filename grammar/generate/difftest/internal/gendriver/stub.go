//go:build !harn_gen

// Command gendriver runs our generator on a grammar.json for the difftest
// tests. Without -tags harn_gen it is this stub, so that the repository
// builds while grammar/generate does not exist yet.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "gendriver: built without -tags harn_gen; the difftest tests build it with the tag")
	os.Exit(2)
}
