import * as v8 from 'node:v8';

/**
 * A function that asks V8 itself (`%HaveSameMap`, `%HasFastProperties`, …): V8's own
 * syntax is allowed only while this one function is compiled, so no other code the test
 * loads is parsed with it.
 */
export function v8Probe<F extends (...args: never[]) => unknown>(params: readonly string[], body: string): F {
  v8.setFlagsFromString('--allow-natives-syntax');
  try {
    return new Function(...params, body) as F;
  } finally {
    v8.setFlagsFromString('--no-allow-natives-syntax');
  }
}
