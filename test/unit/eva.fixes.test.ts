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

  it('offers no boolean fix where the value carries a tag or an anchor (the word alone is not what the node means)', () => {
    // `!!str true` is still a string, so the tag would keep the error; an anchored value is
    // also every alias of it, which the word would change too (here `x_note: *w`).
    for (const written of ['!!str yes', '!!str   yes', '&w yes']) {
      f.adapter(
        `${A0.replace('enabled: true', `enabled: ${written}`)}${written.startsWith('&') ? 'x_note: *w\n' : ''}`,
      );
      const d = f.index().diagnostics('eva.schema.type')[0];
      assert.ok(d, written);
      assert.equal(d.fix, undefined, written);
    }
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

  it('offers no stub where the skill mapping writes the key with no schema (a second key of that name is refused)', () => {
    // `output_schema:`, `null` and `~` read as missing (skillAdapterContract.ts inlineSchema);
    // the stub as a second `output_schema` key would be a duplicate mapping key, which
    // serde_yaml refuses, and the whole project's load with it.
    for (const written of ['', ' null', ' ~']) {
      f.adapter(A0.replace(/ {2}output_schema:.*\n/, `  output_schema:${written}\n`));
      const d = f.index().diagnostics('eva.skill.schema-missing')[0];
      assert.ok(d, JSON.stringify(written));
      assert.equal(d.fix, undefined, JSON.stringify(written));
    }
  });

  for (const kind of [
    '? kind\n  : workflow_skill',
    '?   kind\n  :   workflow_skill',
    '&k kind: workflow_skill',
    '!!str kind: workflow_skill',
  ]) {
    it(`indents the stub as the skill mapping's entries where the kind key is written \`${kind.split('\n')[0]}\``, () => {
      // The key's own column is past an indicator or a property: a stub there is more indented
      // than the entries, which libyaml refuses, and the project's load with it.
      f.adapter(A0.replace(/ {2}output_schema:.*\n/, '').replace('kind: workflow_skill', kind));
      applyFix(f.index().diagnostics('eva.skill.schema-missing')[0]);
      const r = f.index();
      assert.deepEqual([r.item('adapters/review.yaml').detail.eva.evaDecision, r.codes(false)], ['registered', []]);
    });
  }

  for (const written of [
    '{type: array, items: {type: string}}',
    '{type: "string"}',
    '\n    type: array\n    items: {type: string}',
  ]) {
    it(`writes type: object for an input schema of another type (${JSON.stringify(written)})`, () => {
      // Eva invokes a skill only with an object input: object is the one type it accepts.
      f.adapter(A0.replace(/ {2}input_schema:.*\n/, `  input_schema: ${written}\n`.replace(': \n', ':\n')));
      applyFix(f.index().diagnostics('eva.skill.schema-type')[0]);
      const r = f.index();
      assert.deepEqual([r.item('adapters/review.yaml').detail.eva.evaDecision, r.codes(false)], ['registered', []]);
      assert.match(fs.readFileSync(f.path('ws/config/adapters/review.yaml'), 'utf8'), /type: object/);
    });
  }

  it('offers no type fix where the input schema has no type to replace, or a tagged one', () => {
    for (const written of ['{properties: {scope: {type: string}}}', '{type: !!str array}']) {
      f.adapter(A0.replace(/ {2}input_schema:.*\n/, `  input_schema: ${written}\n`));
      const d = f.index().diagnostics('eva.skill.schema-type')[0];
      assert.ok(d, written);
      assert.equal(d.fix, undefined, written);
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
