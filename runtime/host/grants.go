package host

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
)

// Grants are the capabilities a user gave a program beyond the defaults.
type Grants struct {
	// FS lists extra directories the program may read and write under.
	FS []string
	// AllFS grants the whole file system (bare --allow-fs).
	AllFS bool
	// Exec allows running any process (bare --allow-exec); ExecNames
	// allows only programs with these names (compared with the base name
	// of the program run, or its full path when a path was given).
	Exec      bool
	ExecNames []string
	// Net allows any network connection (bare --allow-net); NetHosts
	// allows only these hosts ("example.com" any port, "example.com:443"
	// one port).
	Net      bool
	NetHosts []string
}

// Register installs --allow-fs, --allow-exec and --allow-net on fs. Paths
// given to --allow-fs are made absolute against the working directory at
// parse time. Each flag may be repeated and takes a comma-separated list;
// --allow-exec and --allow-net alone grant without restriction, and
// --allow-fs alone grants the whole file system.
func (g *Grants) Register(fs *flag.FlagSet) {
	fs.Var(&fsFlag{g}, "allow-fs", "also allow file access under `DIR` (comma-separated, repeatable; alone: everywhere)")
	fs.Var(&listFlag{on: &g.Exec, list: &g.ExecNames, what: "program"}, "allow-exec", "allow running processes (=NAME,... only these programs)")
	fs.Var(&listFlag{on: &g.Net, list: &g.NetHosts, what: "host"}, "allow-net", "allow network connections (=HOST[:PORT],... only these hosts)")
}

// Args renders the grants back as command-line flags, for messages and for
// re-running a program in a child process.
func (g Grants) Args() []string {
	var out []string
	if g.AllFS {
		out = append(out, "--allow-fs")
	}
	for _, d := range g.FS {
		out = append(out, "--allow-fs="+d)
	}
	if g.Exec {
		out = append(out, "--allow-exec")
	} else if len(g.ExecNames) > 0 {
		out = append(out, "--allow-exec="+strings.Join(g.ExecNames, ","))
	}
	if g.Net {
		out = append(out, "--allow-net")
	} else if len(g.NetHosts) > 0 {
		out = append(out, "--allow-net="+strings.Join(g.NetHosts, ","))
	}
	return out
}

// fsFlag is --allow-fs.
type fsFlag struct{ g *Grants }

func (f *fsFlag) String() string {
	if f == nil || f.g == nil {
		return ""
	}
	return strings.Join(f.g.FS, ",")
}

func (f *fsFlag) IsBoolFlag() bool { return true }

func (f *fsFlag) Set(v string) error {
	if v == "true" {
		f.g.AllFS = true
		return nil
	}
	if v == "false" {
		return fmt.Errorf("--allow-fs takes a directory (or nothing, for the whole file system)")
	}
	for _, d := range strings.Split(v, ",") {
		d = strings.TrimSpace(d)
		if d == "" {
			return fmt.Errorf("--allow-fs: empty directory in %q", v)
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return fmt.Errorf("--allow-fs: %s: %v", d, err)
		}
		f.g.FS = append(f.g.FS, abs)
	}
	return nil
}

// listFlag is a flag that grants alone or restricts to a list.
type listFlag struct {
	on   *bool
	list *[]string
	what string
}

func (f *listFlag) String() string {
	if f == nil || f.list == nil {
		return ""
	}
	return strings.Join(*f.list, ",")
}

func (f *listFlag) IsBoolFlag() bool { return true }

func (f *listFlag) Set(v string) error {
	switch v {
	case "true":
		*f.on = true
		return nil
	case "false":
		return fmt.Errorf("takes a %s list (or nothing, to allow any)", f.what)
	}
	for _, n := range strings.Split(v, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			return fmt.Errorf("empty %s name in %q", f.what, v)
		}
		*f.list = append(*f.list, n)
	}
	return nil
}
