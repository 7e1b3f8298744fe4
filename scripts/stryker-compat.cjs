// Preloaded into StrykerJS and its workers by scripts/mutate.mjs. StrykerJS 10 with its
// mocha runner does not run on this project's toolchain as released, for two reasons
// that do not touch what it measures:
// 1. its CLI refuses Node < 22 when it loads (package "engines"); this project supports
//    Node >= 20.19, on which the run itself works. Only the Stryker CLI process is told
//    it runs on 22; the test runner workers see the real version.
// 2. @stryker-mutator/mocha-runner 10.0.0 requires mocha's CLI helpers by their old
//    names (`mocha/lib/cli/run-helpers`, `.../options`), which mocha 12 ships as `.cjs`;
//    such a request that fails is retried with `.cjs`.
// Remove this file once Stryker supports both (or mocha is pinned to one it supports).
'use strict';
const Module = require('node:module');

if (/[\\/]@stryker-mutator[\\/]core[\\/]bin[\\/]stryker(\.js)?$/.test(process.argv[1] ?? '') && Number(process.versions.node.split('.')[0]) < 22) {
  Object.defineProperty(process, 'version', { value: 'v22.0.0', configurable: true });
}

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  try {
    return resolve.call(this, request, ...rest);
  } catch (e) {
    if (/[\\/]mocha[\\/]lib[\\/]cli[\\/][a-z-]+$/.test(request)) return resolve.call(this, `${request}.cjs`, ...rest);
    throw e;
  }
};
