package ai

import (
	"fmt"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Report artifact contracts: llm.report_artifact_contract(opts) (alias
// reportArtifactContract) returns the data boundary of a
// report-producing workflow as an ordinary table: {name, version,
// offline_verifiable: true, renderer_required: false, schemas,
// manifest_template, required_markers}. opts may set name (default
// "report_artifact_contract") and version (default "FR-GAP-012", as
// upstream Leia). The schemas are JSON Schemas (llm.schema of
// lightweight specs) for:
//
//   - report_section: ordered section content with chart and source refs
//     and AI disclosure flags;
//   - chart_spec: chart intent, source refs, planned/rendered artifact;
//   - artifact_manifest: report id, generated time, sections, chart
//     specs, artifacts, source annotations, warnings, disclosure;
//   - source_annotation: source identity, locator, freshness (as_of,
//     stale_after, stale), optional license, retrieval time, evidence
//     hash.
//
// The helper renders nothing, fetches nothing and verifies no citation;
// produced report tables are checked with llm.validate_output or
// ordinary asserts.

func fields(kv ...any) leia.Value { return T(kv...) }

func arrayOf(item any) leia.Value { return List(toValue(item)) }

func artifactSpec() leia.Value {
	return fields("id", "string", "kind", "string", "path", "string", "status", "string")
}

func sourceAnnotationSchema() leia.Value {
	return Schema(fields("id", "string", "title", "string", "kind", "string", "locator", "string",
		"as_of", "string", "stale_after", "string", "stale", "boolean",
		"license", "string?", "retrieved_at", "string?", "evidence_hash", "string?"))
}

// ReportArtifactContract builds the contract.
func ReportArtifactContract(opts leia.Value) leia.Value {
	name := optString(opts, "name", "report_artifact_contract")
	version := optString(opts, "version", "FR-GAP-012")
	schemas := leia.NewTable(0, 4)
	schemas.SetStr("report_section", Schema(fields("id", "string", "title", "string", "order", "integer",
		"required", "boolean", "content", "string", "chart_refs", arrayOf("string"), "source_refs", arrayOf("string"),
		"ai_disclosure", "boolean", "disclosure_ref", "string?")))
	schemas.SetStr("chart_spec", Schema(fields("id", "string", "title", "string", "section_id", "string",
		"kind", "string", "renderer", "string", "source_refs", arrayOf("string"), "x", "string",
		"series", arrayOf("string"), "artifact", artifactSpec())))
	schemas.SetStr("artifact_manifest", Schema(fields("contract", "string", "report_id", "string",
		"generated_at", "string", "report_sections", arrayOf("string"), "chart_specs", arrayOf("string"),
		"artifacts", arrayOf(artifactSpec()), "source_annotations", arrayOf(sourceAnnotationSchema()),
		"warnings", arrayOf("string"), "ai_disclosure", "string")))
	schemas.SetStr("source_annotation", sourceAnnotationSchema())
	return T("name", name, "version", version, "offline_verifiable", true, "renderer_required", false,
		"schemas", leia.TableValue(schemas),
		"manifest_template", T("contract", version, "renderer", "planned_not_rendered", "offline_verifiable", true,
			"warnings", leia.TableValue(newList())),
		"required_markers", StringList([]string{"report_sections", "chart_specs", "artifact_manifest",
			"source_annotations", "stale_data_warning", "ai_disclosure"}))
}

// reportFamily is the llm module's natives from this file (see families).
func reportFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	withCamel(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		o := leia.Arg(a, 0)
		if !o.IsNil() && o.Table() == nil {
			return nil, fmt.Errorf("bad argument #1 to 'llm.report_artifact_contract' (options table expected)")
		}
		return t.Ret1(ReportArtifactContract(o)), nil
	}, "report_artifact_contract")
	return m
}
