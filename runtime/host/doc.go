// Package host is the one capability layer through which a running program
// (Harn or Leia) touches the operating system: the file system, processes,
// the network, the environment, the clock, randomness and the standard
// streams. Interpreters hold a *Host and call it; they never call os,
// os/exec or net themselves on a program's behalf.
//
// # Least authority
//
// A Host grants, by default:
//
//   - file system reads and writes inside the program's folder
//     (Config.Root) and the temporary directory (Config.TempDir: by
//     default a private one created for the run, removed by Close, and
//     the program's TMPDIR);
//   - reading environment variables (writes go to a private overlay, never
//     to the process), the clock, randomness and the standard streams.
//
// Everything else is denied unless the user grants it (the way Deno does):
//
//	--allow-fs=DIR[,DIR...]    read and write under DIR as well (repeatable;
//	                           bare --allow-fs grants the whole file system)
//	--allow-exec[=NAME,...]    run processes (optionally only these programs)
//	--allow-net[=HOST,...]     open network connections (optionally only to
//	                           these hosts, "host" or "host:port")
//
// A denied call returns a *DeniedError whose message names the flag that
// would grant it; interpreters surface it as a catchable runtime error.
// Grants.Register installs the three flags on a flag.FlagSet, so every
// command that runs programs spells them the same way.
//
// # Paths
//
// A relative path is resolved against the program's folder. A path is
// allowed when its real path (every symbolic link in it resolved, including
// a dangling link in the last element, whose target is resolved by hand) lies
// under the real path of an allowed directory, so a symlink inside the
// program's folder that points outside it is denied like the outside path
// itself. A regular file with more than one hard link is denied unless the
// whole file system or its directory was granted: its other names may lie
// anywhere. The rule is internal/sourcefs's (Inside), which the checker
// applies too. For a path that does not exist yet (a file about to be
// written), the real path of its longest existing ancestor is used. The check and the
// operation are two system calls: a program racing its own symlinks against
// the check is outside this package's threat model (it would already need
// write access inside an allowed directory and a second process).
//
// # Invariants
//
// The package keeps no global state; a Host is safe for concurrent use by
// the goroutines of one program. It knows no language: values, errors and
// display forms belong to the interpreters.
package host
