package harn

import "fmt"

// std/testing: host-mock and model-mock helpers for tests, over the
// host_mock_* builtins (lib_hostmock.go) and llm_mock_* builtins. The
// with_* functions run a body in a fresh mock scope and restore the
// outer one afterwards, also when the body throws.

func callBuiltin(c *Call, name string, args ...Value) (Value, error) {
	b, ok := c.th.in.builtin(name)
	if !ok {
		return Nil, plainError(unavailableMessage(name))
	}
	return c.Invoke(Value{k: KindBuiltin, r: b}, args...)
}

// callsFor filters host_mock_calls by capability and operation.
func callsFor(c *Call, cap, op string) []Value {
	var out []Value
	for _, k := range hostMocksOf(c).calls {
		if k.capability == cap && k.operation == op {
			out = append(out, goValue(map[string]any{"capability": k.capability, "operation": k.operation, "params": k.params}))
		}
	}
	return out
}

func paramsSubset(want, got Value) bool {
	if want.k != KindDict {
		return true
	}
	if got.k != KindDict {
		return false
	}
	for _, k := range want.AsDict().Keys() {
		w, _ := want.AsDict().Get(k)
		g, ok := got.AsDict().Get(k)
		if !ok || !valuesEqual(g, w) {
			return false
		}
	}
	return true
}

// scoped runs body between push and pop, popping also when it throws.
func scoped(c *Call, push, pop []string, setup func() error, body Value) (Value, error) {
	for _, p := range push {
		if _, err := callBuiltin(c, p); err != nil {
			return Nil, err
		}
	}
	restore := func() {
		for i := len(pop) - 1; i >= 0; i-- {
			_, _ = callBuiltin(c, pop[i])
		}
	}
	if err := setup(); err != nil {
		restore()
		return Nil, err
	}
	v, err := c.Invoke(body)
	restore()
	return v, err
}

func applyHostEntries(c *Call, fn string, entries Value) error {
	if entries.k != KindList {
		return nil
	}
	for _, e := range entries.AsList().Items() {
		if e.k != KindDict {
			return throwValue(Str(fn + ": each entry must be a dict, got " + e.TypeName()))
		}
		d := e.AsDict()
		cap, _ := d.Get("capability")
		op, _ := d.Get("operation")
		if cap.k == KindNil || op.k == KindNil {
			return throwValue(Str(fn + ": each entry must include 'capability' and 'operation'"))
		}
		params, _ := d.Get("params")
		cfg := NewDict(3)
		if errv, ok := d.Get("error"); ok && errv.k != KindNil {
			cfg.Set("error", errv)
		} else {
			r, _ := d.Get("result")
			cfg.Set("result", r)
		}
		cfg.Set("params", params)
		if _, err := callBuiltin(c, "host_mock", cap, op, DictValue(cfg)); err != nil {
			return err
		}
	}
	return nil
}

func applyLLMEntries(c *Call, fn string, entries Value) error {
	if entries.k != KindList {
		return nil
	}
	for _, e := range entries.AsList().Items() {
		if e.k != KindDict {
			return throwValue(Str(fn + ": each entry must be a dict, got " + e.TypeName()))
		}
		if _, err := callBuiltin(c, "llm_mock", e); err != nil {
			return err
		}
	}
	return nil
}

func installTesting(lib *Library) {
	withParams := func(cfg map[string]any, params Value) Value {
		if params.k != KindNil {
			cfg["params"] = params
		}
		return goValue(cfg)
	}
	lib.StdModule("std/testing", map[string]func(c *Call, args []Value) (Value, error){
		"clear_host_mocks": func(c *Call, args []Value) (Value, error) { return callBuiltin(c, "host_mock_clear") },
		"mock_host_result": func(c *Call, args []Value) (Value, error) {
			return callBuiltin(c, "host_mock", Arg(args, 0), Arg(args, 1), withParams(map[string]any{"result": Arg(args, 2)}, Arg(args, 3)))
		},
		"mock_host_error": func(c *Call, args []Value) (Value, error) {
			return callBuiltin(c, "host_mock", Arg(args, 0), Arg(args, 1), withParams(map[string]any{"error": Arg(args, 2)}, Arg(args, 3)))
		},
		"mock_host_response": func(c *Call, args []Value) (Value, error) {
			return callBuiltin(c, "host_mock", Arg(args, 0), Arg(args, 1), Arg(args, 2))
		},
		"host_calls": func(c *Call, args []Value) (Value, error) { return callBuiltin(c, "host_mock_calls") },
		"host_calls_for": func(c *Call, args []Value) (Value, error) {
			return NewListValue(callsFor(c, Display(Arg(args, 0)), Display(Arg(args, 1)))), nil
		},
		"host_call_count": func(c *Call, args []Value) (Value, error) {
			return Int(int64(len(hostMocksOf(c).calls))), nil
		},
		"host_call_count_for": func(c *Call, args []Value) (Value, error) {
			return Int(int64(len(callsFor(c, Display(Arg(args, 0)), Display(Arg(args, 1)))))), nil
		},
		"host_was_called": func(c *Call, args []Value) (Value, error) {
			for _, k := range callsFor(c, Display(Arg(args, 0)), Display(Arg(args, 1))) {
				p, _ := k.AsDict().Get("params")
				if paramsSubset(Arg(args, 2), p) {
					return True, nil
				}
			}
			return False, nil
		},
		"assert_host_called": func(c *Call, args []Value) (Value, error) {
			for _, k := range callsFor(c, Display(Arg(args, 0)), Display(Arg(args, 1))) {
				p, _ := k.AsDict().Get("params")
				if paramsSubset(Arg(args, 2), p) {
					return Nil, nil
				}
			}
			msg := fmt.Sprintf("expected host call %s.%s", Display(Arg(args, 0)), Display(Arg(args, 1)))
			if m := Arg(args, 3); m.k != KindNil {
				msg = Display(m)
			}
			return Nil, throwValue(Str(msg))
		},
		"assert_host_call_count": func(c *Call, args []Value) (Value, error) {
			want, _ := Arg(args, 0).Number()
			n := len(hostMocksOf(c).calls)
			if Arg(args, 1).k != KindNil {
				n = len(callsFor(c, Display(Arg(args, 1)), Display(Arg(args, 2))))
			}
			if int64(n) != int64(want) {
				msg := fmt.Sprintf("expected %d host calls, got %d", int64(want), n)
				if m := Arg(args, 3); m.k != KindNil {
					msg = Display(m)
				}
				return Nil, throwValue(Str(msg))
			}
			return Nil, nil
		},
		"with_host_mocks": func(c *Call, args []Value) (Value, error) {
			return scoped(c, []string{"host_mock_push_scope"}, []string{"host_mock_pop_scope"},
				func() error { return applyHostEntries(c, "with_host_mocks", Arg(args, 0)) }, Arg(args, 1))
		},
		"llm_calls": func(c *Call, args []Value) (Value, error) { return callBuiltin(c, "llm_mock_calls") },
		"llm_call_count": func(c *Call, args []Value) (Value, error) {
			v, err := callBuiltin(c, "llm_mock_calls")
			if err != nil || v.k != KindList {
				return Int(0), err
			}
			return Int(int64(v.AsList().Len())), nil
		},
		"with_llm_mocks": func(c *Call, args []Value) (Value, error) {
			return scoped(c, []string{"llm_mock_push_scope"}, []string{"llm_mock_pop_scope"},
				func() error { return applyLLMEntries(c, "with_llm_mocks", Arg(args, 0)) }, Arg(args, 1))
		},
		"with_mocks": func(c *Call, args []Value) (Value, error) {
			cfg := Arg(args, 0)
			var host, llm Value
			if cfg.k == KindDict {
				host, _ = cfg.AsDict().Get("host_mocks")
				llm, _ = cfg.AsDict().Get("llm_mocks")
			}
			return scoped(c, []string{"host_mock_push_scope", "llm_mock_push_scope"}, []string{"host_mock_pop_scope", "llm_mock_pop_scope"},
				func() error {
					if err := applyHostEntries(c, "with_mocks", host); err != nil {
						return err
					}
					return applyLLMEntries(c, "with_mocks", llm)
				}, Arg(args, 1))
		},
	})
}
