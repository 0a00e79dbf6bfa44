// Command luarun runs one Lua file on github.com/yuin/gopher-lua v1.1.2:
// the reference side of the whole-process benchmarks (bench_process_test.go).
// It opens the standard libraries with gopher-lua's default options, as
// its own glua does; -callstack N gives a call stack N frames deep (and a
// registry that may grow) for the recursion workloads.
package main

import (
	"flag"
	"fmt"
	"os"

	lua "github.com/yuin/gopher-lua"
)

func main() {
	callStack := flag.Int("callstack", 0, "call stack size in frames (0: gopher-lua's default)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: luarun [-callstack N] FILE.lua")
		os.Exit(2)
	}
	var opts lua.Options
	if *callStack > 0 {
		opts = lua.Options{CallStackSize: *callStack, RegistrySize: 256 * 1024, RegistryMaxSize: 4 * 1024 * 1024}
	}
	L := lua.NewState(opts)
	defer L.Close()
	if err := L.DoFile(flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
