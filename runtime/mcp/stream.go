package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// lineStream is a jsonrpc2.ObjectStream over MCP's stdio framing: one
// JSON message a line. Lines that are not a JSON-RPC message (blank
// lines, a server's log output on the wrong stream) are skipped, as the
// protocol's clients do; a line longer than the limit ends the stream.
type lineStream struct {
	r      *lineReader
	w      io.Writer
	closer io.Closer
	wmu    sync.Mutex
}

func (s *lineStream) WriteObject(obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err = s.w.Write(data)
	return err
}

func (s *lineStream) ReadObject(v any) error {
	for {
		line, err := s.r.next()
		if err != nil {
			return err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		if json.Unmarshal(line, v) == nil {
			return nil
		}
	}
}

func (s *lineStream) Close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

// errLineTooLong ends a stream whose peer sent a line over the limit.
var errLineTooLong = errors.New("MCP: message longer than the limit")

// lineReader reads lines of at most max bytes.
type lineReader struct {
	br  *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

func (l *lineReader) next() ([]byte, error) {
	var line []byte
	for {
		chunk, err := l.br.ReadSlice('\n')
		if len(line)+len(chunk) > l.max {
			return nil, fmt.Errorf("%w (%d bytes)", errLineTooLong, l.max)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}
