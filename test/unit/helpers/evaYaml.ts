import { parseEvaYaml, type YamlDocument, type YamlOutcome } from '../../../src/core/systems/eva/yamlDocument';

/** A YAML text Eva's profile reads: its document (the test fails with the parse error otherwise). */
export function parsedYaml(text: string): YamlDocument {
  const r = parseEvaYaml('/x.yaml', text);
  if (!r.ok) throw new Error(r.message);
  return r.document;
}

/** A YAML text Eva's profile refuses: its error, with where it points. */
export function yamlError(text: string): Extract<YamlOutcome, { ok: false }> {
  const r = parseEvaYaml('/x.yaml', text);
  if (r.ok) throw new Error('expected a parse error');
  return r;
}
