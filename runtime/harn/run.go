package harn

import (
	"context"
	"os"
	"path/filepath"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/evaluate"
	"github.com/harnlang/harn-check/runtime/host"
	"github.com/harnlang/harn-check/runtime/runner"
)

// RunProgram runs a Harn program with the library's builtins and the
// capabilities env grants: its folder and the temp dir are its file
// system, output goes to env's streams.
func (lib *Library) RunProgram(ctx context.Context, p runner.Program, env runner.Env) error {
	h, err := host.New(host.Config{
		Root:    filepath.Dir(p.Path),
		TempDir: env.TempDir,
		Grants:  env.Grants,
		WorkDir: env.WorkDir,
		Seed:    env.Seed,
		Stdin:   env.Stdin,
		Stdout:  env.Stdout,
		Stderr:  env.Stderr,
	})
	if err != nil {
		return err
	}
	defer h.Close() // removes the run's private temp dir
	opts := Options{Host: h, Library: lib, Args: p.Args, Limits: env.Limits, ModuleRoot: env.ModuleRoot}
	ecfg := env.Evaluation
	if env.LLM.NoLiveCalls {
		var c evaluate.Options
		if ecfg != nil {
			c = *ecfg
		}
		c.LLM.NoLiveCalls = true
		ecfg = &c
	}
	dir := filepath.Dir(p.Path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	project := catalog.FindProject(catalog.OS, dir)
	opts.Project = &project
	if opts.Evaluator, err = NewEvaluator(project, h, ecfg); err != nil {
		return err
	}
	if env.LLMMockReplay != "" {
		tape, err := os.ReadFile(env.LLMMockReplay)
		if err != nil {
			return err
		}
		opts.LLMMock, opts.LLMMockName = tape, env.LLMMockReplay
	}
	opts.LLM = env.LLM
	in, err := New(opts)
	if err != nil {
		return err
	}
	_, err = in.Run(ctx, p.Path, p.Src)
	return in.FinishLLM(err)
}
