package harn

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/runtime/execution"
)

// declareGlobals gives every top-level name of the file a global before
// any body compiles, so functions may refer to each other (and to
// top-level bindings) in any order.
func (c *compiler) declareGlobals(f *ast.File) {
	m := c.mod
	for _, it := range f.Items {
		switch d := it.(type) {
		case *ast.FuncDecl:
			if d.Name != nil {
				m.addGlobal(d.Name.Name)
			}
		case *ast.StructDecl:
			if d.Name != nil {
				m.addGlobal(d.Name.Name)
			}
		case *ast.EnumDecl:
			if d.Name != nil {
				m.addGlobal(d.Name.Name)
			}
		case *ast.TypeAlias:
			if d.Name != nil {
				m.addGlobal(d.Name.Name)
			}
		case *ast.ToolDecl:
			if d.Name != nil {
				m.addGlobal(d.Name.Name)
			}
		case *ast.SkillDecl:
			if d.Name != nil {
				m.addGlobal(d.Name.Name)
			}
		case *ast.VarDecl:
			for _, n := range patternNames(d.Pattern) {
				m.addGlobal(n)
			}
		}
	}
}

// patternNames lists the names a binding pattern binds.
func patternNames(p ast.Pattern) []string {
	var out []string
	var walk func(ast.Pattern, int)
	walk = func(p ast.Pattern, depth int) {
		if depth > maxCompileDepth {
			return
		}
		switch p := p.(type) {
		case *ast.Ident:
			if p.Name != "_" {
				out = append(out, p.Name)
			}
		case *ast.DictPattern:
			for _, e := range p.Entries {
				if e.Pattern == nil {
					out = append(out, e.Key)
				} else {
					walk(e.Pattern, depth+1)
				}
			}
			if p.Rest != nil {
				out = append(out, p.Rest.Name)
			}
		case *ast.ListPattern:
			for _, e := range p.Elements {
				walk(e.Pattern, depth+1)
			}
			if p.Rest != nil {
				out = append(out, p.Rest.Name)
			}
		case *ast.PairPattern:
			walk(p.First, depth+1)
			walk(p.Second, depth+1)
		}
	}
	walk(p, 0)
	return out
}

// resolveImports loads every imported module and binds the names it
// brings.
func (c *compiler) resolveImports(f *ast.File) error {
	m := c.mod
	for _, im := range f.Imports() {
		var spec string
		if im.Source != nil {
			s, ok := im.Source.Value()
			if !ok {
				continue
			}
			spec = s
		} else {
			parts := make([]string, len(im.Path))
			for i, p := range im.Path {
				parts[i] = p.Name
			}
			spec = strings.Join(parts, "/")
		}
		var sub *module
		if strings.HasPrefix(spec, "std/") {
			var err error
			sub, err = c.in.stdModule(spec)
			if err != nil {
				return c.importError(im, err)
			}
		} else {
			p, src, err := c.in.resolveImport(m.path, spec)
			if err != nil {
				return c.importError(im, err)
			}
			if c.in.loading[cleanPath(p)] {
				// An import cycle: bind what the module has declared so far.
				sub = c.in.modules[cleanPath(p)]
			} else {
				sub, err = c.in.load(p, src)
				if err != nil {
					return err
				}
			}
		}
		m.deps = append(m.deps, sub)
		// Two imports binding one name to different definitions collide,
		// as upstream's import does: which one a call meant is unknowable.
		bind := func(name string, ref importRef) error {
			if prev, ok := m.imports[name]; ok && prev != ref {
				return c.importError(im, fmt.Errorf("Import collision: '%s' is already defined when importing %s. Use selective imports to disambiguate: import { %s } from \"...\"", name, sub.path, name))
			}
			m.imports[name] = ref
			if im.Pub {
				m.exports[name] = ref
			}
			return nil
		}
		if im.Names == nil {
			names := make([]string, 0, len(sub.exports))
			for name := range sub.exports {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				if err := bind(name, sub.exports[name]); err != nil {
					return err
				}
			}
			continue
		}
		for _, n := range im.Names {
			ref, ok := sub.exports[n.Name]
			if !ok {
				if idx, found := sub.globalIndex[n.Name]; found {
					ref = importRef{mod: sub, index: idx}
				} else {
					return c.importError(im, fmt.Errorf("module %s has no export %s", spec, n.Name))
				}
			}
			if err := bind(n.Name, ref); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *compiler) importError(im *ast.Import, err error) error {
	line, col := c.mod.position(im.Span.Start)
	return fmt.Errorf("%s:%d:%d: %v", c.mod.path, line, col, err)
}

// compileModule compiles the top level into the module's init function,
// registers pipelines and computes the exports.
func (c *compiler) compileModule(f *ast.File) {
	m := c.mod
	fs := &fnScope{proto: &funcProto{name: "", mod: m, span: f.Span}, module: true}
	fs.block = &blockScope{names: map[string]*local{}, top: true}
	c.fn = fs
	var stmts []ast.Stmt
	for _, it := range f.Items {
		switch d := it.(type) {
		case *ast.Import:
			continue
		case *ast.Pipeline:
			if d.Name != nil {
				m.pipelineDecls[d.Name.Name] = d
				m.pipelineOrder = append(m.pipelineOrder, d.Name.Name)
			}
			continue
		}
		stmts = append(stmts, it)
	}
	body, hasDefer := c.compileStmtList(stmts)
	if hasDefer {
		body = withDefers(body)
	}
	if len(fs.prelude) > 0 {
		body = seq(append(append([]evalFn(nil), fs.prelude...), body))
	}
	// Pipelines compile after the top level so they see every global.
	for _, name := range m.pipelineOrder {
		d := m.pipelineDecls[name]
		m.pipelines[name] = c.pipeline(d)
	}
	fs.proto.body = body
	fs.proto.ret = body
	fs.proto.nslots = fs.nslots
	m.init = fs.proto
	c.computeExports(f)
}

// computeExports: `pub` declarations, or every function when the module
// marks none pub; types always travel.
func (c *compiler) computeExports(f *ast.File) {
	m := c.mod
	anyPub := false
	for _, it := range f.Items {
		if fd, ok := it.(*ast.FuncDecl); ok && fd.Pub {
			anyPub = true
		}
	}
	exp := func(name string) {
		if idx, ok := m.globalIndex[name]; ok {
			if _, dup := m.exports[name]; !dup {
				m.exports[name] = importRef{mod: m, index: idx}
			}
		}
	}
	for _, it := range f.Items {
		switch d := it.(type) {
		case *ast.FuncDecl:
			if d.Name != nil && (d.Pub || !anyPub) {
				exp(d.Name.Name)
			}
		case *ast.StructDecl:
			if d.Name != nil {
				exp(d.Name.Name)
			}
		case *ast.EnumDecl:
			if d.Name != nil {
				exp(d.Name.Name)
			}
		case *ast.TypeAlias:
			if d.Name != nil {
				exp(d.Name.Name)
			}
		case *ast.ToolDecl:
			if d.Name != nil && (d.Pub || !anyPub) {
				exp(d.Name.Name)
			}
		case *ast.SkillDecl:
			if d.Name != nil {
				exp(d.Name.Name)
			}
		case *ast.VarDecl:
			if !anyPub {
				for _, n := range patternNames(d.Pattern) {
					exp(n)
				}
			}
		}
	}
}

// initModule runs a module's top level once, after its imports'.
func (th *thread) initModule(m *module) error {
	if m.initialized {
		return nil
	}
	m.initialized = true
	for _, d := range m.deps {
		if err := th.initModule(d); err != nil {
			return err
		}
	}
	if m.init == nil {
		return nil
	}
	f := th.pushFrame(m.init.nslots, nil)
	_, err := m.init.body(f)
	if len(f.defers) > 0 {
		err = runDefers(f, err)
	}
	th.popFrame(f)
	if err == errReturn {
		err = nil
	}
	return err
}

// Result is the outcome of running a program.
type Result struct {
	// Value is what the entry returned.
	Value Value
}

// Run loads the program at path (content src), runs its top level and
// then its entry: `fn main(harness)`, else the pipeline named default,
// else the first pipeline. Without either, the top level is the program
// (script mode). ctx and Options.Limits bound the run: a cancellation, a
// limit or a deadlock stops the program with an error no `catch` can
// intercept (an execution.IsStop error).
func (in *Interp) Run(ctx context.Context, path string, src []byte) (res Result, err error) {
	in.run = execution.Start(ctx, in.opts.Limits)
	holding := false
	defer func() {
		// Tasks and generators still running or waiting stop: the turn
		// is closed before the main program lets go of it, so none runs
		// program code again (nothing the program started writes after
		// Run returns), and goroutines in a host call get a moment to
		// notice the cancelled context.
		in.run.End()
		in.run.Turn().Close()
		if holding {
			in.run.Turn().Release()
		}
		in.waitLive(endGrace)
	}()
	defer func() {
		if r := recover(); r != nil {
			err = internalError(r)
		}
	}()
	m, err := in.load(path, src)
	if err != nil {
		return Result{}, err
	}
	hookMods, err := in.loadManifestHooks()
	if err != nil {
		return Result{}, err
	}
	th := in.newThread(in.run.Context(), in.rootTask())
	holding = in.run.Turn().Acquire(nil)
	for _, hm := range hookMods {
		if err := th.initModule(hm); err != nil {
			return Result{}, in.finish(err)
		}
	}
	if err := th.initModule(m); err != nil {
		return Result{}, in.finish(err)
	}
	entry, args := in.entry(m)
	if entry == nil {
		return Result{}, nil
	}
	v, err := th.callClosure(entry, args)
	if err != nil {
		return Result{}, in.finish(err)
	}
	return Result{Value: v}, nil
}

// endGrace bounds how long Run waits, after the run ended, for goroutines
// still inside a host call (they cannot run program code any more).
const endGrace = 500 * time.Millisecond

// waitLive waits for the run's goroutines, at most d (a goroutine stuck
// in a host call that ignores cancellation is left behind).
func (in *Interp) waitLive(d time.Duration) {
	done := make(chan struct{})
	go func() {
		in.live.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// finish turns the run's last error into what Run returns.
func (in *Interp) finish(err error) error {
	switch e := err.(type) {
	case *Error:
		return e
	case controlFlow:
		return runtimeError("%s", e.Error())
	case taskCancelled:
		return runtimeError("%s", e.Error())
	}
	if stop := execution.AsStop(err); stop != nil {
		return stop
	}
	return err
}

// entry picks what runs after the top level.
func (in *Interp) entry(m *module) (*Closure, []Value) {
	if idx, ok := m.globalIndex["main"]; ok && m.mainFn == "main" {
		if v := m.globals[idx]; v.k == KindClosure {
			cl := v.r.(*Closure)
			var args []Value
			if len(cl.proto.params) > 0 {
				args = []Value{in.Harness()}
			}
			return cl, args
		}
	}
	name := ""
	if _, ok := m.pipelines["default"]; ok {
		name = "default"
	} else if len(m.pipelineOrder) > 0 {
		name = m.pipelineOrder[0]
	}
	if name == "" {
		return nil, nil
	}
	cl := m.pipelines[name]
	in.pipelineName = name
	args := make([]Value, len(cl.proto.params))
	for i, p := range cl.proto.params {
		switch p.name {
		case "task":
			args[i] = Str("")
		case "project":
			args[i] = Str(in.host.Root())
		case "harness":
			args[i] = in.Harness()
		}
	}
	return cl, args
}

// pipeline compiles a pipeline as a function. `extends parent` runs the
// parent's statements first, with the child's `override` declarations
// replacing the parent's functions of the same name, then the child's.
func (c *compiler) pipeline(d *ast.Pipeline) *Closure {
	var stmts []ast.Stmt
	if d.Parent != nil {
		if parent, ok := c.mod.pipelineDecls[d.Parent.Name]; ok && parent != d && parent.Body != nil {
			overrides := map[string]*ast.Override{}
			if d.Body != nil {
				for _, s := range d.Body.Stmts {
					if o, ok := s.(*ast.Override); ok && o.Name != nil {
						overrides[o.Name.Name] = o
					}
				}
			}
			for _, s := range parent.Body.Stmts {
				if fd, ok := s.(*ast.FuncDecl); ok && fd.Name != nil {
					if o, ok := overrides[fd.Name.Name]; ok {
						stmts = append(stmts, &ast.FuncDecl{Span: o.Span, Name: o.Name, Params: o.Params, Body: o.Body})
						delete(overrides, fd.Name.Name)
						continue
					}
				}
				stmts = append(stmts, s)
			}
			for _, o := range overrides {
				stmts = append(stmts, &ast.FuncDecl{Span: o.Span, Name: o.Name, Params: o.Params, Body: o.Body})
			}
		}
	}
	if d.Body != nil {
		for _, s := range d.Body.Stmts {
			if _, ok := s.(*ast.Override); ok {
				continue
			}
			stmts = append(stmts, s)
		}
	}
	p := c.compileFunction(d.Name.Name, d.Span, d.Params, stmts, false, false)
	return &Closure{proto: p}
}

// internalError reports a bug in the interpreter (a recovered panic); with
// HARN_DEBUG set, the Go stack is included.
func internalError(r any) error {
	msg := fmt.Sprintf("internal error: %v (this is a bug in harn-check; please report it with the program)", r)
	if os.Getenv("HARN_DEBUG") != "" {
		msg += "\n" + string(debug.Stack())
	}
	return fmt.Errorf("%s", msg)
}
