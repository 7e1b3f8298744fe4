import type { Diagnostic } from '../../model';
import { evaDiagnostic } from './diagnostics';
import type { EvaProject } from './project';
import { firstSchemaError } from './schemaSubset';

/**
 * Whether the shipped Eva-CLI fails on the project's `config/eva.yaml` (eva.md §4.5): it did not
 * load, or it breaks the `eva` schema (`evaSchema`), which adds its diagnostic to `diagnostics`.
 */
export function projectConfigFails(project: EvaProject, evaSchema: unknown, diagnostics: Diagnostic[]): boolean {
  let evaYamlFails = project.shippedError;
  if (project.document) {
    // Upstream checks the layered value first (`validate_yaml_value_with_schema`), then the base
    // file alone (`validate_config_files_with_schemas`): a layer may break the schema too.
    const layered = project.value === undefined ? undefined : firstSchemaError(evaSchema, project.value);
    const e = layered ?? firstSchemaError(evaSchema, project.document.value);
    if (e) {
      diagnostics.push(
        evaDiagnostic(
          project.configFile,
          // A missing field points at the mapping that lacks it, which is what e.path names.
          project.document.fieldRange(e.path),
          'eva.project.config-invalid',
          `${e.message}: ${e.field}`,
        ),
      );
      evaYamlFails = true;
    }
  }
  return evaYamlFails;
}
