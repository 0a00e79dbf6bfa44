// Package postgres holds Harn's Postgres builtins, served by mock pools
// (pg_mock_pool, pg_query, pg_query_one, pg_execute, pg_mock_calls); a
// real client is not implemented.
package postgres

import "github.com/harnlang/harn-check/runtime/harn"

// Family is the postgres family of builtins, listed by runtime/harn/lib.
var Family = harn.Family{Name: "postgres", Install: install}
