import assert from 'node:assert';

/**
 * A failing `assert.ok(x)` without a message makes Node build one from the test's source:
 * it reads the file at the call's line and column and parses it with acorn. Under tsx the
 * call site's line and column are the transpiled code's, not the TypeScript file's, and on
 * some files that search ran for minutes, so a failing assertion hung the run (mocha's
 * timeout cannot fire while it runs) instead of failing it. Every suite loads this first:
 * a bare `ok` fails at once with a fixed message, the stack trace saying where.
 */
for (const target of [assert, assert.strict] as const) {
  const ok = target.ok;
  const withMessage = function (this: unknown, value: unknown, message?: string | Error): asserts value {
    if (arguments.length >= 2) return ok.call(this, value, message);
    if (!value)
      throw new assert.AssertionError({
        message: `The expression evaluated to a falsy value: ${String(value)}`,
        actual: value,
        expected: true,
        operator: '==',
        stackStartFn: withMessage,
      });
  };
  target.ok = withMessage;
}
