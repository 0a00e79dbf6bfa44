package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/internal/version"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/wire"
)

// Name is the server's name in initialize results and logs.
const Name = "leia-lsp"

// DefaultDebounce is how long the server waits after the last change of a
// document before analysing it.
const DefaultDebounce = 75 * time.Millisecond

// Options configure a Server.
type Options struct {
	// Logger receives the server's log; nil discards it. It must never
	// write to the protocol's output stream.
	Logger *log.Logger
	// Debounce is the delay between a document's last change and its
	// analysis; 0 means DefaultDebounce, a negative value no delay.
	Debounce time.Duration
	// ExplainHref returns the codeDescription href for a diagnostic code,
	// "" for none. Nil links nothing.
	ExplainHref func(code string) string
}

// ErrNoShutdown is returned by Serve when the client sent exit without
// shutdown, or the input ended first; the process should exit with status 1.
var ErrNoShutdown = errors.New("connection ended without a shutdown request")

// Server is one language server session.
type Server struct {
	opts    Options
	log     *log.Logger
	store   *cache.Store
	handler *protocol.Handler
	diags   *publisher
	tokens  tokenResults

	mu           sync.Mutex
	conn         *jsonrpc2.Conn
	shutdown     bool
	roots        []string
	capabilities protocol.ClientCapabilities
}

// New returns a server with its handlers installed.
func New(opts Options) *Server {
	if opts.Debounce == 0 {
		opts.Debounce = DefaultDebounce
	}
	logger := opts.Logger
	if logger == nil {
		logger = log.New(io.Discard, "", 0)
	}
	s := &Server{opts: opts, log: logger, store: cache.NewStore()}
	s.diags = newPublisher(s)
	s.handler = &protocol.Handler{
		Initialize:                          s.initialize,
		Initialized:                         s.initialized,
		Shutdown:                            s.shutdownRequest,
		Exit:                                s.exit,
		SetTrace:                            s.setTrace,
		CancelRequest:                       s.cancelRequest,
		TextDocumentDidOpen:                 s.didOpen,
		TextDocumentDidChange:               s.didChange,
		TextDocumentDidClose:                s.didClose,
		TextDocumentDidSave:                 s.didSave,
		TextDocumentCodeAction:              s.codeAction,
		TextDocumentHover:                   s.hover,
		TextDocumentDefinition:              s.definition,
		TextDocumentReferences:              s.references,
		TextDocumentDocumentSymbol:          s.documentSymbol,
		WorkspaceSymbol:                     s.workspaceSymbol,
		TextDocumentSemanticTokensFull:      s.semanticTokensFull,
		TextDocumentSemanticTokensFullDelta: s.semanticTokensDelta,
		TextDocumentFoldingRange:            s.foldingRange,
		TextDocumentCompletion:              s.completion,
		TextDocumentSignatureHelp:           s.signatureHelp,
		TextDocumentPrepareRename:           s.prepareRename,
		TextDocumentRename:                  s.rename,
		TextDocumentFormatting:              s.formatting,
		TextDocumentRangeFormatting:         s.rangeFormatting,
	}
	return s
}

// Serve runs the protocol over in and out until the client sends exit or
// in ends. It returns nil after an orderly shutdown and exit, and
// ErrNoShutdown otherwise.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	stream := wire.NewStream(in, out, nil)
	stream.Logf = s.log.Printf
	conn := jsonrpc2.NewConn(ctx, stream, jsonrpc2.HandlerWithError(s.handle), jsonrpc2.SetLogger(s.log))
	s.mu.Lock()
	s.conn = conn
	s.mu.Unlock()
	s.log.Printf("%s %s serving", Name, version.Version)
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
	}
	s.diags.stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.shutdown {
		return ErrNoShutdown
	}
	return nil
}

// notify sends a notification to the client; errors are logged.
func (s *Server) notify(method string, params any) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn == nil {
		return
	}
	if err := conn.Notify(context.Background(), method, params); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
		s.log.Printf("notify %s: %v", method, err)
	}
}

// Protocol error codes beyond JSON-RPC's.
const (
	codeServerNotInitialized = -32002
	codeRequestFailed        = -32803
)

// handle adapts one JSON-RPC message to glsp's dispatcher, turning its
// outcomes and any panic into JSON-RPC errors.
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("panic in %s: %v\n%s", req.Method, r, debug.Stack())
			result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError,
				Message: fmt.Sprintf("internal error in %s: %v", req.Method, r)}
		}
	}()
	gctx := &glsp.Context{
		Method: req.Method,
		Notify: func(method string, params any) { s.notify(method, params) },
		Call: func(method string, params any, result any) {
			if err := conn.Call(ctx, method, params, result); err != nil {
				s.log.Printf("call %s: %v", method, err)
			}
		},
	}
	if req.Params != nil {
		gctx.Params = *req.Params
	}
	if req.Method == protocol.MethodExit {
		s.exit(gctx)
		conn.Close()
		return nil, nil
	}
	s.mu.Lock()
	down := s.shutdown
	s.mu.Unlock()
	if down {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "server is shut down; only exit is accepted"}
	}
	if !s.handler.IsInitialized() && req.Method != protocol.MethodInitialize {
		if req.Notif {
			s.log.Printf("dropped %s before initialize", req.Method)
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "server not initialized"}
	}
	if req.Method == MethodSyntaxTree && !req.Notif {
		return s.syntaxTree(gctx.Params)
	}
	r, validMethod, validParams, herr := s.handler.Handle(gctx)
	var rpcErr *jsonrpc2.Error
	switch {
	case !validMethod:
		rpcErr = &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	case !validParams:
		msg := "invalid params for " + req.Method
		if herr != nil {
			msg += ": " + herr.Error()
		}
		rpcErr = &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case herr != nil:
		if !errors.As(herr, &rpcErr) {
			rpcErr = &jsonrpc2.Error{Code: codeRequestFailed, Message: herr.Error()}
		}
	default:
		return r, nil
	}
	if req.Notif {
		// Notifications get no response; the log is where they fail.
		s.log.Printf("notification %s: %s", req.Method, rpcErr.Message)
		return nil, nil
	}
	return nil, rpcErr
}

// invalidParams is the error a handler returns for a request it cannot
// answer because of its arguments (e.g. a position past the end).
func invalidParams(format string, args ...any) error {
	return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}
