package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/format"
	"github.com/harnlang/harn-check/internal/limits"
	"github.com/harnlang/harn-check/internal/version"
	"github.com/harnlang/harn-check/language"
	"github.com/harnlang/harn-check/lsp/cache"
	"github.com/harnlang/harn-check/lsp/features"
	"github.com/harnlang/harn-check/lsp/wire"
	"github.com/harnlang/harn-check/manifest/checkcache"
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
	// Languages are the languages the server serves, by extension: each
	// one's check gives a document's diagnostics, and its editor facet,
	// when it has one, the tree and the editor features.
	Languages []language.Language
	// Limits bound what documents are parsed and analysed (zero fields:
	// the defaults). The client may raise them with initializationOptions
	// {"maxFileSize": "8MiB", "maxNesting": 10000, ...}, one key per
	// limit (see limits.Limits; sizes as numbers of bytes or with a unit).
	Limits limits.Limits
	// CheckCache, when set, is the check-result cache workspace/diagnostic
	// checks the files not open through (harn-check's cache: a file
	// unchanged since is not checked again); nil checks them uncached.
	CheckCache *checkcache.Cache
}

// ErrNoShutdown is returned by Serve when the client sent exit without
// shutdown, or the input ended first; the process should exit with status 1.
var ErrNoShutdown = errors.New("connection ended without a shutdown request")

// Server is one language server session.
type Server struct {
	opts  Options
	log   *log.Logger
	store *cache.Store
	// features are the languages' editor features, by extension.
	features map[string]features.Features
	// formats are the languages' formatters, by extension.
	formats map[string]*format.Language
	handler *protocol.Handler
	diags   *publisher
	tokens  tokenResults
	// completions are the documents' last completion replies, encoded.
	completions completionReplies
	// resolvable are the last completion lists the client may resolve
	// items of.
	resolvable resolvableLists

	mu           sync.Mutex
	conn         *jsonrpc2.Conn
	stream       *wire.Stream
	shutdown     bool
	roots        []string
	capabilities protocol.ClientCapabilities
	// completionClient is what the client does with completion items.
	completionClient completionClient

	// life is cancelled when the client's stream ends: every request and
	// analysis still running stops.
	life     context.Context
	stopLife context.CancelFunc
	// reqMu guards running (the cancel functions of requests being
	// answered, by JSON id) and states (each request's context and
	// document snapshot, by its glsp context).
	reqMu   sync.Mutex
	running map[string]context.CancelFunc
	states  map[*glsp.Context]*reqState
	// slots bounds the requests answered at once.
	slots chan struct{}
}

// reqState is what a request handler reads besides its params: its
// context (cancelled by $/cancelRequest or when the client goes away) and
// the open documents as they were when the request arrived.
type reqState struct {
	ctx  context.Context
	docs map[string]*cache.Document
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
	langs, feats := language.Editors(opts.Languages, func(l language.Language, err error) {
		logger.Printf("%s editor features unavailable: %v", l.Name, err)
	})
	s := &Server{opts: opts, log: logger, store: cache.NewStore(langs), features: feats, formats: language.Formatters(opts.Languages),
		running: map[string]context.CancelFunc{}, states: map[*glsp.Context]*reqState{},
		slots: make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))}
	s.life, s.stopLife = context.WithCancel(context.Background())
	s.store.Limits = opts.Limits.Resolved()
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
		CompletionItemResolve:               s.completionItemResolve,
		TextDocumentSignatureHelp:           s.signatureHelp,
		TextDocumentPrepareRename:           s.prepareRename,
		TextDocumentRename:                  s.rename,
		TextDocumentFormatting:              s.formatting,
		TextDocumentRangeFormatting:         s.rangeFormatting,
		TextDocumentDocumentHighlight:       s.documentHighlight,
		TextDocumentSelectionRange:          s.selectionRange,
		TextDocumentDocumentLink:            s.documentLink,
		TextDocumentCodeLens:                s.codeLens,
		TextDocumentPrepareCallHierarchy:    s.prepareCallHierarchy,
		CallHierarchyIncomingCalls:          s.incomingCalls,
		CallHierarchyOutgoingCalls:          s.outgoingCalls,
	}
	return s
}

// Serve runs the protocol over in and out until the client sends exit or
// in ends. It returns nil after an orderly shutdown and exit, and
// ErrNoShutdown otherwise. When in ends, every request and analysis still
// running is cancelled: the server never outlives its client.
//
// Notifications (didOpen, didChange, $/cancelRequest, ...) are handled in
// the order they arrive; requests run concurrently, each on a snapshot of
// the open documents taken when it arrived, so that a slow request (a
// hover on a huge file) never holds up the others. $/cancelRequest
// cancels a running request's context; it is answered with
// RequestCancelled (-32800).
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	stream := wire.NewStream(in, out, nil)
	stream.Logf = s.log.Printf
	conn := jsonrpc2.NewConn(ctx, stream, dispatcher{s}, jsonrpc2.SetLogger(s.log))
	s.mu.Lock()
	s.conn, s.stream = conn, stream
	s.mu.Unlock()
	s.log.Printf("%s %s serving", Name, version.Version)
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
	}
	s.stopLife()
	s.diags.stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.shutdown {
		return ErrNoShutdown
	}
	return nil
}

// dispatcher routes messages: notifications and the lifecycle requests in
// order, other requests on their own goroutines.
type dispatcher struct{ s *Server }

// inOrder are the requests answered before the next message is read.
var inOrder = map[string]bool{protocol.MethodInitialize: true, protocol.MethodShutdown: true, protocol.MethodExit: true}

// Protocol error code of a cancelled request.
const codeRequestCancelled = -32800

func (h dispatcher) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	s := h.s
	if req.Notif {
		if req.Method == protocol.MethodCancelRequest {
			s.cancel(req.Params)
			return
		}
		s.handle(s.life, conn, req, nil)
		return
	}
	if inOrder[req.Method] {
		result, err := s.handle(s.life, conn, req, nil)
		s.reply(conn, req, result, err)
		return
	}
	rctx, cancel := context.WithCancel(s.life)
	id := req.ID.String()
	s.reqMu.Lock()
	s.running[id] = cancel
	s.reqMu.Unlock()
	docs := s.store.Snapshot()
	go func() {
		defer func() {
			s.reqMu.Lock()
			delete(s.running, id)
			s.reqMu.Unlock()
			cancel()
		}()
		select {
		case s.slots <- struct{}{}:
			defer func() { <-s.slots }()
		case <-rctx.Done():
		}
		var result any
		var err error
		if rctx.Err() == nil {
			result, err = s.handle(rctx, conn, req, docs)
		}
		if rctx.Err() != nil {
			result, err = nil, &jsonrpc2.Error{Code: codeRequestCancelled, Message: "request cancelled"}
		}
		s.reply(conn, req, result, err)
	}()
}

// reply answers a request; a client that went away is no error. A result
// of type json.RawMessage is one a handler encoded with encoding/json (a
// completion list): it is written as it is (wire.Stream.WriteResult).
func (s *Server) reply(conn *jsonrpc2.Conn, req *jsonrpc2.Request, result any, err error) {
	var rerr error
	s.mu.Lock()
	stream := s.stream
	s.mu.Unlock()
	raw, encoded := result.(json.RawMessage)
	if err == nil && encoded && stream != nil {
		select {
		case <-conn.DisconnectNotify():
			return
		default:
		}
		id, err := req.ID.MarshalJSON()
		if err == nil {
			err = stream.WriteResult(id, raw)
		}
		if err != nil {
			s.log.Printf("reply to %s: %v", req.Method, err)
		}
		return
	}
	if err != nil {
		var je *jsonrpc2.Error
		if !errors.As(err, &je) {
			je = &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
		}
		rerr = conn.ReplyWithError(context.Background(), req.ID, je)
	} else {
		rerr = conn.Reply(context.Background(), req.ID, result)
	}
	if rerr != nil && !errors.Is(rerr, jsonrpc2.ErrClosed) {
		s.log.Printf("reply to %s: %v", req.Method, rerr)
	}
}

// cancel handles $/cancelRequest: the request's context is cancelled; it
// answers with RequestCancelled as soon as its handler returns.
func (s *Server) cancel(params *json.RawMessage) {
	if params == nil {
		return
	}
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(*params, &p) != nil || p.ID == nil {
		return
	}
	var id jsonrpc2.ID
	if err := json.Unmarshal(p.ID, &id); err != nil {
		return
	}
	s.reqMu.Lock()
	cancel := s.running[id.String()]
	s.reqMu.Unlock()
	if cancel != nil {
		s.log.Printf("cancelled request %s", id.String())
		cancel()
	}
}

// state returns a request's context and document snapshot; a handler run
// outside a request (tests, notifications) sees the live store.
func (s *Server) state(g *glsp.Context) *reqState {
	s.reqMu.Lock()
	defer s.reqMu.Unlock()
	if st := s.states[g]; st != nil {
		return st
	}
	return &reqState{ctx: s.life}
}

// document returns the open document uri as the request sees it.
func (s *Server) document(g *glsp.Context, uri string) *cache.Document {
	if st := s.state(g); st.docs != nil {
		return st.docs[uri]
	}
	return s.store.Get(uri)
}

// notify sends a notification to the client; errors are logged.
func (s *Server) notify(method string, params any) {
	s.mu.Lock()
	conn, stream := s.conn, s.stream
	s.mu.Unlock()
	if conn == nil {
		return
	}
	if stream != nil {
		// Encoded once and written as it is (wire.Stream.WriteNotification):
		// jsonrpc2 would compact the params twice more.
		select {
		case <-conn.DisconnectNotify():
			return
		default:
		}
		raw, err := json.Marshal(params)
		if err == nil {
			err = stream.WriteNotification(method, raw)
		}
		if err != nil {
			s.log.Printf("notify %s: %v", method, err)
		}
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
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request, docs map[string]*cache.Document) (result any, err error) {
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
	s.reqMu.Lock()
	s.states[gctx] = &reqState{ctx: ctx, docs: docs}
	s.reqMu.Unlock()
	defer func() {
		s.reqMu.Lock()
		delete(s.states, gctx)
		s.reqMu.Unlock()
	}()
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
		return s.syntaxTree(gctx)
	}
	if req.Method == MethodDiagnostic && !req.Notif {
		return s.pullDiagnostics(gctx)
	}
	if req.Method == MethodWorkspaceDiagnostic && !req.Notif {
		return s.workspaceDiagnostics(gctx)
	}
	if req.Method == MethodInlayHint && !req.Notif {
		return s.inlayHints(gctx)
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

// featuresOf returns the editor features of the language with extension
// ext, or Unimplemented.
func (s *Server) featuresOf(ext string) features.Features {
	if f, ok := s.features[ext]; ok {
		return f
	}
	return features.Unimplemented{}
}
