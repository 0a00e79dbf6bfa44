// Command luarun runs one Lua file on github.com/yuin/gopher-lua v1.1.2:
// the reference side of the whole-process benchmarks (bench_process_test.go).
// It opens the standard libraries as gopher-lua's own glua does, with a call
// stack deep enough for the recursion workloads.
package main

import (
	"fmt"
	"os"

	lua "github.com/yuin/gopher-lua"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: luarun FILE.lua")
		os.Exit(2)
	}
	L := lua.NewState(lua.Options{CallStackSize: 200000, RegistrySize: 256 * 1024, RegistryMaxSize: 4 * 1024 * 1024})
	defer L.Close()
	if err := L.DoFile(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
