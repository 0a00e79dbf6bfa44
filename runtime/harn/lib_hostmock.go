package harn

import (
	"sort"
	"strings"
)

// Host operation mocks: host_mock(capability, operation, config | result,
// params) registers an answer for host_call("capability.operation",
// params) — config {result, error, params} or a bare result, matched when
// every given param equals the call's (the latest registration first);
// host_mock_calls lists the calls answered, host_mock_clear forgets both,
// host_mock_push_scope / pop_scope save and restore them, host_has and
// host_capabilities describe the mocked operations. An operation no mock
// answers is not available in this runtime. std/testing wraps these
// (mock_host_result, mock_host_error, mock_host_response, host_calls,
// assert_host_called, ...). std/hitl's requests consult the "hitl"
// capability's mocks for their answers.

type hostMock struct {
	capability, operation string
	params                *Dict
	result                Value
	errText               string
	isErr                 bool
}

type hostCall struct {
	capability, operation string
	params                Value
}

type hostMocks struct {
	mocks  []*hostMock
	calls  []hostCall
	scopes [][2]any
}

func hostMocksOf(c *Call) *hostMocks {
	return c.th.in.State("host.mocks", func() any { return &hostMocks{} }).(*hostMocks)
}

// find is the latest mock for the operation whose params all match.
func (h *hostMocks) find(cap, op string, params *Dict) *hostMock {
	for i := len(h.mocks) - 1; i >= 0; i-- {
		m := h.mocks[i]
		if m.capability != cap || m.operation != op {
			continue
		}
		if m.params != nil {
			ok := true
			for _, k := range m.params.Keys() {
				want, _ := m.params.Get(k)
				got, has := params.Get(k)
				if !has || !valuesEqual(got, want) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
		}
		return m
	}
	return nil
}

// answer records a call and returns its mocked result (found false when
// no mock answers it).
func (h *hostMocks) answer(cap, op string, params *Dict) (Value, bool, error) {
	m := h.find(cap, op, params)
	if m == nil {
		return Nil, false, nil
	}
	h.calls = append(h.calls, hostCall{capability: cap, operation: op, params: DictValue(params)})
	if m.isErr {
		return Nil, true, throwValue(Str(m.errText))
	}
	return m.result, true, nil
}

func valuesEqual(a, b Value) bool {
	return Display(a) == Display(b) && a.k == b.k
}

func installHostmock(lib *Library) {
	lib.Builtin("host_mock", func(c *Call, args []Value) (Value, error) {
		cap, op := Display(Arg(args, 0)), Display(Arg(args, 1))
		if cap == "" || op == "" || Arg(args, 0).k == KindNil || Arg(args, 1).k == KindNil {
			return Nil, throwValue(Str("host_mock: capability and operation are required"))
		}
		m := &hostMock{capability: cap, operation: op, result: Arg(args, 2)}
		if p := Arg(args, 3); p.k == KindDict {
			m.params = p.AsDict()
		}
		if cfg := Arg(args, 2); cfg.k == KindDict {
			d := cfg.AsDict()
			if d.Has("result") || d.Has("params") || d.Has("error") {
				m.result, _ = d.Get("result")
				m.params = nil
				if p, ok := d.Get("params"); ok && p.k == KindDict {
					m.params = p.AsDict()
				}
				if e, ok := d.Get("error"); ok && e.k != KindNil {
					m.isErr, m.errText = true, Display(e)
				}
			}
		}
		hm := hostMocksOf(c)
		hm.mocks = append(hm.mocks, m)
		return Nil, nil
	})
	lib.Builtin("host_mock_clear", func(c *Call, args []Value) (Value, error) {
		hm := hostMocksOf(c)
		hm.mocks, hm.calls = nil, nil
		return Nil, nil
	})
	lib.Builtin("host_mock_calls", func(c *Call, args []Value) (Value, error) {
		hm := hostMocksOf(c)
		out := make([]Value, len(hm.calls))
		for i, k := range hm.calls {
			out[i] = goValue(map[string]any{"capability": k.capability, "operation": k.operation, "params": k.params})
		}
		return NewListValue(out), nil
	})
	lib.Builtin("host_mock_push_scope", func(c *Call, args []Value) (Value, error) {
		hm := hostMocksOf(c)
		hm.scopes = append(hm.scopes, [2]any{hm.mocks, hm.calls})
		hm.mocks, hm.calls = nil, nil
		return Nil, nil
	})
	lib.Builtin("host_mock_pop_scope", func(c *Call, args []Value) (Value, error) {
		hm := hostMocksOf(c)
		if len(hm.scopes) == 0 {
			return Nil, throwValue(Str("host_mock_pop_scope: no scope to pop"))
		}
		s := hm.scopes[len(hm.scopes)-1]
		hm.scopes = hm.scopes[:len(hm.scopes)-1]
		hm.mocks, _ = s[0].([]*hostMock)
		hm.calls, _ = s[1].([]hostCall)
		return Nil, nil
	})
	lib.Builtin("host_capabilities", func(c *Call, args []Value) (Value, error) {
		return goValue(hostMocksOf(c).manifest()), nil
	})
	lib.Builtin("host_has", func(c *Call, args []Value) (Value, error) {
		m := hostMocksOf(c).manifest()
		cap, ok := m[Display(Arg(args, 0))].(map[string]any)
		if !ok {
			return False, nil
		}
		if op := Arg(args, 1); op.k != KindNil {
			_, has := cap["operations"].(map[string]any)[Display(op)]
			return Bool(has), nil
		}
		return True, nil
	})
	lib.Builtin("host_call", func(c *Call, args []Value) (Value, error) {
		params := NewDict(0)
		if p := Arg(args, 1); p.k == KindDict {
			params = p.AsDict()
		}
		return answerHostCall(c, Display(Arg(args, 0)), params)
	})
}

// manifest describes the capabilities and operations host_call answers:
// the built-in ones (hostOps) and the mocked ones.
func (h *hostMocks) manifest() map[string]any {
	out := map[string]any{}
	builtin := make([]string, 0, len(hostOps))
	for name := range hostOps {
		builtin = append(builtin, name)
	}
	sort.Strings(builtin)
	for _, name := range builtin {
		capName, op, _ := strings.Cut(name, ".")
		cap, ok := out[capName].(map[string]any)
		if !ok {
			cap = map[string]any{"description": "Host capability " + capName + " of this runtime.", "operations": map[string]any{}, "ops": []any{}}
			out[capName] = cap
		}
		cap["operations"].(map[string]any)[op] = map[string]any{"description": "Host operation " + name + " of this runtime."}
		cap["ops"] = append(cap["ops"].([]any), op)
	}
	for _, m := range h.mocks {
		cap, ok := out[m.capability].(map[string]any)
		if !ok {
			cap = map[string]any{"description": "Mocked host capability " + m.capability + ".", "operations": map[string]any{}, "ops": []any{}}
			out[m.capability] = cap
		}
		ops := cap["operations"].(map[string]any)
		if _, seen := ops[m.operation]; !seen {
			ops[m.operation] = map[string]any{"description": "Mocked host operation " + m.capability + "." + m.operation + "."}
			cap["ops"] = append(cap["ops"].([]any), m.operation)
		}
	}
	return out
}
