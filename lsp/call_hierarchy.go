package lsp

import (
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/lsp/features"
)

// callItem converts a callable of the request's document.
func callItem(r *request, c features.Callable) protocol.CallHierarchyItem {
	return protocol.CallHierarchyItem{Name: c.Name, Kind: protocol.SymbolKind(c.Kind), URI: r.doc.URI,
		Range: r.m.Range(c.Span), SelectionRange: r.m.Range(c.SelectionSpan)}
}

// prepareCallHierarchy answers textDocument/prepareCallHierarchy from the
// language's features.CallHierarchy (Harn: top-level functions and
// pipelines of the file).
func (s *Server) prepareCallHierarchy(g *glsp.Context, p *protocol.CallHierarchyPrepareParams) ([]protocol.CallHierarchyItem, error) {
	r, off, err := s.at(g, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	ch, ok := r.features.(features.CallHierarchy)
	if !ok || r.doc.Dropped() {
		return nil, nil
	}
	cs, err := ch.PrepareCallHierarchy(r.ctx, r.snap, off)
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	out := []protocol.CallHierarchyItem{}
	for _, c := range cs {
		out = append(out, callItem(r, c))
	}
	return out, nil
}

// callsOf resolves a call hierarchy item back to its document and callable.
func (s *Server) callsOf(g *glsp.Context, item protocol.CallHierarchyItem) (*request, features.CallHierarchy, features.Callable, error) {
	r, err := s.open(g, item.URI)
	if err != nil {
		return nil, nil, features.Callable{}, err
	}
	ch, ok := r.features.(features.CallHierarchy)
	if !ok || r.doc.Dropped() {
		return r, nil, features.Callable{}, nil
	}
	start, err1 := r.m.Offset(item.SelectionRange.Start)
	end, err2 := r.m.Offset(item.SelectionRange.End)
	if err1 != nil || err2 != nil {
		return nil, nil, features.Callable{}, invalidParams("%s: call hierarchy item out of the document", item.URI)
	}
	return r, ch, features.Callable{Name: item.Name, SelectionSpan: diagnostics.Span{Start: start, End: end}}, nil
}

func (s *Server) incomingCalls(g *glsp.Context, p *protocol.CallHierarchyIncomingCallsParams) ([]protocol.CallHierarchyIncomingCall, error) {
	r, ch, c, err := s.callsOf(g, p.Item)
	if err != nil || ch == nil {
		return nil, err
	}
	calls, err := ch.IncomingCalls(r.ctx, r.snap, c)
	if err != nil {
		return nil, err
	}
	out := []protocol.CallHierarchyIncomingCall{}
	for _, k := range calls {
		in := protocol.CallHierarchyIncomingCall{From: callItem(r, k.Other)}
		for _, sp := range k.Spans {
			in.FromRanges = append(in.FromRanges, r.m.Range(sp))
		}
		out = append(out, in)
	}
	return out, nil
}

func (s *Server) outgoingCalls(g *glsp.Context, p *protocol.CallHierarchyOutgoingCallsParams) ([]protocol.CallHierarchyOutgoingCall, error) {
	r, ch, c, err := s.callsOf(g, p.Item)
	if err != nil || ch == nil {
		return nil, err
	}
	calls, err := ch.OutgoingCalls(r.ctx, r.snap, c)
	if err != nil {
		return nil, err
	}
	out := []protocol.CallHierarchyOutgoingCall{}
	for _, k := range calls {
		o := protocol.CallHierarchyOutgoingCall{To: callItem(r, k.Other)}
		for _, sp := range k.Spans {
			o.FromRanges = append(o.FromRanges, r.m.Range(sp))
		}
		out = append(out, o)
	}
	return out, nil
}
