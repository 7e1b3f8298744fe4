import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../diagnosticCodes';
import { displayPath } from './contract';
import { artifactUri } from './artifactUri';
import { sarifFingerprint } from './sarifFingerprint';
import type { Snapshot } from '../index/snapshot';

const LEVEL = { error: 'error', warning: 'warning', information: 'note' } as const;

/**
 * SARIF 2.1.0 for code scanning. Locations are relative to the workspace
 * (`%SRCROOT%`) so that uploads annotate the right file; lines and columns are 1-based.
 */
export function toSarif(snapshot: Snapshot, version: string, docsUrl: string): object {
  const used = [...new Set(snapshot.diagnostics.map((d) => d.code))].sort();
  const rules = used.map((id) => {
    const known = DIAGNOSTIC_CODES[id as DiagnosticCode];
    return {
      id,
      shortDescription: { text: known ? known[1] : id },
      helpUri: `${docsUrl}#${id.replace(/[^a-z0-9]+/g, '-')}`,
      defaultConfiguration: { level: LEVEL[known ? known[0] : 'warning'] },
    };
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'Skillgate', version, informationUri: docsUrl, rules } },
        originalUriBaseIds: Object.fromEntries(snapshot.workspaces.slice(0, 1).map((ws) => ['%SRCROOT%', { uri: `file://${artifactUri(ws.endsWith('/') ? ws : ws + '/', false)}` }])),
        results: snapshot.diagnostics.map((d) => {
          const uri = displayPath(d.file, snapshot.workspaces);
          const relative = !uri.startsWith('/');
          return {
            ruleId: d.code,
            ruleIndex: used.indexOf(d.code),
            level: LEVEL[d.severity],
            message: { text: d.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: relative ? { uri: artifactUri(uri, true), uriBaseId: '%SRCROOT%' } : { uri: `file://${artifactUri(uri, false)}` },
                  region: {
                    startLine: d.range.start.line + 1,
                    startColumn: d.range.start.character + 1,
                    endLine: d.range.end.line + 1,
                    endColumn: d.range.end.character + 1,
                  },
                },
              },
            ],
            // Without the line, and with the numbers in the message (upstream wording names byte
            // offsets and lines) left out: an edit above a finding must not make a new alert.
            partialFingerprints: sarifFingerprint(d.code, uri, d.message.replace(/\d+/g, '#')),
            ...(d.itemId ? { properties: { itemId: d.itemId } } : {}),
          };
        }),
      },
    ],
  };
}
