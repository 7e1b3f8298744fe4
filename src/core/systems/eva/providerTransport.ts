import { isMapping } from './yamlValue';
import type { YamlDocument } from './yamlDocument';
import { structField } from './serdeStruct';
import { manifestString } from './rawManifestSerde';
import { mappingGet } from './yamlMappingKeys';

/** `provider_transport_supports_process`: stdio, a skill with a command, an MCP stdio server. */
export function transportSupportsProcess(doc: YamlDocument, manifest: Record<string, unknown>): boolean {
  // `command`, `skill` and `mcp` are found in the flattened `Mapping` by their key's text; what
  // is inside them is a value, whose keys `Mapping::get` compares as values. The transport is
  // the `AdapterTransport` parsed from serde's `String`: `transport: !t skill` is a skill.
  switch (manifestString(doc, manifest, 'transport')) {
    case 'stdio':
      return true;
    case 'skill': {
      const runner = recordOf(mappingGet(recordOf(structField(manifest, 'skill')), 'runner'));
      return typeof structField(manifest, 'command') === 'string' || typeof mappingGet(runner, 'command') === 'string';
    }
    case 'mcp': {
      const serverTransport = mappingGet(recordOf(structField(manifest, 'mcp')), 'server_transport');
      return typeof serverTransport !== 'string' || serverTransport === 'stdio';
    }
    default:
      return false;
  }
}

function recordOf(v: unknown): Record<string, unknown> {
  return isMapping(v) ? v : {};
}
