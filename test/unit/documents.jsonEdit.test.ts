import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { applyEdits, modify, type Edit, type FormattingOptions, type JSONPath } from 'jsonc-parser';
import { modifyFormatted } from '../../src/core/documents/jsonEdit';
import { cpuTime } from './helpers/cpuTime';

/** jsonc-parser's own answer, or the message it throws with. */
function library(text: string, path: JSONPath, value: unknown, options: FormattingOptions): Edit[] | string {
  try {
    return modify(text, path, value, { formattingOptions: options });
  } catch (e) {
    return (e as Error).message;
  }
}

function ours(text: string, path: JSONPath, value: unknown, options: FormattingOptions): Edit[] | string {
  try {
    return modifyFormatted(text, path, value, options);
  } catch (e) {
    return (e as Error).message;
  }
}

const key = fc.constantFrom('a', 'b', 'extensions', 'net.codewhale', 'capabilities', 'network_hosts', 'é', '');
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string({ maxLength: 6 }),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(key, tie('v'), { maxKeys: 4 }),
  ),
})).v;
/** The same value written as people and tools write JSON: on one line, indented, with CRLF, with stray spaces. */
const written = (v: unknown, style: number): string => {
  switch (style) {
    case 0:
      return JSON.stringify(v);
    case 1:
      return JSON.stringify(v, null, 2);
    case 2:
      return JSON.stringify(v, null, 4).replace(/\n/g, '\r\n');
    case 3:
      return JSON.stringify(v, null, '\t') + '\n';
    default:
      return JSON.stringify(v).replace(/([,:{[])/g, '$1 ');
  }
};
const path = fc.array(fc.oneof(key, fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 4 });
const options = fc.record({ insertSpaces: fc.boolean(), tabSize: fc.integer({ min: 1, max: 8 }) });

describe('JSON edits with formatting: jsonc-parser’s modify, in linear time', () => {
  it('makes exactly the edit the library makes, or throws where it throws', () => {
    fc.assert(
      fc.property(
        fc.dictionary(key, value, { maxKeys: 5 }),
        fc.integer({ min: 0, max: 4 }),
        path,
        fc.oneof(value, fc.constant(undefined)),
        options,
        (doc, style, p, v, o) => {
          const text = written(doc, style);
          assert.deepEqual(ours(text, p, v, o), library(text, p, v, o), `${JSON.stringify(text)} ${JSON.stringify(p)}`);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('adds a key inside an object written on one line of 30,000 keys in linear time, the rest of the text kept', () => {
    // jsonc-parser applies its formatter's edits one copy of the text at a time: this line
    // took it 25 s of CPU (20,000 keys, 14 s); the fuzz harness found it as a hang.
    const keys: Record<string, number> = {};
    for (let i = 0; i < 30_000; i++) keys[`k${i}`] = i;
    const text = `{\n  "name": "w",\n  "extensions": ${JSON.stringify(keys)}\n}\n`;
    const path = ['extensions', 'net.codewhale', 'capabilities', 'network_hosts'];
    const { result: edits, ms } = cpuTime(() =>
      modifyFormatted(text, path, ['h.example'], { insertSpaces: true, tabSize: 2 }),
    );
    assert.ok(ms < 3000, `took ${ms} ms of CPU`);
    assert.equal(edits.length, 1);
    const out = JSON.parse(applyEdits(text, edits)) as { extensions: Record<string, unknown> };
    assert.deepEqual(out.extensions['net.codewhale'], { capabilities: { network_hosts: ['h.example'] } });
    assert.equal(Object.keys(out.extensions).length, 30_001);
    assert.equal(out.extensions['k29999'], 29_999);
  });
});
