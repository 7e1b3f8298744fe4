import { strict as assert } from 'node:assert';
import { listText } from '../../src/cli/render';
import type { Snapshot } from '../../src/core/index/snapshot';
import { cpuTime } from './helpers/cpuTime';
import { itemOf } from './helpers/item';

describe('`list` text', () => {
  it('groups 50,000 top-level items by workspace in linear time, every one on its row in order', () => {
    // Each group was copied to add one item: 8 s of a `list` of 30,000 bundles.
    const items = Array.from({ length: 50_000 }, (_, i) =>
      itemOf({
        id: `workspace/abc/p${i}`,
        name: `p${i}`,
        qualifiedName: `p${i}`,
        path: `/ws/.codewhale/plugins/p${i}`,
      }),
    );
    const snapshot: Snapshot = { generation: 1, workspaces: ['/ws'], items, diagnostics: [], trustProblem: null };
    const { result: text, ms } = cpuTime(() => listText(snapshot));
    assert.ok(ms < 3000, `took ${ms} ms of CPU`);
    const rows = text.split('\n').filter((l) => l.startsWith('    plugin'));
    assert.equal(rows.length, 50_000);
    assert.match(rows[0] as string, /^ {4}plugin +p0 /);
    assert.match(rows[49_999] as string, /^ {4}plugin +p49999 /);
    assert.match(text, /^Workspace \/ws\n {2}Codewhale\n/);
  });

  it("lines up every row's columns across agents: Eva's longer kinds and names fit, a child's under its bundle's, a very long name overflows", () => {
    const long = `x${'y'.repeat(59)}`;
    const items = [
      itemOf({ id: 'cw', qualifiedName: 'docs' }),
      itemOf({
        id: 'cw/s',
        qualifiedName: 'docs:search',
        kind: 'skill',
        parent: 'cw',
        decision: 'disabled',
        trust: null,
        reasons: ['bundle_inactive'],
      }),
      itemOf({
        id: 'eva',
        system: 'eva',
        kind: 'skill-adapter',
        qualifiedName: 'review-skill (skill review)',
        decision: 'display_only',
        trust: null,
        reasons: ['runtime_gate_mismatch'],
      }),
      itemOf({ id: 'long', qualifiedName: long, decision: 'registered', trust: null, reasons: [] }),
    ];
    const snapshot: Snapshot = { generation: 1, workspaces: ['/ws'], items, diagnostics: [], trustProblem: null };
    const rows = listText(snapshot)
      .split('\n')
      .filter((l) => l.startsWith('    '));
    const name = ' '.repeat(40 - 'review-skill (skill review)'.length);
    assert.deepEqual(rows, [
      `    plugin        docs${' '.repeat(36)} disabled     not_reviewed  [not-reviewed]`,
      `      skill       docs:search${' '.repeat(29)} disabled     bundle_inactive`,
      `    plugin        ${long} registered`,
      `    skill-adapter review-skill (skill review)${name} display_only runtime_gate_mismatch`,
    ]);
  });

  it('says where each agent looks when nothing is found, Eva-CLI config/eva.yaml included', () => {
    const snapshot: Snapshot = { generation: 1, workspaces: ['/ws'], items: [], diagnostics: [], trustProblem: null };
    assert.match(listText(snapshot), /^No agent extensions found \(\.rivumi, \.codewhale, config\/eva\.yaml\)\.\n/);
  });
});
