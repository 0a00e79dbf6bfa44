// Package paramorder defines the paramorder rule.
//
// # Rule paramorder
//
// paramorder: parameters with defaults come after the required ones
// (HARN-PAR-007).
//
// Arguments bind to parameters by position, so a required parameter after
// one with a default (`fn f(x = 10, y)`) could only be given by also
// giving the default's argument. Upstream Harn's parser refuses it
// ("Required parameter cannot follow a parameter with a default value");
// the checker reports it in functions, closures, tools and pipelines. A
// rest parameter may follow defaults.
package paramorder
