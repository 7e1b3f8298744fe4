import type { DocPath } from '../../documents/document';
import type { Checker, EvaPermissions } from './contracts';
import { structField } from './serdeStruct';
import { isMapping, untag, yamlTypeName } from './yamlValue';

/**
 * The permissions a skill asks for (eva.md §2.3, §2.5; the descriptor's `permissions`, §3.1): a
 * skill adapter's `permissions` table, and a lua_skill's as serde reads `RawCapabilityPermissions`
 * (upstream manifest/capability.rs). A value of the wrong type is a schema error and asks for
 * nothing (fail closed).
 */

const NO_PERMISSIONS: EvaPermissions = {
  readWorkspace: false,
  writeWorkspace: false,
  network: false,
  shell: false,
  env: [],
  fsRead: [],
  fsWrite: [],
  adapterCapabilities: [],
  adapterProviders: [],
};

/** One boolean of a `permissions` table: absent is false; any other type is a schema error, read as false (fail closed). */
function permissionFlag(c: Checker, table: Record<string, unknown>, key: string): boolean {
  const b = table[key];
  if (b === undefined) return false;
  if (typeof b !== 'boolean')
    return (
      c.error(
        'eva.schema.type',
        `schema type mismatch: expected boolean, got ${yamlTypeName(b)}`,
        ['permissions', key],
        false,
      ),
      false
    );
  return b;
}

export function adapterPermissions(c: Checker, v: unknown): EvaPermissions {
  if (!isMapping(v)) return NO_PERMISSIONS;
  const bool = (key: string): boolean => permissionFlag(c, v, key);
  return {
    ...NO_PERMISSIONS,
    readWorkspace: bool('read_workspace'),
    writeWorkspace: bool('write_workspace'),
    network: bool('network'),
    shell: bool('shell'),
    env: strings(c, v['env'], ['permissions', 'env']),
  };
}

/**
 * A lua_skill's `permissions` as serde reads them (no local tag in what it buffers, checked
 * first): the structs `RawCapabilityPermissions` and its `adapters` under any tag
 * (`permissions: !t {network: true}` requests network), their `Vec<String>`s too.
 */
export function luaPermissions(c: Checker, manifest: Record<string, unknown>): EvaPermissions {
  const v = untag(structField(manifest, 'permissions'));
  if (!isMapping(v)) return NO_PERMISSIONS;
  const bool = (key: string): boolean => permissionFlag(c, v, key);
  const fs = isMapping(v['fs']) ? v['fs'] : undefined;
  const adapters = untag(structField(v, 'adapters'));
  const list = (key: string): unknown => {
    const items = isMapping(adapters) ? untag(structField(adapters, key)) : undefined;
    return Array.isArray(items) ? items.map(untag) : items;
  };
  return {
    ...NO_PERMISSIONS,
    network: bool('network'),
    shell: bool('shell'),
    env: strings(c, v['env'], ['permissions', 'env']),
    fsRead: strings(c, fs?.['read'], ['permissions', 'fs', 'read']),
    fsWrite: strings(c, fs?.['write'], ['permissions', 'fs', 'write']),
    adapterCapabilities: strings(c, list('capabilities'), ['permissions', 'adapters', 'capabilities']),
    adapterProviders: strings(c, list('providers'), ['permissions', 'adapters', 'providers']),
  };
}

function strings(c: Checker, v: unknown, field: DocPath): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) {
    c.error('eva.schema.type', `schema type mismatch: expected array of strings, got ${yamlTypeName(v)}`, field, false);
    return [];
  }
  return v as string[];
}
