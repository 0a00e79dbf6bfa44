package validator

import (
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/harnlang/harn-check/runtime/jsonschema"
)

// OnError is the on_validator_error policy.
type OnError string

// The policies.
const (
	// RejectOnError refuses the submission, sending the script's own error
	// back as the reason. The default.
	RejectOnError OnError = "reject"
	// AcceptOnError records the submission as if no validator were declared.
	AcceptOnError OnError = "accept"
)

// ParseOnError reads a policy; "" is the default, reject. Any other value
// is an error: a blueprint carrying it refuses to load.
func ParseOnError(s string) (OnError, error) {
	switch s {
	case "", "reject":
		return RejectOnError, nil
	case "accept":
		return AcceptOnError, nil
	}
	return "", fmt.Errorf("on_validator_error must be \"reject\" or \"accept\", found %q", s)
}

// BrokenScripts records, by label and once each, the validators that
// failed to run during a run. Safe for concurrent use.
type BrokenScripts struct {
	mu    sync.Mutex
	names []string
}

// Flag records label; it reports whether this was the first time.
func (b *BrokenScripts) Flag(label string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, n := range b.names {
		if n == label {
			return false
		}
	}
	b.names = append(b.names, label)
	return true
}

// Names returns the flagged labels in the order first flagged; never nil.
func (b *BrokenScripts) Names() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string{}, b.names...)
}

// Spec is one layer of output settings (agent, stage or request); nil
// fields are unset.
type Spec struct {
	Format *string
	// Schema is JSON Schema text.
	Schema *string
	// Validator is the label of a compiled validator. A request layer's
	// Validator is ignored: no request can supply one.
	Validator        *string
	OnValidatorError *OnError
}

// Resolved is the output spec in effect for one run of one stage.
type Resolved struct {
	Format, Schema, Validator string
	OnValidatorError          OnError
	// Reshaped is true when the request overrode the declared format:
	// the declared schema and validator are retired.
	Reshaped bool
}

// Resolve merges agent, stage and request per field, later winning. If the
// request names a format different (exact comparison) from the declared
// one, the run is reshaped: the declared schema and validator are dropped
// and only the request's schema is kept. Repeating the declared format
// keeps the validator; a stage format differing from the agent's is not a
// reshape, and a stage without its own validator inherits the agent's.
func Resolve(agent, stage, request Spec) Resolved {
	var r Resolved
	r.OnValidatorError = RejectOnError
	for _, l := range []Spec{agent, stage} {
		if l.Format != nil {
			r.Format = *l.Format
		}
		if l.Schema != nil {
			r.Schema = *l.Schema
		}
		if l.Validator != nil {
			r.Validator = *l.Validator
		}
		if l.OnValidatorError != nil {
			r.OnValidatorError = *l.OnValidatorError
		}
	}
	if request.Format != nil && *request.Format != r.Format {
		r.Format = *request.Format
		r.Schema, r.Validator = "", ""
		r.Reshaped = true
	}
	if request.Schema != nil {
		r.Schema = *request.Schema
	}
	return r
}

// Decision is what the output tool does with one submission.
type Decision struct {
	Accepted bool
	// Refusal is the message sent back to the agent when not accepted.
	Refusal string
	// Result is the validator's verdict; nil when no validator ran.
	Result *Result
	// Warnings are operator-facing notes (a skipped schema, a validator
	// that failed under accept).
	Warnings []string
}

const refusalPrefix = "[error] the final output was rejected: "

// Apply turns a validator result into a decision under policy, flagging a
// failed script in broken (which may be nil).
func Apply(label string, res Result, policy OnError, broken *BrokenScripts) Decision {
	d := Decision{Result: &res}
	switch res.Verdict {
	case Pass:
		d.Accepted = true
	case Reject:
		d.Refusal = refusalPrefix + res.Reason
	case Failure:
		if broken != nil {
			broken.Flag(label)
		}
		if policy == AcceptOnError {
			d.Accepted = true
			d.Warnings = append(d.Warnings, "output validator failed to run; recording the submission unchecked: "+res.Failure.Message)
		} else {
			d.Refusal = refusalPrefix + res.Failure.Message
		}
	}
	return d
}

// Checker runs the checks of the output tool on a submission, in order:
// emptiness, stage names, the built-in format check, the JSON Schema, the
// validator. The first failure refuses.
type Checker struct {
	// Validators by label, compiled when the agent spawned.
	Validators map[string]*Validator
	// Broken collects the labels of validators that failed to run.
	Broken *BrokenScripts
	// StageNames of the blueprint: an answer equal to one is refused.
	StageNames []string
}

// Submit checks content against spec.
func (c *Checker) Submit(spec Resolved, content string) Decision {
	trimmed := strings.TrimSpace(content)
	if trimmed == "" {
		return Decision{Refusal: "[error] the final output is empty"}
	}
	for _, n := range c.StageNames {
		if strings.EqualFold(strings.TrimSpace(n), trimmed) {
			return Decision{Refusal: fmt.Sprintf("[error] the final output is the stage name %q, not an answer", n)}
		}
	}
	format := strings.ToLower(strings.TrimSpace(spec.Format))
	if err := CheckFormat(format, content); err != nil {
		return Decision{Refusal: fmt.Sprintf("[error] the final output is not valid %s: %v", format, err)}
	}
	var warnings []string
	if spec.Schema != "" {
		ok, why, compiled := CheckSchema(spec.Schema, content)
		switch {
		case !compiled:
			warnings = append(warnings, "the output schema does not compile; recording the submission unchecked against it: "+why)
		case !ok:
			return Decision{Refusal: "[error] the final output does not match the output schema: " + why}
		}
	}
	if spec.Validator != "" {
		if v := c.Validators[spec.Validator]; v != nil {
			d := Apply(v.Label, v.Validate(content), spec.OnValidatorError, c.Broken)
			d.Warnings = append(warnings, d.Warnings...)
			return d
		}
	}
	return Decision{Accepted: true, Warnings: warnings}
}

// CheckFormat parses content for the formats with a built-in parser:
// json, xml, csv and toml. Other labels (yaml included, for which this
// module has no parser) are not checked.
func CheckFormat(format, content string) error {
	switch format {
	case "json":
		var v any
		dec := json.NewDecoder(strings.NewReader(content))
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if _, err := dec.Token(); err != io.EOF {
			return errors.New("unexpected data after the JSON value")
		}
	case "xml":
		dec := xml.NewDecoder(strings.NewReader(content))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	case "csv":
		_, err := csv.NewReader(strings.NewReader(content)).ReadAll()
		return err
	case "toml":
		var v map[string]any
		return toml.Unmarshal([]byte(content), &v)
	}
	return nil
}

// CheckSchema validates content (JSON) against schema (JSON Schema text).
// compiled is false when the schema itself does not compile: the check is
// then skipped (fail-open), whatever on_validator_error says, so one bad
// schema cannot make a run unable to finish.
func CheckSchema(schema, content string) (ok bool, why string, compiled bool) {
	sch, err := jsonschema.CompileJSON([]byte(schema))
	if err != nil {
		return true, err.Error(), false
	}
	inst, err := jsonschema.DecodeJSON([]byte(content))
	if err != nil {
		return false, "the output is not JSON: " + err.Error(), true
	}
	if err := sch.Validate(inst); err != nil {
		return false, err.Error(), true
	}
	return true, "", true
}
