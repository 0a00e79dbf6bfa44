package harn

import (
	"fmt"
	"strings"
	"sync"
)

// The postgres family against mock pools: pg_mock_pool(fixtures) answers
// pg_query, pg_query_one and pg_execute from fixtures matched by SQL text
// (trimmed) and, when a fixture gives them, its parameters; every call is
// recorded for pg_mock_calls. A real pool (pg_pool, pg_connect) needs a
// Postgres client this runtime does not have. std/postgres carries only
// the handle types, for the checker.

type pgFixture struct {
	sql          string
	params       *Value
	rows         []Value
	rowsAffected int64
	err          string
}

type pgMock struct {
	fixtures []pgFixture
	calls    []Value
}

type pgState struct {
	mu    sync.Mutex
	next  int
	mocks map[string]*pgMock
}

func pgOf(c *Call) *pgState {
	return c.th.in.State("postgres", func() any { return &pgState{mocks: map[string]*pgMock{}} }).(*pgState)
}

func pgErr(format string, a ...any) error { return plainError(fmt.Sprintf(format, a...)) }

func pgHandle(v Value, kind, fn string) (string, error) {
	if v.k != KindDict {
		return "", pgErr("%s: expected %s handle", fn, kind)
	}
	d := v.r.(*Dict)
	if t, _ := d.Get("_type"); Display(t) != kind {
		return "", pgErr("%s: expected %s handle", fn, kind)
	}
	id, _ := d.Get("id")
	if id.k == KindNil || Display(id) == "" {
		return "", pgErr("%s: handle is missing id", fn)
	}
	return Display(id), nil
}

// pgRun answers a query or statement on a mock pool.
func pgRun(c *Call, args []Value, fn string, execute bool) ([]Value, error) {
	if len(args) == 0 {
		return nil, pgErr("%s: pool or transaction handle is required", fn)
	}
	target := args[0]
	sqlV := Arg(args, 1)
	if sqlV.k != KindString {
		return nil, pgErr("%s: sql must be a string", fn)
	}
	var params []Value
	switch p := Arg(args, 2); p.k {
	case KindNil:
	case KindList:
		params = p.r.(*List).items
	default:
		return nil, pgErr("%s: params must be a list", fn)
	}
	if target.k == KindDict {
		if t, _ := target.r.(*Dict).Get("_type"); Display(t) != "pg_mock_pool" {
			return nil, plainError("not available in this runtime: " + fn + " on a real Postgres pool (only pg_mock_pool handles are served)")
		}
	}
	id, err := pgHandle(target, "pg_mock_pool", "pg_mock")
	if err != nil {
		return nil, err
	}
	sql := sqlV.r.(string)
	paramsV := jsonValue(NewListValue(append([]Value(nil), params...)))
	st := pgOf(c)
	st.mu.Lock()
	defer st.mu.Unlock()
	m, ok := st.mocks[id]
	if !ok {
		return nil, pgErr("pg_mock: unknown mock pool `%s`", id)
	}
	call := NewDict(3)
	call.Set("sql", Str(sql))
	call.Set("params", paramsV)
	call.Set("execute", Bool(execute))
	m.calls = append(m.calls, DictValue(call))
	for _, f := range m.fixtures {
		if strings.TrimSpace(f.sql) != strings.TrimSpace(sql) || f.params != nil && !Equal(*f.params, paramsV) {
			continue
		}
		if f.err != "" {
			return nil, pgErr("pg_mock: %s", f.err)
		}
		if execute {
			d := NewDict(1)
			d.Set("rows_affected", Int(f.rowsAffected))
			return []Value{DictValue(d)}, nil
		}
		return append([]Value(nil), f.rows...), nil
	}
	return nil, pgErr("pg_mock: no fixture matched `%s`", sql)
}

func installPostgres(lib *Library) {
	lib.Builtin("pg_mock_pool", func(c *Call, args []Value) (Value, error) {
		var items []Value
		switch v := Arg(args, 0); v.k {
		case KindNil:
		case KindList:
			items = v.r.(*List).items
		case KindDict:
			items = []Value{v}
		default:
			return Nil, pgErr("pg_mock_pool: fixtures must be a list of dicts")
		}
		m := &pgMock{}
		for _, it := range items {
			if it.k != KindDict {
				return Nil, pgErr("pg_mock_pool: each fixture must be a dict")
			}
			d := it.r.(*Dict)
			sql, _ := d.Get("sql")
			if sql.k == KindNil || strings.TrimSpace(Display(sql)) == "" {
				return Nil, pgErr("pg_mock_pool: fixture.sql is required")
			}
			f := pgFixture{sql: Display(sql)}
			if p, ok := d.Get("params"); ok {
				pv := jsonValue(p)
				f.params = &pv
			}
			switch rows, _ := d.Get("rows"); rows.k {
			case KindNil:
			case KindList:
				f.rows = rows.r.(*List).items
			default:
				return Nil, pgErr("pg_mock_pool: fixture.rows must be a list")
			}
			f.rowsAffected = int64(len(f.rows))
			if ra, ok := d.Get("rows_affected"); ok && ra.k == KindInt {
				f.rowsAffected = max(ra.AsInt(), 0)
			}
			if e, ok := d.Get("error"); ok && e.k != KindNil {
				f.err = Display(e)
			}
			m.fixtures = append(m.fixtures, f)
		}
		st := pgOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		st.next++
		id := fmt.Sprintf("pgmock-%d", st.next)
		st.mocks[id] = m
		h := NewDict(2)
		h.Set("_type", Str("pg_mock_pool"))
		h.Set("id", Str(id))
		return DictValue(h), nil
	})
	lib.Builtin("pg_mock_calls", func(c *Call, args []Value) (Value, error) {
		id, err := pgHandle(Arg(args, 0), "pg_mock_pool", "pg_mock_calls")
		if err != nil {
			return Nil, err
		}
		st := pgOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		if m, ok := st.mocks[id]; ok {
			return NewListValue(append([]Value(nil), m.calls...)), nil
		}
		return NewListValue(nil), nil
	})
	lib.Builtin("pg_query", func(c *Call, args []Value) (Value, error) {
		rows, err := pgRun(c, args, "pg_query", false)
		if err != nil {
			return Nil, err
		}
		return NewListValue(rows), nil
	})
	lib.Builtin("pg_query_one", func(c *Call, args []Value) (Value, error) {
		rows, err := pgRun(c, args, "pg_query_one", false)
		if err != nil || len(rows) == 0 {
			return Nil, err
		}
		return rows[0], nil
	})
	lib.Builtin("pg_execute", func(c *Call, args []Value) (Value, error) {
		rows, err := pgRun(c, args, "pg_execute", true)
		if err != nil {
			return Nil, err
		}
		return rows[0], nil
	})
	lib.StdModule("std/postgres", map[string]func(c *Call, args []Value) (Value, error){})
}
