package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/harnlang/harn-check/runtime/redact"
	"github.com/harnlang/harn-check/runtime/runner"
)

// llmFlags are the model-call modes of a program (Harn and Leia), as upstream's
// runners spell them: the built-in mock, strict replay of a
// .records.json fixture, or recording one from the live providers; and a
// metadata-only trace file.
type llmFlags struct {
	// mock is --llm-mock: alone (or =true) the built-in mock; with a
	// .jsonl tape, upstream's `harn run --llm-mock tape.jsonl`, which
	// replays the tape (as --llm-mock-replay).
	mock           optionalString
	replay, record string
	// mockRecord is upstream Harn's --llm-mock-record: record like
	// --llm-record, written as an .llm-mock.jsonl script.
	mockRecord string
	trace      string
	traceFile  *os.File
}

func (l *llmFlags) register(fs *flagSet) {
	l.mock.takes = func(next string) bool { return strings.HasSuffix(next, ".jsonl") }
	fs.Var(&l.mock, "llm-mock", "answer the program's model turns with the built-in mock provider; --llm-mock TAPE.jsonl replays an .llm-mock.jsonl `tape` (upstream's form, as --llm-mock-replay)")
	fs.StringVar(&l.replay, "llm-replay", "", "answer model turns from this .records.json `fixture` (strict: a different, extra or missing turn fails)")
	fs.StringVar(&l.record, "llm-record", "", "call the live providers (needs --allow-net) and write the turns to this .records.json `fixture`")
	fs.StringVar(&l.mockRecord, "llm-mock-record", "", "call the providers (live ones need --allow-net) and write the answers, in order, to this .llm-mock.jsonl `tape` (upstream's form), which --llm-mock replays")
	fs.StringVar(&l.trace, "llm-trace", "", "write the run's trace events (metadata only: no prompt, completion or key) as JSON lines to this `file`")
}

// config checks the flags (the modes exclude each other; a replayed
// fixture must exist) and opens the trace file.
func (l *llmFlags) config() (runner.LLMConfig, error) {
	var c runner.LLMConfig
	n := 0
	if l.mock.Given {
		switch v := l.mock.Value; v {
		case "", "true":
			n++
			c.Mode = runner.LLMMock
		case "false":
		default:
			if !strings.HasSuffix(v, ".jsonl") {
				return c, fmt.Errorf("--llm-mock=%s: want true, false or an .llm-mock.jsonl tape", v)
			}
		}
	}
	if l.replay != "" {
		n++
		c.Mode, c.Fixture = runner.LLMReplay, l.replay
		if _, err := os.Stat(l.replay); err != nil {
			return c, fmt.Errorf("--llm-replay %s: %v", l.replay, unwrapPath(err))
		}
	}
	if l.record != "" {
		n++
		c.Mode, c.Fixture = runner.LLMRecord, l.record
	}
	if l.mockRecord != "" {
		n++
		c.Mode, c.Fixture = runner.LLMRecord, l.mockRecord
		if !strings.HasSuffix(l.mockRecord, ".jsonl") {
			return c, fmt.Errorf("--llm-mock-record %s: want an .llm-mock.jsonl tape", l.mockRecord)
		}
	}
	if l.record != "" && strings.HasSuffix(l.record, ".jsonl") {
		return c, fmt.Errorf("--llm-record %s: a .records.json fixture (--llm-mock-record writes .llm-mock.jsonl tapes)", l.record)
	}
	if n > 1 {
		return c, errors.New("--llm-mock, --llm-replay, --llm-record and --llm-mock-record exclude each other")
	}
	if l.trace != "" {
		f, err := os.Create(l.trace)
		if err != nil {
			return c, fmt.Errorf("--llm-trace %s: %v", l.trace, unwrapPath(err))
		}
		l.traceFile = f
		c.Trace = redact.Writer(f)
	}
	return c, nil
}

// tape is the .llm-mock.jsonl tape --llm-mock was given, or "".
func (l *llmFlags) tape() string {
	if v := l.mock.Value; strings.HasSuffix(v, ".jsonl") {
		return v
	}
	return ""
}

// close closes the trace file.
func (l *llmFlags) close() error {
	if l.traceFile == nil {
		return nil
	}
	return l.traceFile.Close()
}
