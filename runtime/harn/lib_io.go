package harn

import (
	"io"
	"os"
	"strings"
	"sync"

	"golang.org/x/term"
)

// Standard streams for tests: mock_stdin feeds read_line and read_stdin
// from a string, capture_stderr_start/take collect what eprint and
// eprintln write, and mock_tty overrides what is_stdin_tty,
// is_stdout_tty and is_stderr_tty report. The state belongs to one run.

type ioState struct {
	mu        sync.Mutex
	stdin     *string  // a bulk mock not yet split into lines
	lines     []string // the line queue once read_line split the mock
	queued    bool     // lines is in use (even when empty)
	capturing bool
	stderr    strings.Builder
	tty       map[string]bool
}

func ioOf(c *Call) *ioState {
	return c.th.in.State("io", func() any { return &ioState{tty: map[string]bool{}} }).(*ioState)
}

// writeStderr is where eprint and eprintln write: the capture buffer
// while capturing, else the host's standard error.
func writeStderr(c *Call, s string) error {
	st := ioOf(c)
	st.mu.Lock()
	if st.capturing {
		st.stderr.WriteString(s)
		st.mu.Unlock()
		return nil
	}
	st.mu.Unlock()
	return c.th.in.host.WriteStderr(s)
}

// mockedStdinAll takes the whole stdin mock, if one is set; later
// read_line calls then see an empty stream.
func mockedStdinAll(c *Call) (string, bool) {
	st := ioOf(c)
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.stdin == nil {
		return "", false
	}
	s := *st.stdin
	st.stdin, st.lines, st.queued = nil, nil, true
	return s, true
}

func isTTY(c *Call, stream string) bool {
	st := ioOf(c)
	st.mu.Lock()
	v, ok := st.tty[stream]
	st.mu.Unlock()
	if ok {
		return v
	}
	var f any
	switch stream {
	case "stdin":
		f = c.th.in.host.Stdin()
	case "stdout":
		f = c.th.in.host.Stdout()
	case "stderr":
		f = c.th.in.host.Stderr()
	}
	if file, ok := f.(*os.File); ok {
		return term.IsTerminal(int(file.Fd()))
	}
	return false
}

func installIo(lib *Library) {
	lib.Builtin("read_line", func(c *Call, args []Value) (Value, error) {
		st := ioOf(c)
		st.mu.Lock()
		if st.stdin != nil {
			lines := strings.Split(*st.stdin, "\n")
			if lines[len(lines)-1] == "" {
				lines = lines[:len(lines)-1]
			}
			st.stdin, st.lines, st.queued = nil, lines, true
		}
		if st.queued {
			defer st.mu.Unlock()
			if len(st.lines) == 0 {
				return Nil, nil
			}
			line := st.lines[0]
			st.lines = st.lines[1:]
			return Str(line), nil
		}
		st.mu.Unlock()
		var line []byte
		var err error
		c.Block(func() { line, err = readLine(c.th.in.host.Stdin()) })
		if len(line) == 0 && err != nil {
			return Nil, nil
		}
		return Str(strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")), nil
	})
	lib.Builtin("mock_stdin", func(c *Call, args []Value) (Value, error) {
		st := ioOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		s := Display(Arg(args, 0))
		st.stdin, st.lines, st.queued = &s, nil, false
		return Nil, nil
	})
	lib.Builtin("unmock_stdin", func(c *Call, args []Value) (Value, error) {
		st := ioOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		st.stdin, st.lines, st.queued = nil, nil, false
		return Nil, nil
	})
	lib.Builtin("capture_stderr_start", func(c *Call, args []Value) (Value, error) {
		st := ioOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		st.capturing = true
		st.stderr.Reset()
		return Nil, nil
	})
	lib.Builtin("capture_stderr_take", func(c *Call, args []Value) (Value, error) {
		st := ioOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		s := st.stderr.String()
		st.stderr.Reset()
		st.capturing = false
		return Str(s), nil
	})
	lib.Builtin("mock_tty", func(c *Call, args []Value) (Value, error) {
		stream := Display(Arg(args, 0))
		switch stream {
		case "stdin", "stdout", "stderr":
		default:
			return Nil, throwValue(Str("mock_tty: invalid stream '" + stream + "'. Expected 'stdin', 'stdout', or 'stderr'."))
		}
		st := ioOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		v := Arg(args, 1)
		st.tty[stream] = v.k == KindBool && v.AsBool()
		return Nil, nil
	})
	lib.Builtin("unmock_tty", func(c *Call, args []Value) (Value, error) {
		st := ioOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		st.tty = map[string]bool{}
		return Nil, nil
	})
	for _, s := range []string{"stdin", "stdout", "stderr"} {
		lib.Builtin("is_"+s+"_tty", func(c *Call, args []Value) (Value, error) { return Bool(isTTY(c, s)), nil })
	}
}

// readLine reads up to and including the next newline, a byte at a time
// so nothing after it is consumed.
func readLine(r io.Reader) ([]byte, error) {
	var out []byte
	b := make([]byte, 1)
	for {
		n, err := r.Read(b)
		if n == 1 {
			out = append(out, b[0])
			if b[0] == '\n' {
				return out, nil
			}
		}
		if err != nil {
			return out, err
		}
	}
}
