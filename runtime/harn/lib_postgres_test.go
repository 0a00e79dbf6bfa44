package harn

import "testing"

// TestPostgresMock pins fixture matching by SQL and parameters, the call
// log, fixture errors and the refusal of real pools.
func TestPostgresMock(t *testing.T) {
	src := `
let db = pg_mock_pool([{sql: "select 1", params: [1], rows: [{n: 1}]}, {sql: "select 1", rows: [{n: 2}]}, {sql: "boom", error: "down"}])
println(pg_query(db, " select 1 ", [1])[0].n)
println(pg_query_one(db, "select 1", [7]).n)
println(pg_execute(db, "select 1").rows_affected)
println(unwrap_err(try { pg_query(db, "boom") }))
println(unwrap_err(try { pg_query(db, "nope") }))
println(len(pg_mock_calls(db)))
println(unwrap_err(try { pg_query({_type: "pg_pool", id: "x"}, "select 1") }))
`
	want := "1\n2\n1\npg_mock: down\npg_mock: no fixture matched `nope`\n5\nnot available in this runtime: pg_query on a real Postgres pool (only pg_mock_pool handles are served)\n"
	out, err := runSource(t, src, runOpts{})
	if err != nil {
		t.Fatal(err)
	}
	if out != want {
		t.Fatalf("got\n%q\nwant\n%q", out, want)
	}
}
