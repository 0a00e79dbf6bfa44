package harn

import (
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/harnlang/harn-check/catalog"
)

// Skills from the filesystem. The `skills` global is the registry of the
// SKILL.md bundles (<root>/<name>/SKILL.md, YAML frontmatter then the
// body) found under the project's .harn/skills and the roots its
// harn.toml [skills] paths name; the project is the nearest harn.toml at
// or above the program's folder that the host lets the program read, so
// nothing outside the program's grants is looked at (no user or system
// layers). The first root to define a name wins. Entries are compact
// cards: the frontmatter (keys with '-' spelled with '_'), the layer
// ("project" or "manifest") as source, and a provenance record of the
// bundle's SKILL.md.sig (Ed25519, keys from the signer registry folder);
// the body is read when load_skill (the builtin, or the agent loop's
// tool) asks for it, with $ARGUMENTS, $N, ${HARN_SKILL_DIR} and
// ${HARN_SESSION_ID} substituted.

// fsSkills is the run's discovered skills: the registry and where each
// skill's bundle is.
type fsSkills struct {
	registry Value
	dirs     map[string]string // skill id -> bundle folder
}

func (in *Interp) fsSkills() *fsSkills {
	return in.State("fs_skills", func() any { return discoverSkills(in) }).(*fsSkills)
}

func discoverSkills(in *Interp) *fsSkills {
	out := &fsSkills{dirs: map[string]string{}}
	h := in.host
	var entries []Value
	if h != nil {
		p := catalog.FindProject(catalog.LoaderFunc(h.ReadFile), h.Root())
		type layer struct{ root, label string }
		var layers []layer
		if d := p.Dir(); d != "" {
			layers = append(layers, layer{filepath.Join(d, ".harn", "skills"), "project"})
		}
		cfg := p.Skills()
		for _, r := range cfg.Paths {
			layers = append(layers, layer{r, "manifest"})
		}
		for _, l := range layers {
			list, err := h.ReadDir(l.root)
			if err != nil {
				continue
			}
			names := make([]string, 0, len(list))
			for _, e := range list {
				if e.IsDir() {
					names = append(names, e.Name())
				}
			}
			sort.Strings(names)
			for _, n := range names {
				dir := filepath.Join(l.root, n)
				data, err := h.ReadFile(filepath.Join(dir, "SKILL.md"))
				if err != nil {
					continue
				}
				fm, _ := splitFrontmatter(string(data))
				e := skillCard(fm, n, l.label)
				id := OptStr(e, "name")
				if _, seen := out.dirs[id]; seen {
					continue
				}
				out.dirs[id] = dir
				e.Set("provenance", DictValue(skillProvenance(in, dir, data, fm, cfg.SignerRegistry)))
				entries = append(entries, DictValue(e))
			}
		}
	}
	out.registry = newSkillRegistry(entries)
	return out
}

// splitFrontmatter parses a leading ---/--- YAML block (keys with '-'
// spelled with '_') and returns it with the rest of the text.
func splitFrontmatter(text string) (map[string]any, string) {
	t := strings.TrimPrefix(text, "\ufeff")
	if !strings.HasPrefix(t, "---") {
		return map[string]any{}, text
	}
	rest := strings.TrimLeft(t[3:], " \t")
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, "\r"), "\n")
	end := -1
	for off := 0; off < len(rest); {
		line := rest[off:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimRight(line, " \t\r") == "---" {
			end = off
			break
		}
		off += len(line) + 1
	}
	if end < 0 {
		return map[string]any{}, text
	}
	var raw map[string]any
	_ = yaml.Unmarshal([]byte(rest[:end]), &raw)
	fm := map[string]any{}
	for k, v := range raw {
		fm[strings.ReplaceAll(k, "-", "_")] = v
	}
	body := rest[end:]
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:]
	} else {
		body = ""
	}
	return fm, body
}

// skillCard is the registry entry of a SKILL.md's frontmatter.
func skillCard(fm map[string]any, dirName, layer string) *Dict {
	str := func(k string) string {
		if v, ok := fm[k]; ok && v != nil {
			return Display(fromGo(yamlPlain(v, 0)))
		}
		return ""
	}
	list := func(k string) []Value {
		switch v := fm[k].(type) {
		case []any:
			out := make([]Value, len(v))
			for i, x := range v {
				out[i] = Str(Display(fromGo(yamlPlain(x, 0))))
			}
			return out
		case string:
			return []Value{Str(v)}
		}
		return nil
	}
	flag := func(k string) bool { b, _ := fm[k].(bool); return b }
	e := NewDict(12)
	name := str("name")
	if name == "" {
		name = dirName
	}
	e.Set("name", Str(name))
	short := str("short")
	e.Set("short", Str(short))
	if d := str("description"); d != "" {
		e.Set("description", Str(d))
	} else {
		e.Set("description", Str(short))
	}
	if w := str("when_to_use"); w != "" {
		e.Set("when_to_use", Str(w))
	}
	if flag("disable_model_invocation") {
		e.Set("disable_model_invocation", Bool(true))
	}
	if l := list("allowed_tools"); len(l) > 0 {
		e.Set("allowed_tools", NewListValue(l))
	}
	if flag("user_invocable") {
		e.Set("user_invocable", Bool(true))
	}
	if l := list("paths"); len(l) > 0 {
		e.Set("paths", NewListValue(l))
	}
	for _, k := range []string{"context", "agent", "model", "effort", "shell", "argument_hint"} {
		if s := str(k); s != "" {
			e.Set(k, Str(s))
		}
	}
	if hooks, ok := fm["hooks"].(map[string]any); ok && len(hooks) > 0 {
		hd := NewDict(len(hooks))
		keys := make([]string, 0, len(hooks))
		for k := range hooks {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			hd.Set(k, Str(Display(fromGo(yamlPlain(hooks[k], 0)))))
		}
		e.Set("hooks", DictValue(hd))
	}
	e.Set("source", Str(layer))
	return e
}

// skillProvenance checks a bundle's SKILL.md.sig: signed when the
// envelope names this content, trusted when the signer's key (from the
// signer registry folder) verifies it and the skill's trusted_signers,
// if any, list the signer.
func skillProvenance(in *Interp, dir string, content []byte, fm map[string]any, registry string) *Dict {
	sum := sha256.Sum256(content)
	digest := hex.EncodeToString(sum[:])
	sigPath := filepath.Join(dir, "SKILL.md.sig")
	p := NewDict(6)
	p.Set("skill_sha256", Str(digest))
	p.Set("signed", Bool(false))
	p.Set("trusted", Bool(false))
	p.Set("status", Str("missing_signature"))
	p.Set("signature_path", Str(sigPath))
	fail := func(status, msg string) *Dict {
		p.Set("status", Str(status))
		p.Set("error", Str(msg))
		return p
	}
	raw, err := in.host.ReadFile(sigPath)
	if err != nil {
		return p
	}
	var env struct {
		Schema      string `json:"schema"`
		Fingerprint string `json:"signer_fingerprint"`
		Sig         string `json:"ed25519_sig_base64"`
		SHA256      string `json:"skill_sha256"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fail("invalid_signature", sigPath+" is not valid harn-skill-sig/v1 JSON: "+err.Error())
	}
	if env.Fingerprint != "" {
		p.Set("signer_fingerprint", Str(env.Fingerprint))
	}
	if env.Schema != "harn-skill-sig/v1" {
		return fail("invalid_signature", sigPath+" declares unsupported schema "+env.Schema)
	}
	if env.SHA256 != digest {
		return fail("invalid_signature", sigPath+" does not match the current contents of "+filepath.Join(dir, "SKILL.md"))
	}
	p.Set("signed", Bool(true))
	var key ed25519.PublicKey
	if registry != "" && !strings.Contains(registry, "://") {
		if pemText, err := in.host.ReadFile(filepath.Join(registry, env.Fingerprint+".pub")); err == nil {
			if b, _ := pem.Decode(pemText); b != nil {
				if k, err := x509.ParsePKIXPublicKey(b.Bytes); err == nil {
					key, _ = k.(ed25519.PublicKey)
				}
			}
		}
	}
	if key == nil {
		return fail("missing_signer", filepath.Join(dir, "SKILL.md")+" was signed by "+env.Fingerprint+", whose key is not in the signer registry")
	}
	sig, err := base64.StdEncoding.DecodeString(env.Sig)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return fail("invalid_signature", "signature is not valid Ed25519 bytes")
	}
	if !ed25519.Verify(key, content, sig) {
		return fail("invalid_signature", sigPath+" failed Ed25519 verification for "+filepath.Join(dir, "SKILL.md"))
	}
	if allow, ok := fm["trusted_signers"].([]any); ok && len(allow) > 0 {
		found := false
		for _, a := range allow {
			found = found || Display(fromGo(yamlPlain(a, 0))) == env.Fingerprint
		}
		if !found {
			return fail("untrusted_signer", filepath.Join(dir, "SKILL.md")+" was signed by "+env.Fingerprint+", which is not in the skill's trusted_signers allowlist")
		}
	}
	p.Set("trusted", Bool(true))
	p.Set("status", Str("verified"))
	return p
}

// substituteSkillBody expands $ARGUMENTS, $1.., ${HARN_SKILL_DIR} and
// ${HARN_SESSION_ID}; $$ is a dollar, and anything unknown or not
// supplied stays as written (the environment is not read).
func substituteSkillBody(body string, args []string, dir, session string) string {
	var b strings.Builder
	for i := 0; i < len(body); {
		ch := body[i]
		if ch != '$' || i+1 >= len(body) {
			b.WriteByte(ch)
			i++
			continue
		}
		next := body[i+1]
		switch {
		case next == '$':
			b.WriteByte('$')
			i += 2
		case next == '{':
			j := strings.IndexByte(body[i+2:], '}')
			if j < 0 {
				b.WriteByte('$')
				i++
				continue
			}
			name, orig := body[i+2:i+2+j], body[i:i+3+j]
			switch {
			case name == "HARN_SKILL_DIR" && dir != "":
				b.WriteString(dir)
			case name == "HARN_SESSION_ID" && session != "":
				b.WriteString(session)
			default:
				b.WriteString(orig)
			}
			i += 3 + j
		case strings.HasPrefix(body[i:], "$ARGUMENTS"):
			b.WriteString(strings.Join(args, " "))
			i += len("$ARGUMENTS")
		case next >= '0' && next <= '9':
			j := i + 1
			for j < len(body) && body[j] >= '0' && body[j] <= '9' {
				j++
			}
			n, _ := parseIntPrefix(body[i+1 : j])
			if n >= 1 && n <= len(args) {
				b.WriteString(args[n-1])
			} else {
				b.WriteString(body[i:j])
			}
			i = j
		default:
			b.WriteByte('$')
			i++
		}
	}
	return b.String()
}

func parseIntPrefix(s string) (int, bool) {
	n := 0
	for _, r := range s {
		if n > 1<<20 {
			return 0, false
		}
		n = n*10 + int(r-'0')
	}
	return n, true
}

// skillID is a registry entry's id: namespace/name, or the name.
func skillID(d *Dict) string {
	if ns := OptStr(d, "namespace"); ns != "" {
		return ns + "/" + OptStr(d, "name")
	}
	return OptStr(d, "name")
}

// resolveSkill finds a skill by id, or by a bare name only one has.
func resolveSkill(skills []Value, target string) (*Dict, string) {
	var bare []*Dict
	for _, s := range skills {
		d := s.AsDict()
		if s.k != KindDict || d == nil {
			continue
		}
		if skillID(d) == target {
			return d, ""
		}
		if OptStr(d, "name") == target {
			bare = append(bare, d)
		}
	}
	switch len(bare) {
	case 1:
		return bare[0], ""
	case 0:
		return nil, "skill '" + target + "' not found"
	}
	return nil, "skill '" + target + "' is ambiguous; use the fully qualified id from the catalog"
}

// skillBody is an entry's body: inline (body, else prompt), else read
// from its discovered bundle; with the bundle folder.
func (in *Interp) skillBody(d *Dict, fn string) (string, string, error) {
	dir := OptStr(d, "skill_dir")
	if b := OptStr(d, "body"); b != "" {
		return b, dir, nil
	}
	if p := OptStr(d, "prompt"); p != "" {
		return p, dir, nil
	}
	id := skillID(d)
	bundle, ok := in.fsSkills().dirs[id]
	if !ok {
		return "", "", plainError(fn + ": skill '" + id + "' is not lazily loadable in this scope")
	}
	data, err := in.host.ReadFile(filepath.Join(bundle, "SKILL.md"))
	if err != nil {
		return "", "", plainError(fn + ": skill '" + id + "': " + err.Error())
	}
	_, body := splitFrontmatter(string(data))
	return strings.TrimSpace(body), bundle, nil
}

func skillToolError(kind, skill, msg string) string {
	d := NewDict(3)
	d.Set("error", Str(kind))
	d.Set("skill", Str(skill))
	d.Set("message", Str(msg))
	return jsonText(DictValue(d))
}

// loadSkillTool runs the agent loop's load_skill tool: the skill's
// rendered body, or a typed error (skill_not_found, invalid_arguments,
// skill_model_invocation_disabled, UnsignedSkillError,
// UntrustedSignerError). Every resolved request leaves a skill.loaded
// event with the bundle's trust record; a loaded skill joins the
// prompt's active skills and scopes the tools like a matched one.
func (r *loopRun) loadSkillTool(args Value) (string, bool, error) {
	r.calls = addUnique(r.calls, "load_skill")
	a := args.AsDict()
	requested := strings.TrimSpace(dictString(a, "name"))
	requireSig := false
	if v, ok := a.Get("require_signature"); ok {
		if v.k != KindBool {
			return skillToolError("invalid_arguments", requested, "load_skill `require_signature` must be a boolean"), false, nil
		}
		requireSig = v.AsBool()
	}
	if requested == "" {
		return skillToolError("invalid_arguments", "", "load_skill requires a non-empty `name` argument"), false, nil
	}
	entry, msg := resolveSkill(r.skills.skills, requested)
	if entry == nil {
		return skillToolError("skill_not_found", requested, msg), false, nil
	}
	id := skillID(entry)
	prov := NewDict(0)
	if p, ok := entry.Get("provenance"); ok && p.k == KindDict {
		prov = p.AsDict()
	}
	signed, trusted := optBool(prov, "signed"), optBool(prov, "trusted")
	meta := NewDict(4)
	meta.Set("skill_id", Str(id))
	if fp, ok := prov.Get("signer_fingerprint"); ok {
		meta.Set("signer_fingerprint", fp)
	} else {
		meta.Set("signer_fingerprint", Nil)
	}
	meta.Set("signed", Bool(signed))
	meta.Set("trusted", Bool(trusted))
	r.event("skill.loaded", id, meta)
	if skillDisabledForModel(DictValue(entry)) {
		return skillToolError("skill_model_invocation_disabled", id, "skill '"+id+"' is gated to explicit user invocation"), false, nil
	}
	required := requireSig || optBool(entry, "require_signature") || len(stringList(dictValue(entry, "trusted_signers"))) > 0
	if required && !signed {
		return skillToolError("UnsignedSkillError", id, orDefault(dictString(prov, "error"), "skill '"+id+"' is missing a valid signature")), false, nil
	}
	if required && !trusted {
		return skillToolError("UntrustedSignerError", id, orDefault(dictString(prov, "error"),
			"skill '"+id+"' was signed by untrusted signer "+orDefault(dictString(prov, "signer_fingerprint"), "unknown"))), false, nil
	}
	body, dir, err := r.c.th.in.skillBody(entry, "load_skill")
	if err != nil {
		return skillToolError("skill_not_found", requested, asError(err).Message()), false, nil
	}
	rendered := substituteSkillBody(body, nil, dir, r.cfg.sessionID)
	loaded := activeSkillOf(DictValue(entry))
	loaded.prompt = rendered
	replaced := false
	for i := range r.skills.loaded {
		if r.skills.loaded[i].name == loaded.name {
			r.skills.loaded[i], replaced = loaded, true
		}
	}
	if !replaced {
		r.skills.loaded = append(r.skills.loaded, loaded)
	}
	r.successful = addUnique(r.successful, "load_skill")
	return rendered, true, nil
}

// loadSkillSchema is the load_skill tool as a native tool schema.
func loadSkillSchema() Value {
	props := NewDict(2)
	name := strDict("type", "string", "description", "Skill id from the always-on catalog.")
	props.Set("name", DictValue(name))
	props.Set("require_signature", DictValue(strDict("type", "boolean",
		"description", "When true, fail unless the skill has a valid signature from a trusted signer.")))
	return runtimeTool("load_skill", "Promote a skill's full body into the next turn's context. Accepts the skill id returned by the always-on catalog.", props, "name")
}

// turnSurface is a turn's system prompt and native tools: with client
// tool search, the tools it makes visible; with skills, after the match
// phase, the active-skill block joins the prompt, the
// tools are those the skills allow, and load_skill is offered.
func (r *loopRun) turnSurface() (string, []Value) {
	cfg := *r.cfg
	if r.search != nil {
		cfg.tools = r.search.visible(cfg.tools)
	}
	if r.skills == nil {
		return cfg.systemPrompt(r.base), cfg.nativeTools()
	}
	r.skillPhase()
	cfg.tools = r.skills.scopeTools(cfg.tools)
	tools := cfg.nativeTools()
	if cfg.toolFormat == "native" && len(r.skills.skills) > 0 {
		tools = append(tools, loadSkillSchema())
	}
	return cfg.systemPrompt(withSkillSection(r.base, r.skills.section())), tools
}

func installSkillLoad(lib *Library) {
	lib.Builtin("skill_render", func(c *Call, args []Value) (Value, error) {
		if len(args) == 0 {
			return Nil, throwValue(Str("skill_render: requires a skill entry or body string"))
		}
		var body, dir string
		switch v := args[0]; v.k {
		case KindString:
			body = v.AsString()
		case KindDict:
			var err error
			if body, dir, err = c.th.in.skillBody(v.AsDict(), "skill_render"); err != nil {
				body, dir = "", ""
			}
		default:
			return Nil, throwValue(Str("skill_render: first argument must be a skill entry or a string body"))
		}
		var list []string
		switch a := Arg(args, 1); a.k {
		case KindList:
			list = stringList(a)
		case KindNil:
		default:
			return Nil, throwValue(Str("skill_render: second argument must be a list of strings"))
		}
		return Str(substituteSkillBody(body, list, dir, "")), nil
	})
	lib.Builtin("load_skill", func(c *Call, args []Value) (Value, error) {
		name := Display(Arg(args, 0))
		if Arg(args, 0).k == KindNil || name == "" {
			return Nil, throwValue(Str("load_skill: requires a non-empty skill name"))
		}
		entry, msg := resolveSkill(dictList(c.th.in.fsSkills().registry.AsDict(), "skills"), name)
		if entry == nil {
			return Nil, throwValue(Str(msg))
		}
		body, dir, err := c.th.in.skillBody(entry, "load_skill")
		if err != nil {
			return Nil, throwValue(Str(asError(err).Message()))
		}
		return Str(substituteSkillBody(body, nil, dir, "")), nil
	})
}
