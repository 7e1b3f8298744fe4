import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { A0, EvaFixture, L0 } from './helpers/evaFixture';
import { applyFixAsEditor, assertFixBoundToEditorText } from './helpers/editorApply';
import type { Diagnostic } from '../../src/core/model';

const CODE = 'eva.capability.allow-unknown-ignored';

/**
 * `allow_unknown_capability` has no effect: no policy knob allows it (eva.md §4.4), so
 * removing the key is the fix. Only a line of its own in a block mapping is removed; the
 * fixed manifest is indexed again and has no finding of that code, and no finding it did
 * not have.
 */
describe('quick fix that removes an allow_unknown_capability Eva ignores', () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  const finding = (): Diagnostic => {
    const found = f.index().diagnostics(CODE);
    assert.equal(found.length, 1, `${CODE} once`);
    return found[0] as Diagnostic;
  };
  const fixAndRevalidate = (): void => {
    const before = f.index().codes();
    const d = finding();
    assert.ok(d.fix, 'a fix is offered');
    assertFixBoundToEditorText(d.fix);
    applyFixAsEditor(d);
    assert.deepEqual(
      f.index().codes(),
      before.filter((c) => !c.startsWith(`${CODE} `)),
    );
  };

  it('removes the key and its comment from a skill adapter manifest', () => {
    const file = f.adapter(
      A0.replace('transport: skill\n', 'transport: skill\nallow_unknown_capability: true  # wanted\n'),
    );
    fixAndRevalidate();
    assert.equal(fs.readFileSync(file, 'utf8'), A0);
  });

  it('removes the key with no value from a lua_skill manifest, at its end', () => {
    const file = f.l0(`${L0}allow_unknown_capability:`);
    fixAndRevalidate();
    assert.equal(fs.readFileSync(file, 'utf8'), L0);
  });

  it('removes the line with its CRLF break from a manifest with a byte-order mark', () => {
    const crlf = (text: string) => `\uFEFF${text.replace(/\n/g, '\r\n')}`;
    const file = f.adapter(crlf(A0.replace('enabled: true\n', 'enabled: true\n"allow_unknown_capability": yes\n')));
    fixAndRevalidate();
    assert.equal(fs.readFileSync(file, 'utf8'), crlf(A0));
  });

  it('offers no fix where the key is not a line of its own in a block mapping, or its value is named elsewhere', () => {
    const flow = `{${L0.trim().split('\n').join(', ')}, allow_unknown_capability: true}\n`;
    for (const [written, manifest] of [
      [flow, 'lua'],
      [`${L0}? allow_unknown_capability\n: true\n`, 'lua'],
      [`${L0}allow_unknown_capability: &yes true\nx_note: *yes\n`, 'lua'],
      [`${L0}allow_unknown_capability: "multi\n  line"\n`, 'lua'],
      [A0.replace('transport: skill\n', 'transport: skill\nallow_unknown_capability: |\n  true\n'), 'adapter'],
    ] as const) {
      f.l0(manifest === 'lua' ? written : L0);
      if (manifest === 'adapter') f.adapter(written);
      assert.equal(finding().fix, undefined, written);
    }
  });
});
