// Package dsl turns a tree-sitter grammar.js into grammar.json without the
// tree-sitter CLI.
//
// It runs Node.js on a small ESM script of ours (shim.mjs, embedded here)
// that defines the grammar DSL globals (grammar, seq, choice, repeat,
// repeat1, optional, prec and its left/right/dynamic forms, token,
// token.immediate, alias, field, blank, reserved, the `$` rule proxy and
// grammar inheritance), imports the grammar with a dynamic import() so that
// CommonJS and ESM grammars both load, and prints the grammar as the CLI
// would write src/grammar.json (the format of tree-sitter 0.25: "$schema"
// first, "reserved" always present, two-space indentation, no trailing
// newline).
//
// The package knows nothing about what the grammar means; validation is the
// generator's job.
package dsl

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

//go:embed shim.mjs
var shimSource []byte

// ErrNodeMissing reports that no Node.js executable was found.
var ErrNodeMissing = errors.New("dsl: node (Node.js) not found in PATH; it is needed to evaluate grammar.js " +
	"(install Node.js, set HARN_NODE to its path, or give the generator a grammar.json instead)")

// DefaultTimeout bounds one evaluation of a grammar.js by GrammarJSON.
const DefaultTimeout = 2 * time.Minute

// NodePath returns the Node.js executable to use: $HARN_NODE if set, else
// "node" from PATH. It returns ErrNodeMissing when neither exists.
func NodePath() (string, error) {
	if p := os.Getenv("HARN_NODE"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("dsl: HARN_NODE=%s: %w", p, err)
		}
		return p, nil
	}
	p, err := exec.LookPath("node")
	if err != nil {
		return "", ErrNodeMissing
	}
	return p, nil
}

// GrammarJSON evaluates the grammar.js at grammarJSPath and returns its
// grammar.json. It is GrammarJSONContext with DefaultTimeout.
func GrammarJSON(grammarJSPath string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeout)
	defer cancel()
	return GrammarJSONContext(ctx, grammarJSPath)
}

// GrammarJSONContext is GrammarJSON with a caller-chosen context; the node
// process is killed when ctx ends. Errors from the grammar (a JavaScript
// exception, a rule returning undefined, an undefined symbol) carry node's
// message, which names the grammar file and line.
func GrammarJSONContext(ctx context.Context, grammarJSPath string) ([]byte, error) {
	node, err := NodePath()
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(grammarJSPath)
	if err != nil {
		return nil, fmt.Errorf("dsl: %s: %w", grammarJSPath, err)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("dsl: %w", err)
	}
	dir, err := os.MkdirTemp("", "harn-dsl-")
	if err != nil {
		return nil, fmt.Errorf("dsl: %w", err)
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "shim.mjs")
	if err := os.WriteFile(script, shimSource, 0o600); err != nil {
		return nil, fmt.Errorf("dsl: %w", err)
	}

	cmd := exec.CommandContext(ctx, node, script, abs)
	cmd.Dir = filepath.Dir(abs) // relative require()s resolve from the grammar either way
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("dsl: evaluating %s: %w", grammarJSPath, ctx.Err())
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("dsl: evaluating %s failed:\n%s", grammarJSPath, msg)
	}
	if stdout.Len() == 0 || stdout.Bytes()[0] != '{' {
		return nil, fmt.Errorf("dsl: evaluating %s printed no grammar (stderr: %s)", grammarJSPath, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}
