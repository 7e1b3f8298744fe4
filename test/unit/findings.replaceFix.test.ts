import { strict as assert } from 'node:assert';
import { Findings } from '../../src/core/diagnostics/findings';
import { parseJsonDocument } from '../../src/core/documents/jsonDocument';

/**
 * A replacing fix edits exactly the value it names. A document's ranges fall back to the nearest
 * ancestor for a path it does not hold, and a fix at such a range would replace the whole parent:
 * then no fix is offered.
 */
describe('Findings.replaceFix', () => {
  const findings = () => {
    const f = new Findings();
    const parsed = parseJsonDocument('/p/plugin.json', '{ "name": "A b", "env": { "K": "v" } }');
    assert.ok(parsed.ok);
    f.addDocument(parsed.document);
    return f;
  };

  it('replaces the value at an existing path', () => {
    const fix = findings().replaceFix('Rename', { file: '/p/plugin.json', path: ['name'] }, '"a-b"');
    assert.deepEqual(
      fix?.edits.map((e) => [e.range.start.character, e.range.end.character, e.newText]),
      [[10, 15, '"a-b"']],
    );
  });

  it('offers nothing for a path the document does not hold, nor for a file it did not parse', () => {
    const f = findings();
    assert.equal(f.replaceFix('Set', { file: '/p/plugin.json', path: ['env', 'MISSING'] }, '"x"'), undefined);
    assert.equal(f.replaceFix('Set', { file: '/p/other.json', path: ['name'] }, '"x"'), undefined);
  });
});
