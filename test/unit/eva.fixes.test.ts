import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { A0, EvaFixture } from './helpers/evaFixture';
import type { Diagnostic, Position } from '../../src/core/model';

/** Quick fixes computed in the core where the fix is unambiguous (issue 13). */

function offset(text: string, p: Position): number {
  const lines = text.split('\n');
  return lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
}

function applyFix(d: Diagnostic | undefined): void {
  assert.ok(d?.fix, 'a fix is offered');
  for (const e of [...d.fix.edits].reverse()) {
    const text = fs.readFileSync(e.file, 'utf8');
    fs.writeFileSync(
      e.file,
      text.slice(0, offset(text, e.range.start)) + e.newText + text.slice(offset(text, e.range.end)),
    );
  }
}

describe('Eva quick fixes', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('writes enabled: yes as the boolean true', () => {
    f.adapter(A0.replace('enabled: true', 'enabled: yes'));
    applyFix(f.index().diagnostics('eva.schema.type')[0]);
    assert.equal(fs.readFileSync(f.path('ws/config/adapters/review.yaml'), 'utf8'), A0);
  });

  it('offers no boolean fix for a string that does not mean one', () => {
    f.adapter(A0.replace('enabled: true', 'enabled: maybe'));
    assert.equal(f.index().diagnostics('eva.schema.type')[0]?.fix, undefined);
  });

  for (const side of ['input', 'output'] as const) {
    it(`adds a missing ${side}_schema stub inside a block skill mapping, after which the adapter registers`, () => {
      f.adapter(A0.replace(new RegExp(`  ${side}_schema:.*\\n`), ''));
      applyFix(f.index().diagnostics('eva.skill.schema-missing')[0]);
      const r = f.index();
      assert.deepEqual([r.item('adapters/review.yaml').detail.eva.evaDecision, r.codes(false)], ['registered', []]);
    });
  }

  it('adds the stub when the skill mapping is the last entry of the file, with or without a final newline', () => {
    const moved = A0.replace(/skill:\n(  .*\n)+/, '') + A0.match(/skill:\n(  .*\n)+/)?.[0];
    for (const text of [moved, moved.replace(/\n$/, '')]) {
      f.adapter(text.replace(/  output_schema:.*\n?/, ''));
      applyFix(f.index().diagnostics('eva.skill.schema-missing')[0]);
      assert.equal(
        f.index().item('adapters/review.yaml').detail.eva.evaDecision,
        'registered',
        fs.readFileSync(f.path('ws/config/adapters/review.yaml'), 'utf8'),
      );
    }
  });

  it('offers no stub for a flow-style skill mapping', () => {
    f.adapter(
      A0.replace(
        /skill:\n(  .*\n)+/,
        'skill: {source: codex, id: review, kind: workflow_skill, runtime_gate: normal, input_schema: {type: object}}\n',
      ),
    );
    assert.equal(f.index().diagnostics('eva.skill.schema-missing')[0]?.fix, undefined);
  });
});
