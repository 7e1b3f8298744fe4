import { strict as assert } from 'node:assert';

/** test/support/assertMessages.ts, which every mocha suite requires first. */
describe('a failing assert.ok without a message', () => {
  it('fails at once with a fixed message, never by reading and parsing the test source', () => {
    // Node's own message quotes the source (`assert.ok(false)`), which it finds by parsing the file.
    assert.throws(
      () => assert.ok(false),
      (e: Error) =>
        e instanceof assert.AssertionError && e.message === 'The expression evaluated to a falsy value: false',
    );
    assert.throws(() => assert.ok(0, 'named'), /^AssertionError \[ERR_ASSERTION\]: named$/);
    assert.doesNotThrow(() => assert.ok(1));
  });
});
