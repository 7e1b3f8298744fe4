import type { DocPath } from '../../documents/document';
import { rustTrim } from '../../text/rustText';
import type { YamlDocument } from './yamlDocument';
import { stringField, U32_MAX, u64Field } from './rawManifestSerde';
import { unknownProviderField } from './unknownProviderField';
import type { ProviderRuleError } from './serdeWords';

/** `parse_provider_run_as`. */
export function runAsError(
  doc: YamlDocument,
  r: Record<string, unknown> | undefined,
  processBacked: boolean,
): ProviderRuleError | undefined {
  if (r === undefined) return undefined;
  const at: DocPath = ['supervision', 'run_as'];
  const unknown = unknownProviderField(doc, at, r, ['kind', 'uid', 'gid', 'account']);
  if (unknown) return unknown;
  const kind = stringField(doc, at, r, 'kind');
  if (kind === undefined) return { message: 'explicit run_as config requires kind', path: [...at, 'kind'] };
  const uid = u64Field(doc, at, r, 'uid');
  const gid = u64Field(doc, at, r, 'gid');
  const account = stringField(doc, at, r, 'account');
  switch (kind) {
    case 'current':
      if (uid !== undefined || gid !== undefined || account !== undefined)
        return { message: 'current identity cannot declare uid, gid, or account', path: at };
      return undefined;
    case 'unix':
      if (account !== undefined)
        return { message: 'Unix identity cannot declare a Windows account', path: [...at, 'account'] };
      for (const [key, id] of [
        ['uid', uid],
        ['gid', gid],
      ] as const)
        if (id === undefined || id > U32_MAX)
          return { message: 'run_as numeric identity is required and must fit u32', path: [...at, key] };
      break;
    case 'windows':
      if (uid !== undefined || gid !== undefined)
        return { message: 'Windows identity cannot declare Unix uid or gid', path: at };
      if (account === undefined) return { message: 'Windows identity requires an account', path: [...at, 'account'] };
      if (!windowsAccountValid(account))
        return {
          message: 'Windows account is empty, untrimmed, oversized, or contains controls',
          path: [...at, 'account'],
        };
      break;
    default:
      return { message: 'unsupported provider run_as kind', path: [...at, 'kind'] };
  }
  return processBacked
    ? undefined
    : { message: 'non-current identity requires a process-backed Adapter transport', path: [...at, 'kind'] };
}

/** Not blank or padded (Rust's `trim`), at most 256 UTF-8 bytes, no `char::is_control` (Cc). */
function windowsAccountValid(account: string): boolean {
  const trimmed = rustTrim(account);
  return trimmed !== '' && trimmed === account && Buffer.byteLength(account, 'utf8') <= 256 && !/\p{Cc}/u.test(account);
}
