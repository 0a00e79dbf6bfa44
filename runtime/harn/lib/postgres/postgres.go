package postgres

import (
	"fmt"
	"strings"
	"sync"

	"github.com/harnlang/harn-check/runtime/harn"
)

// The postgres family against mock pools: pg_mock_pool(fixtures) answers
// pg_query, pg_query_one and pg_execute from fixtures matched by SQL text
// (trimmed) and, when a fixture gives them, its parameters; every call is
// recorded for pg_mock_calls. A real pool (pg_pool, pg_connect) needs a
// Postgres client this runtime does not have. std/postgres carries only
// the handle types, for the checker.

type pgFixture struct {
	sql          string
	params       *harn.Value
	rows         []harn.Value
	rowsAffected int64
	err          string
}

type pgMock struct {
	fixtures []pgFixture
	calls    []harn.Value
}

type pgState struct {
	mu    sync.Mutex
	next  int
	mocks map[string]*pgMock
}

func pgOf(c *harn.Call) *pgState {
	return c.Interp().State("postgres", func() any { return &pgState{mocks: map[string]*pgMock{}} }).(*pgState)
}

func pgErr(format string, a ...any) error { return harn.Errorf("%s", fmt.Sprintf(format, a...)) }

func pgHandle(v harn.Value, kind, fn string) (string, error) {
	if v.Kind() != harn.KindDict {
		return "", pgErr("%s: expected %s handle", fn, kind)
	}
	d := v.AsDict()
	if t, _ := d.Get("_type"); harn.Display(t) != kind {
		return "", pgErr("%s: expected %s handle", fn, kind)
	}
	id, _ := d.Get("id")
	if id.Kind() == harn.KindNil || harn.Display(id) == "" {
		return "", pgErr("%s: handle is missing id", fn)
	}
	return harn.Display(id), nil
}

// pgRun answers a query or statement on a mock pool.
func pgRun(c *harn.Call, args []harn.Value, fn string, execute bool) ([]harn.Value, error) {
	if len(args) == 0 {
		return nil, pgErr("%s: pool or transaction handle is required", fn)
	}
	target := args[0]
	sqlV := harn.Arg(args, 1)
	if sqlV.Kind() != harn.KindString {
		return nil, pgErr("%s: sql must be a string", fn)
	}
	var params []harn.Value
	switch p := harn.Arg(args, 2); p.Kind() {
	case harn.KindNil:
	case harn.KindList:
		params = p.AsList().Items()
	default:
		return nil, pgErr("%s: params must be a list", fn)
	}
	if target.Kind() == harn.KindDict {
		if t, _ := target.AsDict().Get("_type"); harn.Display(t) != "pg_mock_pool" {
			return nil, harn.Errorf("%s", "not available in this runtime: "+fn+" on a real Postgres pool (only pg_mock_pool handles are served)")
		}
	}
	id, err := pgHandle(target, "pg_mock_pool", "pg_mock")
	if err != nil {
		return nil, err
	}
	sql := sqlV.AsString()
	paramsV := harn.JSONData(harn.NewListValue(append([]harn.Value(nil), params...)))
	st := pgOf(c)
	st.mu.Lock()
	defer st.mu.Unlock()
	m, ok := st.mocks[id]
	if !ok {
		return nil, pgErr("pg_mock: unknown mock pool `%s`", id)
	}
	call := harn.NewDict(3)
	call.Set("sql", harn.Str(sql))
	call.Set("params", paramsV)
	call.Set("execute", harn.Bool(execute))
	m.calls = append(m.calls, harn.DictValue(call))
	for _, f := range m.fixtures {
		if strings.TrimSpace(f.sql) != strings.TrimSpace(sql) || f.params != nil && !harn.Equal(*f.params, paramsV) {
			continue
		}
		if f.err != "" {
			return nil, pgErr("pg_mock: %s", f.err)
		}
		if execute {
			d := harn.NewDict(1)
			d.Set("rows_affected", harn.Int(f.rowsAffected))
			return []harn.Value{harn.DictValue(d)}, nil
		}
		return append([]harn.Value(nil), f.rows...), nil
	}
	return nil, pgErr("pg_mock: no fixture matched `%s`", sql)
}

func install(lib *harn.Library) {
	lib.Builtin("pg_mock_pool", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		var items []harn.Value
		switch v := harn.Arg(args, 0); v.Kind() {
		case harn.KindNil:
		case harn.KindList:
			items = v.AsList().Items()
		case harn.KindDict:
			items = []harn.Value{v}
		default:
			return harn.Nil, pgErr("pg_mock_pool: fixtures must be a list of dicts")
		}
		m := &pgMock{}
		for _, it := range items {
			if it.Kind() != harn.KindDict {
				return harn.Nil, pgErr("pg_mock_pool: each fixture must be a dict")
			}
			d := it.AsDict()
			sql, _ := d.Get("sql")
			if sql.Kind() == harn.KindNil || strings.TrimSpace(harn.Display(sql)) == "" {
				return harn.Nil, pgErr("pg_mock_pool: fixture.sql is required")
			}
			f := pgFixture{sql: harn.Display(sql)}
			if p, ok := d.Get("params"); ok {
				pv := harn.JSONData(p)
				f.params = &pv
			}
			switch rows, _ := d.Get("rows"); rows.Kind() {
			case harn.KindNil:
			case harn.KindList:
				f.rows = rows.AsList().Items()
			default:
				return harn.Nil, pgErr("pg_mock_pool: fixture.rows must be a list")
			}
			f.rowsAffected = int64(len(f.rows))
			if ra, ok := d.Get("rows_affected"); ok && ra.Kind() == harn.KindInt {
				f.rowsAffected = max(ra.AsInt(), 0)
			}
			if e, ok := d.Get("error"); ok && e.Kind() != harn.KindNil {
				f.err = harn.Display(e)
			}
			m.fixtures = append(m.fixtures, f)
		}
		st := pgOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		st.next++
		id := fmt.Sprintf("pgmock-%d", st.next)
		st.mocks[id] = m
		h := harn.NewDict(2)
		h.Set("_type", harn.Str("pg_mock_pool"))
		h.Set("id", harn.Str(id))
		return harn.DictValue(h), nil
	})
	lib.Builtin("pg_mock_calls", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		id, err := pgHandle(harn.Arg(args, 0), "pg_mock_pool", "pg_mock_calls")
		if err != nil {
			return harn.Nil, err
		}
		st := pgOf(c)
		st.mu.Lock()
		defer st.mu.Unlock()
		if m, ok := st.mocks[id]; ok {
			return harn.NewListValue(append([]harn.Value(nil), m.calls...)), nil
		}
		return harn.NewListValue(nil), nil
	})
	lib.Builtin("pg_query", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		rows, err := pgRun(c, args, "pg_query", false)
		if err != nil {
			return harn.Nil, err
		}
		return harn.NewListValue(rows), nil
	})
	lib.Builtin("pg_query_one", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		rows, err := pgRun(c, args, "pg_query_one", false)
		if err != nil || len(rows) == 0 {
			return harn.Nil, err
		}
		return rows[0], nil
	})
	lib.Builtin("pg_execute", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		rows, err := pgRun(c, args, "pg_execute", true)
		if err != nil {
			return harn.Nil, err
		}
		return rows[0], nil
	})
	lib.StdModule("std/postgres", map[string]func(c *harn.Call, args []harn.Value) (harn.Value, error){})
}
