package harn

import (
	"sort"
	"strconv"
	"strings"

	"github.com/harnlang/harn-check/grammar/harn/ast"
)

// Skill registries: {_type: "skill_registry", skills: [...]}, each skill
// a dict with a name, a description (empty when not given) and whatever
// else its definition carries (when_to_use, paths, allowed_tools, prompt,
// lifecycle hooks, ...). Registries are values: skill_define, skill_select
// and skill_remove return new ones. `skill NAME { field expr ... }` binds
// NAME to a registry holding that one skill. Matching skills to a request
// and activating them belong to the agent loop (lib_skill_match.go);
// skills found on disk and loading their bodies, to lib_skill_load.go.

func newSkillRegistry(skills []Value) Value {
	d := NewDict(2)
	d.Set("_type", Str("skill_registry"))
	d.Set("skills", NewListValue(skills))
	return DictValue(d)
}

// registrySkills returns the skills of a registry argument.
func registrySkills(c *Call, v Value) (*Dict, []Value, error) {
	if v.k == KindDict {
		d := v.r.(*Dict)
		if t, ok := d.Get("_type"); ok && t.k == KindString && t.r.(string) == "skill_registry" {
			if s, ok := d.Get("skills"); ok && s.k == KindList {
				return d, s.r.(*List).SharedItems(), nil
			}
			return d, nil, nil
		}
	}
	return nil, nil, throwValue(Str(c.Name + ": argument must be a skill registry (created with skill_registry())"))
}

func withSkills(reg *Dict, skills []Value) Value {
	out := reg.clone()
	out.Set("skills", NewListValue(skills))
	return DictValue(out)
}

func skillName(s Value) string {
	if s.k == KindDict {
		if n, ok := s.r.(*Dict).Get("name"); ok {
			return Display(n)
		}
	}
	return ""
}

// defineSkill adds (or replaces, by name) a skill built from config.
func defineSkill(c *Call, regV Value, name string, cfg Value) (Value, error) {
	reg, skills, err := registrySkills(c, regV)
	if err != nil {
		return Nil, err
	}
	if name == "" {
		return Nil, throwValue(Str("skill_define: skill name must be a non-empty string"))
	}
	var config *Dict
	switch cfg.k {
	case KindDict:
		config = cfg.r.(*Dict)
	case KindNil:
		config = NewDict(0)
	default:
		return Nil, throwValue(Str("skill_define: third argument must be a config dict"))
	}
	for _, k := range []string{"short", "description", "when_to_use", "prompt", "invocation", "model", "effort"} {
		if v, ok := config.Get(k); ok && v.k != KindString && v.k != KindNil {
			return Nil, throwValue(Str("skill_define: '" + k + "' must be a string"))
		}
	}
	for _, k := range []string{"paths", "allowed_tools", "mcp", "requires_mcp"} {
		if v, ok := config.Get(k); ok && v.k != KindList && v.k != KindNil {
			return Nil, throwValue(Str("skill_define: '" + k + "' must be a list"))
		}
	}
	if v, ok := config.Get("allowed_tools"); ok && v.k == KindList {
		for _, t := range v.r.(*List).items {
			s := Display(t)
			if tag, ok := strings.CutPrefix(s, "namespace:"); ok {
				if tag == "" {
					return Nil, throwValue(Str("skill_define: 'allowed_tools' entry 'namespace:' missing a tag after the colon"))
				}
			} else if strings.Contains(s, ":") {
				return Nil, throwValue(Str("skill_define: 'allowed_tools' entry '" + s + "' contains ':'; only the `namespace:<tag>` prefix is recognized"))
			}
		}
	}
	entry := NewDict(config.Len() + 2)
	entry.Set("name", Str(name))
	if !config.Has("description") {
		entry.Set("description", Str(OptStr(config, "short")))
	}
	for _, k := range config.Keys() {
		v, _ := config.Get(k)
		entry.Set(k, v)
	}
	out := make([]Value, 0, len(skills)+1)
	replaced := false
	for _, s := range skills {
		if skillName(s) == name {
			out = append(out, DictValue(entry))
			replaced = true
			continue
		}
		out = append(out, s)
	}
	if !replaced {
		out = append(out, DictValue(entry))
	}
	return withSkills(reg, out), nil
}

// catalogEntries are the skills as {name (namespace/name), description
// (short, else description), when_to_use}, sorted by name.
func catalogEntries(skills []Value) []Value {
	type row struct {
		id string
		v  Value
	}
	var rows []row
	for _, s := range skills {
		if s.k != KindDict {
			continue
		}
		d := s.r.(*Dict)
		id := OptStr(d, "name")
		if ns := OptStr(d, "namespace"); ns != "" {
			id = ns + "/" + id
		}
		if id == "" {
			continue
		}
		desc := OptStr(d, "short")
		if desc == "" {
			desc = OptStr(d, "description")
		}
		e := NewDict(3)
		e.Set("name", Str(id))
		e.Set("description", Str(desc))
		e.Set("when_to_use", Str(OptStr(d, "when_to_use")))
		rows = append(rows, row{id, DictValue(e)})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].id < rows[j].id })
	out := make([]Value, len(rows))
	for i, r := range rows {
		out[i] = r.v
	}
	return out
}

// renderCatalog is the always-on skills section of a system prompt,
// keeping to budget bytes by leaving out the last entries (and saying
// how many).
func renderCatalog(entries []Value, budget int) string {
	const header = "## Available skills\n\nThese skills are available. Call `load_skill({ name: \"<skill-id>\" })` to load the full body of a skill when it becomes relevant.\n\n"
	var blocks []string
	for _, e := range entries {
		if e.k != KindDict {
			continue
		}
		d := e.r.(*Dict)
		name := OptStr(d, "name")
		if name == "" {
			continue
		}
		desc := OptStr(d, "short")
		if desc == "" {
			desc = OptStr(d, "description")
		}
		b := "- `" + name + "`"
		if desc != "" {
			b += ": " + desc
		}
		if w := OptStr(d, "when_to_use"); w != "" {
			b += "\n  when: " + w
		}
		blocks = append(blocks, b)
	}
	if len(blocks) == 0 {
		return header + "(none)"
	}
	omission := func(n int) string {
		return "\n\n... " + strconv.Itoa(n) + " more skill(s) omitted to stay within budget."
	}
	budget = max(budget, len(header)+len(omission(1)))
	render := func(n int) string {
		return header + strings.Join(blocks[:n], "\n")
	}
	visible := 0
	for visible < len(blocks) && len(render(visible+1)) <= budget {
		visible++
	}
	if visible == len(blocks) {
		return render(visible)
	}
	for ; visible >= 0; visible-- {
		if s := render(visible) + omission(len(blocks)-visible); len(s) <= budget || visible == 0 {
			return s
		}
	}
	return header + "(none)"
}

func (c *compiler) skillDecl(d *ast.SkillDecl) evalFn {
	if d.Name == nil {
		return nil
	}
	name := d.Name.Name
	type field struct {
		name string
		val  evalFn
	}
	var fields []field
	for _, f := range d.Fields {
		if f.Name == nil || f.Value == nil {
			continue
		}
		fields = append(fields, field{f.Name.Name, c.expr(f.Value)})
	}
	store := c.bindName(name)
	mk := func(f *frame) (Value, error) {
		cfg := NewDict(len(fields))
		for _, fl := range fields {
			v, err := fl.val(f)
			if err != nil {
				return Nil, err
			}
			cfg.Set(fl.name, v)
		}
		reg, err := defineSkill(&Call{th: f.th, Name: "skill_define"}, newSkillRegistry(nil), name, DictValue(cfg))
		if err != nil {
			return Nil, err
		}
		store(f, reg)
		return Nil, nil
	}
	if c.fn.block.top {
		c.fn.prelude = append(c.fn.prelude, mk)
		return nil
	}
	return mk
}

func installSkills(lib *Library) {
	lib.Builtin("skill_registry", func(c *Call, args []Value) (Value, error) { return newSkillRegistry(nil), nil })
	lib.Builtin("skill_define", func(c *Call, args []Value) (Value, error) {
		if len(args) < 3 {
			return Nil, throwValue(Str("skill_define: requires registry, name, and config dict"))
		}
		return defineSkill(c, args[0], Display(args[1]), args[2])
	})
	lib.Builtin("skill_count", func(c *Call, args []Value) (Value, error) {
		_, skills, err := registrySkills(c, Arg(args, 0))
		return Int(int64(len(skills))), err
	})
	lib.Builtin("skill_find", func(c *Call, args []Value) (Value, error) {
		_, skills, err := registrySkills(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		want := Display(Arg(args, 1))
		for _, s := range skills {
			if skillName(s) == want {
				return s, nil
			}
		}
		return Nil, nil
	})
	lib.Builtin("skill_list", func(c *Call, args []Value) (Value, error) {
		_, skills, err := registrySkills(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		out := make([]Value, 0, len(skills))
		for _, s := range skills {
			if s.k != KindDict {
				continue
			}
			d := s.r.(*Dict)
			e := NewDict(d.Len())
			for _, k := range d.Keys() {
				v, _ := d.Get(k)
				if v.k == KindClosure || v.k == KindBuiltin {
					continue // hooks are not data
				}
				e.Set(k, v)
			}
			out = append(out, DictValue(e))
		}
		return NewListValue(out), nil
	})
	lib.Builtin("skill_select", func(c *Call, args []Value) (Value, error) {
		reg, skills, err := registrySkills(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		names := Arg(args, 1)
		if names.k != KindList {
			return Nil, throwValue(Str("skill_select: second argument must be a list of skill names"))
		}
		want := map[string]bool{}
		for _, n := range names.r.(*List).items {
			want[Display(n)] = true
		}
		var out []Value
		for _, s := range skills {
			if want[skillName(s)] {
				out = append(out, s)
			}
		}
		return withSkills(reg, out), nil
	})
	lib.Builtin("skill_remove", func(c *Call, args []Value) (Value, error) {
		reg, skills, err := registrySkills(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		drop := Display(Arg(args, 1))
		var out []Value
		for _, s := range skills {
			if skillName(s) != drop {
				out = append(out, s)
			}
		}
		return withSkills(reg, out), nil
	})
	lib.Builtin("skill_describe", func(c *Call, args []Value) (Value, error) {
		_, skills, err := registrySkills(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		if len(skills) == 0 {
			return Str("Available skills:\n(none)"), nil
		}
		type info struct{ name, desc, when string }
		var infos []info
		for _, s := range skills {
			if s.k == KindDict {
				d := s.r.(*Dict)
				infos = append(infos, info{OptStr(d, "name"), OptStr(d, "description"), OptStr(d, "when_to_use")})
			}
		}
		sort.SliceStable(infos, func(i, j int) bool { return infos[i].name < infos[j].name })
		lines := []string{"Available skills:"}
		for _, i := range infos {
			if i.desc == "" {
				lines = append(lines, "- "+i.name)
			} else {
				lines = append(lines, "- "+i.name+": "+i.desc)
			}
			if i.when != "" {
				lines = append(lines, "  when: "+i.when)
			}
		}
		return Str(strings.Join(lines, "\n")), nil
	})
	lib.Builtin("skills_catalog_entries", func(c *Call, args []Value) (Value, error) {
		_, skills, err := registrySkills(c, Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		return NewListValue(catalogEntries(skills)), nil
	})
	lib.Builtin("render_always_on_catalog", func(c *Call, args []Value) (Value, error) {
		var entries []Value
		switch v := Arg(args, 0); v.k {
		case KindList:
			entries = v.r.(*List).SharedItems()
		case KindDict:
			_, skills, err := registrySkills(c, v)
			if err != nil {
				return Nil, err
			}
			entries = catalogEntries(skills)
		default:
			return Nil, throwValue(Str("render_always_on_catalog: first argument must be a catalog entry list or skill registry"))
		}
		budget := 2000
		switch b := Arg(args, 1); {
		case b.k == KindNil:
		case b.k == KindInt && int64(b.n) > 0:
			budget = int(min(int64(b.n), 1<<30))
		default:
			return Nil, throwValue(Str("render_always_on_catalog: second argument must be a positive integer budget"))
		}
		return Str(renderCatalog(entries, budget)), nil
	})
}
