import type { DocPath } from '../../documents/document';
import type { YamlDocument } from './yamlDocument';
import { stringField, U32_MAX, u64Field } from './rawManifestSerde';
import { unknownProviderField } from './unknownProviderField';
import type { ProviderRuleError } from './serdeWords';

const RESTART_MODES: readonly string[] = ['none', 'on_failure', 'always'];

/** `parse_provider_restart`. */
export function restartError(
  doc: YamlDocument,
  r: Record<string, unknown> | undefined,
  processBacked: boolean,
): ProviderRuleError | undefined {
  if (r === undefined) return undefined;
  const at: DocPath = ['supervision', 'restart'];
  const unknown = unknownProviderField(doc, at, r, ['mode', 'max_attempts', 'backoff_ms']);
  if (unknown) return unknown;
  const mode = stringField(doc, at, r, 'mode');
  if (mode === undefined) return { message: 'explicit provider restart config requires mode', path: [...at, 'mode'] };
  if (!RESTART_MODES.includes(mode)) return { message: 'unsupported provider restart mode', path: [...at, 'mode'] };
  const maxAttempts = u64Field(doc, at, r, 'max_attempts') ?? 0n;
  if (maxAttempts > U32_MAX)
    return { message: 'provider restart max_attempts exceeds u32', path: [...at, 'max_attempts'] };
  const backoff = u64Field(doc, at, r, 'backoff_ms') ?? 0n;
  if (mode === 'none' && (maxAttempts !== 0n || backoff !== 0n))
    return { message: 'restart mode none requires zero max_attempts and backoff_ms', path: at };
  if (mode !== 'none' && (maxAttempts === 0n || backoff === 0n))
    return { message: 'automatic restart requires positive max_attempts and backoff_ms', path: at };
  if (mode !== 'none' && !processBacked)
    return { message: 'automatic restart requires a process-backed Adapter transport', path: [...at, 'mode'] };
  return undefined;
}
