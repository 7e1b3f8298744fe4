import * as z from 'zod';
import { option, text, textList } from './schemas';
import { STANDARD_SERVER_FIELDS, standardServersShape } from './mcpJson';
import type { SerdeShape } from './repeatedKeys';
import { ownRecord } from '../../../documents/ownRecord';
import type { DocPath, ParsedDocument } from '../../../documents/document';
import {
  AUTHOR_FIELDS,
  KIMI_FIELDS,
  KIMI_INTERFACE_FIELDS,
  KIMI_OVERRIDE_FIELDS,
  KIMI_SERVER_FIELDS,
  sequenceAsStruct,
} from './serdeSequence';

const pathList = z.union([text, z.array(text)]);

// Each struct may be written as an array too, as serde reads it (serdeSequence.ts).
export const kimiServer = sequenceAsStruct(
  KIMI_SERVER_FIELDS,
  z.strictObject({ ...STANDARD_SERVER_FIELDS, enabledTools: textList.optional() }),
);

export type KimiServer = z.infer<typeof kimiServer>;

/** A server as declared, with the document and the path it was read from: the manifest's own, or a Claude bundle's `.mcp.json`. */
export interface KimiServerSource {
  readonly id: string;
  readonly s: KimiServer;
  readonly doc: ParsedDocument;
  readonly base: DocPath;
}

const mcpOverride = sequenceAsStruct(
  KIMI_OVERRIDE_FIELDS,
  z.strictObject({ displayName: option(text), iconUrl: option(text) }),
);

/** `KimiPluginManifest` (codewhale.md §3.5). */
export const kimiManifest = sequenceAsStruct(
  KIMI_FIELDS,
  z.strictObject({
    $schema: option(text),
    name: text,
    version: option(text),
    description: option(text),
    keywords: textList.optional(),
    author: option(
      z.union([
        text,
        sequenceAsStruct(AUTHOR_FIELDS, z.strictObject({ name: text, email: option(text), url: option(text) })),
      ]),
    ),
    homepage: option(text),
    repository: option(text),
    license: option(text),
    skills: option(pathList),
    commands: option(pathList),
    agents: option(pathList),
    mcpServers: ownRecord(z.string(), kimiServer).optional(),
    interface: option(
      sequenceAsStruct(
        KIMI_INTERFACE_FIELDS,
        z.strictObject({
          displayName: option(text),
          shortDescription: option(text),
          longDescription: option(text),
          developerName: option(text),
          websiteURL: option(text),
          iconUrl: option(text),
          category: option(text),
          hostKind: option(text),
          platforms: textList.optional(),
          mcpOverrides: ownRecord(z.string(), mcpOverride).optional(),
        }),
      ),
    ),
  }),
);

/** `KimiPluginManifest`: the servers as in mcp.json, and `interface.mcpOverrides` a map of structs. */
export function kimiJsonShape(path: DocPath): SerdeShape {
  if (path.length === 2 && path[0] === 'interface' && path[1] === 'mcpOverrides')
    return { kind: 'map', values: mcpOverride };
  return standardServersShape(path, kimiServer);
}
