import { strict as assert } from 'node:assert';
import { toSarif } from '../../src/core/report/sarif';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostics/diagnosticCodes';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { Diagnostic, Item } from '../../src/core/model';

interface SarifRun {
  tool: { driver: { rules: { id: string; defaultConfiguration: { level: string } }[] } };
  results: {
    ruleId: string;
    ruleIndex: number;
    level: string;
    locations: {
      physicalLocation: {
        artifactLocation: { uri: string; uriBaseId?: string };
        region: { startLine: number; startColumn: number; endLine: number; endColumn: number };
      };
    }[];
  }[];
}

/**
 * SARIF for code scanning (cli.md `validate --format sarif`): each result's level and rule
 * as the diagnostic's severity and code say, its rule found at `ruleIndex`, the rule's
 * default level from the catalogue, 1-based ends, and a file outside its item's workspace
 * folder as an absolute URI, never as a path under that folder's base.
 */
describe('SARIF levels, rules and locations', () => {
  const at = (line: number, character: number, endCharacter: number) => ({
    start: { line, character },
    end: { line, character: endCharacter },
  });
  const d = (
    code: string,
    severity: Diagnostic['severity'],
    file: string,
    itemId: string | null = null,
  ): Diagnostic => ({
    file,
    range: at(2, 4, 9),
    severity,
    code,
    message: `m ${code}`,
    itemId,
  });
  const snapshot = (diagnostics: Diagnostic[], items: Item[] = []): Snapshot => ({
    generation: 1,
    workspaces: ['/ws'],
    items,
    diagnostics,
    trustProblem: null,
  });
  const run = (s: Snapshot) => (toSarif(s, '0.0.0') as { runs: SarifRun[] }).runs[0] as SarifRun;

  it('maps each severity to its SARIF level and each result to its own rule', () => {
    const r = run(
      snapshot([
        d('eva.conflict.multiple-providers', 'information', '/ws/config/adapters/a.yaml'),
        d('codewhale.name-conflict', 'warning', '/ws/.codewhale/plugins/p/plugin.toml'),
        d('codewhale.manifest.parse', 'error', '/ws/.codewhale/plugins/q/plugin.toml'),
      ]),
    );
    assert.deepEqual(
      r.results.map((x) => [x.ruleId, x.level, r.tool.driver.rules[x.ruleIndex]?.id]),
      [
        ['eva.conflict.multiple-providers', 'note', 'eva.conflict.multiple-providers'],
        ['codewhale.name-conflict', 'warning', 'codewhale.name-conflict'],
        ['codewhale.manifest.parse', 'error', 'codewhale.manifest.parse'],
      ],
    );
    const level = { error: 'error', warning: 'warning', information: 'note' } as const;
    for (const rule of r.tool.driver.rules)
      assert.equal(
        rule.defaultConfiguration.level,
        level[DIAGNOSTIC_CODES[rule.id as keyof typeof DIAGNOSTIC_CODES][0]],
        rule.id,
      );
    assert.deepEqual(r.results[0]?.locations[0]?.physicalLocation.region, {
      startLine: 3,
      startColumn: 5,
      endLine: 3,
      endColumn: 10,
    });
  });

  it("gives a file outside its item's workspace folder as an absolute URI", () => {
    const item = { id: 'ws-item', workspace: '/ws' } as Item;
    const r = run(snapshot([d('codewhale.name-conflict', 'warning', '/elsewhere/x.toml', 'ws-item')], [item]));
    assert.deepEqual(r.results[0]?.locations[0]?.physicalLocation.artifactLocation, {
      uri: 'file:///elsewhere/x.toml',
    });
  });
});
