import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../diagnostics/diagnosticCodes';
import { DIAGNOSTIC_HELP } from '../diagnostics/diagnosticHelp';
import { diagnosticWorkspace, displayPath, itemsById } from './contract';
import { artifactUri } from './artifactUri';
import { fingerprintFile, fingerprintPlace, runFingerprints } from './sarifFingerprint';
import { withinCodeScanningLimits, type LimitedResult } from './sarifLimits';
import type { Snapshot } from '../index/snapshot';
import type { Range } from '../model';

const LEVEL = { error: 'error', warning: 'warning', information: 'note' } as const;

/**
 * The `uriBaseId` of each workspace folder: `%SRCROOT%` for the first (what code
 * scanning resolves against the checkout), `%SRCROOT2%`, `%SRCROOT3%`, … for the others.
 */
export function workspaceBaseId(index: number): string {
  return index === 0 ? '%SRCROOT%' : `%SRCROOT${index + 1}%`;
}

/** One `originalUriBaseIds` entry per workspace folder, named by `workspaceBaseId`. */
function workspaceBaseIds(workspaces: readonly string[]): Record<string, object> {
  return Object.fromEntries(
    workspaces.map((ws, i) => [
      workspaceBaseId(i),
      {
        uri: `file://${artifactUri(ws.endsWith('/') ? ws : ws + '/', false)}`,
        description: { text: `Workspace folder ${ws}` },
      },
    ]),
  );
}

/** A SARIF region: 1-based lines and columns, the end column the one after the region. */
export interface SarifRegion {
  readonly startLine: number;
  readonly startColumn: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/**
 * The region of an editor range (0-based), with all four of its bounds: GitHub code
 * scanning marks each required (github/docs sarif-support-for-code-scanning.md, `physicalLocation`).
 */
export function sarifRegion(range: Range): SarifRegion {
  return {
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

/**
 * A result's location: `uri` (as displayPath gives it) relative to the workspace folder
 * `base` (workspaceBaseId), or an absolute `file://` URI for a file outside every folder.
 */
export function sarifLocation(uri: string, base: number, region: SarifRegion): object {
  return {
    physicalLocation: {
      artifactLocation: isRelative(uri, base)
        ? { uri: artifactUri(uri, true), uriBaseId: workspaceBaseId(base) }
        : { uri: `file://${artifactUri(uri, false)}` },
      region,
    },
  };
}

/** Whether a location is written relative to its workspace folder's base id (else as an absolute URI). */
function isRelative(uri: string, base: number): boolean {
  return base >= 0 && !uri.startsWith('/');
}

/**
 * SARIF 2.1.0 for code scanning. Locations are relative to the workspace folder of
 * their diagnostic, one `originalUriBaseIds` entry per folder, so that uploads annotate
 * the right file; user-level files are absolute `file://` URIs; lines and columns are 1-based.
 * Within what code scanning takes (sarifLimits.ts): past it, the most severe and a count of the rest.
 */
export function toSarif(snapshot: Snapshot, version: string): object {
  const byId = itemsById(snapshot);
  const used = [...new Set(snapshot.diagnostics.map((d) => d.code))].sort();
  const fingerprint = runFingerprints();
  return sarifLog(
    version,
    used,
    snapshot.workspaces,
    snapshot.diagnostics.map((d) => {
      const workspace = diagnosticWorkspace(d, snapshot.workspaces, byId);
      const within = workspace === null ? [] : [workspace];
      const uri = displayPath(d.file, within);
      const base = workspace === null ? -1 : snapshot.workspaces.indexOf(workspace);
      // The place the finding is about, which is its file unless a listing's position chose the file.
      const place = displayPath(fingerprintPlace(d), within);
      return {
        ruleId: d.code,
        ruleIndex: used.indexOf(d.code),
        level: LEVEL[d.severity],
        message: { text: d.message },
        locations: [sarifLocation(uri, base, sarifRegion(d.range))],
        // Without the line, and with the numbers in the message (upstream wording names byte
        // offsets and lines, a cap's message counts files) left out: an edit above a finding must
        // not make a new alert. The place, not the file: a new file sorting first moves the first
        // file past a cap, not the directory whose cap it is (`Diagnostic.place`).
        partialFingerprints: fingerprint(
          d.code,
          fingerprintFile(place, isRelative(place, base) ? workspaceBaseId(base) : null),
          d.message.replace(/\d+/g, '#'),
        ),
        properties: { workspace, ...(d.itemId ? { itemId: d.itemId } : {}) },
      };
    }),
    '`skillgate validate` (text or `--json`) lists them all',
  );
}

/**
 * A SARIF 2.1.0 log of one Skillgate run over `workspaces` (one `originalUriBaseIds` entry
 * each), with the rules `ruleIds` (each result's `ruleIndex` is its rule's index there),
 * within what code scanning takes (sarifLimits.ts): past it, `listedBy` is named as what lists the rest.
 */
export function sarifLog(
  version: string,
  ruleIds: readonly string[],
  workspaces: readonly string[],
  results: readonly LimitedResult[],
  listedBy: string,
): object {
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'Skillgate', version, rules: ruleIds.map(sarifRule) } },
        // Columns are UTF-16 code units, as in the editor (model.ts `Position`) and in a lock (JavaScript
        // string indices): said, not left to a consumer's guess, since a character outside the BMP counts two.
        columnKind: 'utf16CodeUnits',
        originalUriBaseIds: workspaceBaseIds(workspaces),
        results,
      },
    ],
  };
  return withinCodeScanningLimits(log, listedBy, sarifRule);
}

/**
 * A SARIF rule: its description and how to fix it, carried in the file itself (code
 * scanning shows `help` beside the alert), so no link to a published page is needed.
 * GitHub's "SARIF support for code scanning" marks `shortDescription.text`,
 * `fullDescription.text` and `help.text` required (github/docs, sarif-support-for-code-scanning.md,
 * `reportingDescriptor` object), each non-empty: the catalogue's summary is one sentence
 * (at most a few hundred characters, within the 1024 allowed), so it is both descriptions.
 */
export function sarifRule(id: string): object {
  const known = DIAGNOSTIC_CODES[id as DiagnosticCode] as (typeof DIAGNOSTIC_CODES)[DiagnosticCode] | undefined;
  const help = DIAGNOSTIC_HELP[id as DiagnosticCode] as (typeof DIAGNOSTIC_HELP)[DiagnosticCode] | undefined;
  const description = known ? known[1] : id;
  const fix = help ? help.fix : description;
  return {
    id,
    shortDescription: { text: description },
    fullDescription: { text: description },
    help: { text: fix, markdown: fix },
    defaultConfiguration: { level: LEVEL[known ? known[0] : 'warning'] },
  };
}
