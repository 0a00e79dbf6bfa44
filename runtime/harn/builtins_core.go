package harn

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Core builtins: output, assertions, types and conversions, Result.

func installCore(lib *Library) {
	lib.Builtin("log", func(c *Call, args []Value) (Value, error) {
		s, err := c.displayArg(args)
		if err != nil {
			return Nil, err
		}
		return Nil, c.print("[harn] " + s + "\n")
	})
	lib.Builtin("print", func(c *Call, args []Value) (Value, error) {
		s, err := c.displayArg(args)
		if err != nil {
			return Nil, err
		}
		return Nil, c.print(s)
	})
	lib.Builtin("println", func(c *Call, args []Value) (Value, error) {
		s, err := c.displayArg(args)
		if err != nil {
			return Nil, err
		}
		return Nil, c.print(s + "\n")
	})
	lib.Builtin("eprint", func(c *Call, args []Value) (Value, error) {
		s, err := c.displayArg(args)
		if err != nil {
			return Nil, err
		}
		return Nil, writeStderr(c, s)
	})
	lib.Builtin("eprintln", func(c *Call, args []Value) (Value, error) {
		s, err := c.displayArg(args)
		if err != nil {
			return Nil, err
		}
		return Nil, writeStderr(c, s+"\n")
	})
	lib.Builtin("assert", func(c *Call, args []Value) (Value, error) {
		if !Arg(args, 0).Truthy() {
			msg := "Assertion failed"
			if len(args) > 1 {
				msg = Display(args[1])
			}
			return Nil, throwValue(Str(msg))
		}
		return Nil, nil
	})
	lib.Builtin("assert_eq", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, throwValue(Str("assert_eq requires at least 2 arguments"))
		}
		if !Equal(args[0], args[1]) {
			msg := "Assertion failed: expected " + Display(args[1]) + ", got " + Display(args[0])
			if len(args) > 2 {
				msg = Display(args[2])
			}
			return Nil, throwValue(Str(msg))
		}
		return Nil, nil
	})
	lib.Builtin("assert_ne", func(c *Call, args []Value) (Value, error) {
		if len(args) < 2 {
			return Nil, throwValue(Str("assert_ne requires at least 2 arguments"))
		}
		if Equal(args[0], args[1]) {
			msg := "Assertion failed: values should not be equal: " + Display(args[0])
			if len(args) > 2 {
				msg = Display(args[2])
			}
			return Nil, throwValue(Str(msg))
		}
		return Nil, nil
	})
	lib.Leaf("type_of", func(c *Call, args []Value) (Value, error) {
		return Str(Arg(args, 0).TypeName()), nil
	})
	lib.Leaf("to_string", func(c *Call, args []Value) (Value, error) {
		s, err := c.th.display(Arg(args, 0))
		return Str(s), err
	})
	lib.Leaf("to_int", func(c *Call, args []Value) (Value, error) { return ToInt(Arg(args, 0)), nil })
	lib.Leaf("to_float", func(c *Call, args []Value) (Value, error) { return ToFloat(Arg(args, 0)), nil })
	lib.Builtin("Ok", func(c *Call, args []Value) (Value, error) { return resultOkRaw(Arg(args, 0)), nil })
	lib.Builtin("Err", func(c *Call, args []Value) (Value, error) { return resultErr(Arg(args, 0)), nil })
	lib.Builtin("is_ok", func(c *Call, args []Value) (Value, error) { return Bool(isResult(Arg(args, 0), "Ok")), nil })
	lib.Builtin("is_err", func(c *Call, args []Value) (Value, error) { return Bool(isResult(Arg(args, 0), "Err")), nil })
	lib.Builtin("unwrap", func(c *Call, args []Value) (Value, error) {
		return resultMethod(Arg(args, 0), "unwrap", args[min(1, len(args)):], c.th)
	})
	lib.Builtin("unwrap_or", func(c *Call, args []Value) (Value, error) {
		return resultMethod(Arg(args, 0), "unwrap_or", args[min(1, len(args)):], c.th)
	})
	lib.Builtin("unwrap_err", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		if isResult(v, "Err") {
			return resultPayload(v), nil
		}
		return Nil, runtimeError("unwrap_err called on non-Err")
	})
	lib.Builtin("unreachable", func(c *Call, args []Value) (Value, error) {
		if len(args) > 0 {
			return Nil, runtimeError("unreachable code was reached: %s", Display(args[0]))
		}
		return Nil, runtimeError("unreachable code was reached")
	})
	lib.Leaf("len", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		switch v.k {
		case KindString:
			return Int(int64(utf8.RuneCountInString(v.r.(string)))), nil
		case KindBytes:
			return Int(int64(len(v.r.([]byte)))), nil
		case KindList:
			return Int(int64(v.r.(*List).Len())), nil
		case KindDict:
			return Int(int64(v.r.(*Dict).Len())), nil
		case KindSet:
			return Int(int64(v.r.(*Set).Len())), nil
		case KindRange:
			return Int(v.r.(*Range).Len()), nil
		}
		return Int(0), nil
	})
	lib.Builtin("range", func(c *Call, args []Value) (Value, error) {
		var start, end, step int64 = 0, 0, 1
		switch len(args) {
		case 1:
			if args[0].k != KindInt {
				return Nil, typeError("range(n): expected integer argument")
			}
			end = int64(args[0].n)
		case 2, 3:
			if args[0].k != KindInt || args[1].k != KindInt {
				return Nil, typeError("range(a, b): expected integer arguments")
			}
			start, end = int64(args[0].n), int64(args[1].n)
			if len(args) == 3 {
				if args[2].k != KindInt || args[2].n == 0 {
					return Nil, typeError("range(a, b, step): step must be a non-zero integer")
				}
				step = int64(args[2].n)
			}
		default:
			return Nil, typeError("range expects 1 or 2 integer arguments, got %d", len(args))
		}
		return Value{k: KindRange, r: &Range{Start: start, End: end, Step: step}}, nil
	})
	lib.Builtin("pair", func(c *Call, args []Value) (Value, error) {
		return Value{k: KindPair, r: &Pair{First: Arg(args, 0), Second: Arg(args, 1)}}, nil
	})
	lib.Builtin("iter", func(c *Call, args []Value) (Value, error) {
		it, err := c.th.toIter(Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		return iterValue(it), nil
	})
	lib.Builtin("to_list", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		switch v.k {
		case KindList:
			return v, nil
		case KindSet, KindRange, KindIter, KindGenerator, KindStream:
			items, err := c.th.collect(v)
			if err != nil {
				return Nil, err
			}
			return NewListValue(items), nil
		}
		return NewListValue([]Value{v}), nil
	})
	lib.Builtin("set", func(c *Call, args []Value) (Value, error) {
		if len(args) == 1 {
			switch args[0].k {
			case KindList, KindSet, KindRange, KindIter:
				items, err := c.th.collect(args[0])
				if err != nil {
					return Nil, err
				}
				return Value{k: KindSet, r: NewSet(items)}, nil
			}
		}
		return Value{k: KindSet, r: NewSet(args)}, nil
	})
	lib.Builtin("is_same", func(c *Call, args []Value) (Value, error) {
		a, b := Arg(args, 0), Arg(args, 1)
		if a.r != nil && identity(a) != 0 {
			return Bool(a.k == b.k && identity(a) == identity(b)), nil
		}
		return Bool(Equal(a, b)), nil
	})
	lib.Builtin("throw_error", func(c *Call, args []Value) (Value, error) {
		d := NewDict(2)
		d.Set("message", Str(Display(Arg(args, 0))))
		cat := "generic"
		if len(args) > 1 {
			cat = parseCategory(Display(args[1]))
		}
		d.Set("category", Str(cat))
		e := throwValue(DictValue(d))
		e.Category = cat
		return Nil, e
	})
	lib.Builtin("error_category", func(c *Call, args []Value) (Value, error) {
		v := Arg(args, 0)
		switch v.k {
		case KindDict:
			if cat, ok := v.r.(*Dict).Get("category"); ok {
				return Str(Display(cat)), nil
			}
			return Str("generic"), nil
		case KindString:
			return Str(classifyMessage(v.r.(string))), nil
		}
		return Str("generic"), nil
	})
	lib.Builtin("is_timeout", func(c *Call, args []Value) (Value, error) {
		return Bool(hasCategory(Arg(args, 0), "timeout")), nil
	})
	lib.Builtin("is_rate_limited", func(c *Call, args []Value) (Value, error) {
		return Bool(hasCategory(Arg(args, 0), "rate_limit")), nil
	})
}

// print writes program output through the host, in one locked write.
func (c *Call) print(s string) error { return c.th.in.host.WriteStdout(s) }

// displayArg is the display form of the first argument, charged to the
// run (see walk).
func (c *Call) displayArg(args []Value) (string, error) {
	if len(args) == 0 {
		return "", nil
	}
	return c.th.display(args[0])
}

// ToInt is v as to_int converts it: nil when v has no int reading.
func ToInt(v Value) Value {
	switch v.k {
	case KindInt:
		return v
	case KindDuration:
		return Int(int64(v.n))
	case KindFloat:
		f := v.AsFloat()
		if math.IsNaN(f) {
			return Int(0)
		}
		return Int(int64(f))
	case KindBool:
		return Int(int64(v.n))
	case KindString:
		if n, err := strconv.ParseInt(strings.TrimSpace(v.r.(string)), 10, 64); err == nil {
			return Int(n)
		}
	}
	return Nil
}

// ToFloat is v as to_float converts it: nil when v has no float
// reading.
func ToFloat(v Value) Value {
	switch v.k {
	case KindFloat:
		return v
	case KindInt:
		return Float(float64(int64(v.n)))
	case KindString:
		s := strings.TrimSpace(v.r.(string))
		if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "xXpP_") {
			return Float(f)
		}
	}
	return Nil
}

func isResult(v Value, variant string) bool {
	if v.k != KindEnum {
		return false
	}
	e := v.r.(*EnumValue)
	return e.Enum == "Result" && e.Variant == variant
}

func resultPayload(v Value) Value {
	e := v.r.(*EnumValue)
	if len(e.Fields) == 0 {
		return Nil
	}
	return share(e.Fields[0])
}

func resultOkRaw(v Value) Value {
	return Value{k: KindEnum, r: &EnumValue{Enum: "Result", Variant: "Ok", Fields: []Value{v}}}
}

// resultMethod implements the Result helpers as methods and builtins.
func resultMethod(v Value, name string, args []Value, th *thread) (Value, error) {
	switch name {
	case "is_ok":
		return Bool(isResult(v, "Ok")), nil
	case "is_err":
		return Bool(isResult(v, "Err")), nil
	case "unwrap", "expect":
		if isResult(v, "Ok") {
			return resultPayload(v), nil
		}
		if isResult(v, "Err") {
			if name == "expect" && len(args) > 0 {
				return Nil, runtimeError("%s", Display(args[0]))
			}
			return Nil, runtimeError("unwrap called on Err: %s", Display(resultPayload(v)))
		}
		return v, nil
	case "unwrap_or":
		if isResult(v, "Ok") {
			return resultPayload(v), nil
		}
		if isResult(v, "Err") {
			return Arg(args, 0), nil
		}
		return v, nil
	case "unwrap_or_else":
		if isResult(v, "Err") {
			return th.call1(Arg(args, 0), resultPayload(v))
		}
		return resultPayload(v), nil
	case "unwrap_err":
		if isResult(v, "Err") {
			return resultPayload(v), nil
		}
		return Nil, runtimeError("unwrap_err called on non-Err")
	case "map":
		if isResult(v, "Ok") {
			r, err := th.call1(Arg(args, 0), resultPayload(v))
			if err != nil {
				return Nil, err
			}
			return resultOkRaw(r), nil
		}
		return v, nil
	case "map_err":
		if isResult(v, "Err") {
			r, err := th.call1(Arg(args, 0), resultPayload(v))
			if err != nil {
				return Nil, err
			}
			return resultErr(r), nil
		}
		return v, nil
	case "and_then":
		if isResult(v, "Ok") {
			return th.call1(Arg(args, 0), resultPayload(v))
		}
		return v, nil
	case "ok":
		if isResult(v, "Ok") {
			return resultPayload(v), nil
		}
		return Nil, nil
	case "err":
		if isResult(v, "Err") {
			return resultPayload(v), nil
		}
		return Nil, nil
	}
	return Nil, nil
}

var categories = map[string]bool{"timeout": true, "auth": true, "rate_limit": true, "overloaded": true,
	"server_error": true, "transient_network": true, "schema_validation": true, "tool_error": true,
	"tool_rejected": true, "egress_blocked": true, "cancelled": true, "not_found": true,
	"circuit_open": true, "budget_exceeded": true, "generic": true}

func parseCategory(s string) string {
	if categories[s] {
		return s
	}
	return "generic"
}

func hasCategory(v Value, cat string) bool {
	switch v.k {
	case KindDict:
		c, ok := v.r.(*Dict).Get("category")
		return ok && Display(c) == cat
	case KindString:
		return classifyMessage(v.r.(string)) == cat
	}
	return false
}

// classifyMessage guesses an error category from a message, the way
// upstream classifies provider errors.
func classifyMessage(msg string) string {
	for _, code := range []struct {
		s   string
		cat string
	}{{"429", "rate_limit"}, {"401", "auth"}, {"403", "auth"}, {"529", "overloaded"}, {"503", "overloaded"},
		{"500", "server_error"}, {"502", "server_error"}, {"504", "timeout"}, {"408", "timeout"}, {"404", "not_found"}} {
		if strings.Contains(msg, "HTTP "+code.s) || strings.Contains(msg, "status "+code.s) || strings.Contains(msg, "status: "+code.s) {
			return code.cat
		}
	}
	lower := strings.ToLower(msg)
	switch {
	case strings.Contains(msg, "Deadline exceeded") || strings.Contains(msg, "context deadline exceeded"):
		return "timeout"
	case strings.Contains(msg, "overloaded_error"):
		return "overloaded"
	case strings.Contains(msg, "api_error"):
		return "server_error"
	case strings.Contains(msg, "insufficient_quota") || strings.Contains(msg, "billing_hard_limit_reached"):
		return "rate_limit"
	case strings.Contains(msg, "invalid_api_key") || strings.Contains(msg, "authentication_error"):
		return "auth"
	case strings.Contains(msg, "not_found_error") || strings.Contains(msg, "model_not_found"):
		return "not_found"
	case strings.Contains(msg, "circuit_open"):
		return "circuit_open"
	case strings.Contains(lower, "connection reset") || strings.Contains(lower, "connection refused") ||
		strings.Contains(lower, "connection closed") || strings.Contains(lower, "broken pipe") ||
		strings.Contains(lower, "dns error") || strings.Contains(lower, "stream error") ||
		strings.Contains(lower, "unexpected eof"):
		return "transient_network"
	case strings.Contains(lower, "timed out") || strings.Contains(lower, "timeout"):
		return "timeout"
	case strings.Contains(lower, "rate limit"):
		return "rate_limit"
	}
	return "generic"
}
