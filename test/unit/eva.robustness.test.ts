import * as assert from 'node:assert/strict';
import { A0, EvaFixture, L0 } from './helpers/evaFixture';
import { EVA_REASONS, type EvaReason } from '../../src/core/systems/eva/vocabulary';

/**
 * Seeded random mutations of A0 and L0: indexing never throws, every item has a decision
 * its primary reason implies, and every diagnostic has a well-formed range.
 */

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

const PIECES = [
  '{',
  '}',
  '[',
  ']',
  ':',
  '- ',
  '&a ',
  '*a',
  '!!js/function ',
  '<<: ',
  '"',
  "'",
  '\n',
  '  ',
  '#',
  'yes',
  '~',
  '\t',
  '\u0000',
  '\ufeff',
  '---\n',
];

function mutate(text: string, rnd: () => number): string {
  let out = text;
  const n = 1 + Math.floor(rnd() * 4);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(rnd() * out.length);
    const op = rnd();
    if (op < 0.4) out = out.slice(0, at) + (PIECES[Math.floor(rnd() * PIECES.length)] ?? '') + out.slice(at);
    else if (op < 0.8) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(rnd() * 8));
    else {
      const line = out.split('\n');
      const k = Math.floor(rnd() * line.length);
      line.splice(k, 0, line[Math.floor(rnd() * line.length)] ?? '');
      out = line.join('\n');
    }
  }
  return out;
}

describe('Eva robustness (seeded mutations)', () => {
  it('indexes 60 mutated manifests without throwing, with consistent decisions and ranges', function () {
    this.timeout(60_000);
    const rnd = prng(13);
    const f = new EvaFixture().p0();
    try {
      for (let i = 0; i < 60; i++) {
        f.adapter(mutate(A0, rnd));
        f.l0(mutate(L0, rnd));
        const r = f.index();
        for (const item of r.items) {
          const primary = item.detail.eva.evaReasons[0] as EvaReason;
          const implied =
            primary === 'capability_missing_schema' ? ['rejected', 'display_only'] : [EVA_REASONS[primary]];
          assert.ok(
            implied.includes(item.detail.eva.evaDecision),
            `${item.id}: ${item.detail.eva.evaDecision} from ${primary}`,
          );
          if (item.detail.eva.evaReasons.includes('duplicate_id_shadowed'))
            assert.equal(primary, 'duplicate_id_shadowed');
        }
        for (const d of r.diagnostics()) {
          const { start, end } = d.range;
          assert.ok(
            start.line >= 0 &&
              start.character >= 0 &&
              (end.line > start.line || (end.line === start.line && end.character >= start.character)),
            `${d.code} range`,
          );
        }
      }
    } finally {
      f.remove();
    }
  });
});
