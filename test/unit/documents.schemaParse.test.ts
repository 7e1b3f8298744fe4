import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as z from 'zod';
import { parseReportingInput } from '../../src/core/documents/schemaParse';
import { ownRecord } from '../../src/core/documents/ownRecord';

/**
 * A value is parsed plainly first and again with its input only when it fails: the result
 * is the one `safeParse(data, { reportInput: true })` gives, valid or not.
 */
describe('parsing with the input reported only on failure', () => {
  const schema = z.strictObject({
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    env: ownRecord(z.string(), z.string()).optional(),
    timeout: z.number().int().min(0).optional(),
  });
  const reported = (v: unknown) => schema.safeParse(v, { reportInput: true });

  it('gives what a parse that reports the input gives, for any value', () => {
    const value = fc.oneof(
      fc.anything(),
      fc.record(
        {
          command: fc.oneof(fc.string(), fc.integer()),
          args: fc.array(fc.oneof(fc.string(), fc.boolean())),
          env: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.constant(null))),
          timeout: fc.oneof(fc.integer(), fc.double()),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(value, (v) => {
        const got = parseReportingInput(schema, v);
        const want = reported(v);
        assert.equal(got.success, want.success);
        if (got.success && want.success) assert.deepEqual(got.data, want.data);
        else assert.deepEqual(got.error?.issues, want.error?.issues);
      }),
      { numRuns: 500 },
    );
  });

  it('quotes the input in the issues of a value that fails, at any depth', () => {
    const r = parseReportingInput(schema, { env: { A: 1 }, timeout: -1 });
    assert.equal(r.success, false);
    assert.deepEqual(
      r.error?.issues.map((i) => [i.path.join('.'), i.input]),
      [
        ['env.A', 1],
        ['timeout', -1],
      ],
    );
  });
});
