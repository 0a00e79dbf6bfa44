package difftest

import (
	"fmt"
	"math/rand"
	"strings"
)

// writtenInputs are inputs the tests write themselves, per language: small
// programs that reach constructs the files on disk may not (Lua has no files
// on a stock machine at all), plus generated ones.
func writtenInputs(lang string) map[string]string {
	in := map[string]string{}
	switch lang {
	case "json":
		in["scalars.json"] = `[0, -1.5e+10, 2E-3, true, false, null, "", "\u00e9\n\t\"", "😀"]`
		in["nested.json"] = `{"a": {"b": [{"c": {}}, [], [[]]]}, "d": "e" /* comment */, "f": 1} // trailing`
		in["generated.json"] = generatedJSON(2000)
	case "properties":
		in["app.properties"] = "# comment\n! bang comment\nkey=value\nkey2 = value with spaces\nkey3:colon\n" +
			"multi = line one \\\n    line two \\\n    line three\nunicode=\\u00e9\\t\\n\nempty=\n  indented.key  =  v\n" +
			"a\\=b=c\nspace\\ key value\n"
	case "toml":
		in["config.toml"] = "# top\ntitle = \"TOML\"\n[owner]\nname = 'Tom'\ndob = 1979-05-27T07:32:00-08:00\n" +
			"[database]\nports = [ 8000, 8001, 8002 ]\nenabled = true\ntemp = { cpu = 79.5, case = 72.0 }\n" +
			"[[products]]\nname = \"Hammer\"\nsku = 738594937\n[[products]]\n\n" +
			"str = \"\"\"\nRoses are red\n  \\\n  Violets\"\"\"\nlit = '''\nraw \\n'''\nhex = 0xDEAD_BEEF\noct = 0o755\nbin = 0b1101\n" +
			"flt = -3.14e-2\ninf = -inf\nnan = nan\n\"quoted key\".dotted.\"x\" = 1\nlt = 07:32:00\nld = 1979-05-27\n"
	case "lua":
		in["features.lua"] = luaProgram
		in["generated.lua"] = generatedLua(300)
	case "css":
		in["style.css"] = "@import url(\"a.css\") screen;\n@media (min-width: 600px) and (max-width: 900px) {\n" +
			"  .a > .b + .c ~ d::before, #id[data-x^=\"y\" i]:not(.z):nth-child(2n+1) { color: #fff !important; }\n}\n" +
			":root { --main-color: rgb(0 0 0 / 50%); margin: calc(1px + 2em * 3) -0.5rem; }\n" +
			"@keyframes spin { from { transform: rotate(0deg) } to { transform: rotate(360deg) } }\n" +
			"a:hover { background: url(data:image/png;base64,AAAA) no-repeat; font: 12px/1.5 \"Helvetica\", sans-serif }\n" +
			"@supports (display: grid) { div { display: grid; grid-template-columns: repeat(3, 1fr); } }\n" +
			"/* comment */ @charset \"utf-8\";\n@font-face { font-family: X; src: local(X), url(x.woff2) format(\"woff2\"); }\n"
	case "make":
		in["Makefile"] = "CC ?= gcc\nCFLAGS := -O2 -Wall\nSRCS = $(wildcard *.c)\nOBJS = $(SRCS:.c=.o)\n" +
			".PHONY: all clean\n\nall: prog\n\nprog: $(OBJS)\n\t$(CC) $(CFLAGS) -o $@ $^\n\n%.o: %.c\n\t@echo \"CC $<\"\n\t$(CC) -c $< -o $@\n\n" +
			"ifeq ($(DEBUG),1)\nCFLAGS += -g\nelse\nCFLAGS += -DNDEBUG\nendif\n\ndefine greet\n\techo hello $(1)\nendef\n\n" +
			"clean:\n\trm -f prog $(OBJS) \\\n\t  *.d\n\ninclude $(wildcard *.d)\nexport PATH\nvpath %.h include\n" +
			"override X = $(shell echo $$HOME) $(foreach f,$(SRCS),$(notdir $(f)))\n"
	case "go":
		in["generics.go"] = "package p\n\ntype Number interface{ ~int | ~float64 }\n\nfunc Sum[T Number](xs ...T) (s T) {\n" +
			"\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn\n}\n\nfunc f() {\n\tch := make(chan<- int, 1)\n\tselect {\n" +
			"\tcase ch <- 1:\n\tdefault:\n\t}\n\tgo func() { defer recover() }()\n\tx := struct{ a, b int }{1, 2}\n" +
			"\tswitch v := any(x).(type) {\n\tcase int, string:\n\t\t_ = v\n\t}\n\tgoto L\nL:\n\tfor i := 0; i < 3; i++ {\n\t\tcontinue\n\t}\n" +
			"\t_ = []int{1: 2, 3}[1:2:3]\n\t_ = `raw\nstring` + \"s\\n\" + 'r' + 1i + 0x1p-2\n}\n"
	case "python":
		in["features.py"] = "import os, sys as system\nfrom . import x\n\n@decorator(arg)\nclass A(B, metaclass=M):\n" +
			"    \"\"\"Doc.\"\"\"\n    x: int = 1\n\n    async def f(self, *args, k=1, **kw) -> list[int]:\n" +
			"        async with a as b, c:\n            await g()\n        return [i ** 2 for i in range(10) if i % 2]\n\n" +
			"match command.split():\n    case [action, obj]:\n        pass\n    case Point(x=0) | None:\n        pass\n" +
			"    case _:\n        pass\n\ntry:\n    raise ValueError from e\nexcept* (TypeError, KeyError) as err:\n    pass\nfinally:\n" +
			"    del x\n\nf = lambda a, /, b: (a := b)\nprint(f\"{x!r:>10} {{}} {y=}\", r'\\d', b'\\x00')\nglobal q\nnonlocal_ = ...\n"
	case "bash":
		in["features.sh"] = "#!/bin/bash\nset -euo pipefail\nreadonly X=${1:-default}\narr=(a b \"c d\")\n" +
			"for i in \"${arr[@]}\"; do\n  echo \"$i\" | tr a-z A-Z >> /tmp/out 2>&1\ndone\n" +
			"if [[ -f $X && $X =~ ^[a-z]+$ ]]; then\n  echo yes\nelif (( X > 3 )); then\n  :\nfi\n" +
			"case $X in\n  a|b) echo ab ;;\n  *) echo other ;;\nesac\nf() { local y=$(( $1 + 2 )); echo $y; }\n" +
			"cat <<EOF\nheredoc $X `date`\nEOF\nwhile read -r line; do echo \"${line%%:*}\"; done < <(ls)\n"
	}
	return in
}

func generatedJSON(n int) string {
	rng := rand.New(rand.NewSource(int64(n)))
	var b strings.Builder
	b.WriteString("[\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id": %d, "v": %.4g, "s": "x\\u%04x\\n", "l": [%d, null, false], "o": {"k%d": true}}`,
			i, rng.NormFloat64()*1e6, rng.Intn(0xd7ff), rng.Intn(100), i%7)
	}
	b.WriteString("\n]\n")
	return b.String()
}

func generatedLua(n int) string {
	var b strings.Builder
	for i := range n {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "local v%d = { %d, x = %q, [\"k\"] = function(a, ...) return a + %d end }\n", i, i, "s", i)
		case 1:
			fmt.Fprintf(&b, "if v%d and not v%d or #t > %d then print(v%d .. \"x\") elseif false then else end\n", i-1, i, i, i-1)
		case 2:
			fmt.Fprintf(&b, "for k%d = 1, %d, 2 do t[k%d] = k%d // 2 ~ 3 << 1 end\n", i, i, i, i)
		case 3:
			fmt.Fprintf(&b, "function m%d.n:o(a, b) while a < b do a = a + 1 end; return a, b end\n", i)
		default:
			fmt.Fprintf(&b, "repeat local s = [[long\nstring %d]] goto c%d ::c%d:: until true -- note %d\n", i, i, i, i)
		}
	}
	return b.String()
}

const luaProgram = `#!/usr/bin/env lua
-- line comment
--[[ block
comment ]]
--[==[ leveled ]==]
local M = {}
local a <const>, b <close> = 1, nil

function M.greet(name, ...)
  local args = { ... }
  local s = [==[
raw ]] string
]==]
  print(("hello %s"):format(name), #args, s)
  return name and true or false
end

local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

for i, v in ipairs({ 10, 20, 30 }) do
  M[i] = v * 2 ^ 3 % 5 // 1
end

local t = setmetatable({}, { __index = function(t, k) return k end })
t.x.y = t["z"]:method { 1, 2; 3 }
local n = 0x1F + 1e10 + 0.5 + 3. + .5 + 0xA.8p1
local s = 'single \'quoted\'' .. "double \"quoted\"\n\z
   continued" .. "\x41\u{48}\065"
while n > 0 do n = n - 1 if n == 5 then break end end
repeat n = n + 1 until n >= 10
do local x = -n ~= ~n end
goto done
::done::
return M
`
