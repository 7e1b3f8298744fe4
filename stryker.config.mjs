// Mutation testing of the core (issue 17): `npm run mutate` (on demand, never part of
// `npm test`), `npm run mutate -- --incremental` to reuse the last run's results for
// unchanged code and tests, `npm run mutate:changed` for the core files changed on this
// branch. One area at a time: `npm run mutate -- --mutate src/core/trust/grantTrust.ts`.
// SKILLGATE_MUTATE_SPEC (comma-separated globs) narrows the test files a run loads.
// Reports go to reports/ (gitignored); the sandbox to .stryker-tmp/ (ignored by git, eslint, tsc).
import os from 'node:os';

// SKILLGATE_MUTATE_AREA names a run's reports and its incremental file, so that runs of
// different areas (`--mutate` one part at a time) keep their results apart.
const area = process.env.SKILLGATE_MUTATE_AREA ?? 'core';
const spec = process.env.SKILLGATE_MUTATE_SPEC
  ? process.env.SKILLGATE_MUTATE_SPEC.split(',')
  : ['test/unit/**/*.test.ts'];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'mocha',
  mochaOptions: {
    // The runner reads only these; .mocharc.json stays the plain `npx mocha` setup.
    'no-config': true,
    'no-package': true,
    // assertMessages.ts as every mocha configuration loads it: a bare failing `assert.ok` under a mutant
    // fails at once instead of hanging the run while Node searches the source for a message.
    require: ['tsx/cjs', './test/support/assertMessages.ts'],
    extension: ['ts'],
    spec,
    // The fuzz slice runs the code in worker processes, where no mutant is active: it can
    // only slow a run down, never kill a mutant.
    ignore: ['test/unit/fuzz.test.ts'],
  },
  coverageAnalysis: 'perTest',
  // The core the trust decisions rest on: trust, decisions, hashing, each system's validation and loading.
  mutate: [
    'src/core/trust/**/*.ts',
    'src/core/decisions/**/*.ts',
    'src/core/hashing/**/*.ts',
    'src/core/systems/codewhale/**/*.ts',
    'src/core/systems/rivumi/**/*.ts',
    'src/core/systems/eva/**/*.ts',
  ],
  // Two shared cores: one worker by default; SKILLGATE_MUTATE_CONCURRENCY=2 on an idle machine.
  concurrency: Number(process.env.SKILLGATE_MUTATE_CONCURRENCY ?? Math.max(1, Math.min(2, os.cpus().length - 1))),
  timeoutMS: 10000,
  // The first (coverage) run of the whole unit suite takes minutes on two busy cores.
  dryRunTimeoutMinutes: 30,
  timeoutFactor: 2,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  ignorePatterns: [
    'dist',
    'out',
    '.vscode-test',
    'test-results',
    'media',
    // examples/ stays: unit tests read the demo workspace (trust.unreadableCovered.property).
    'bench/.workspace',
    '.tmp',
    'test/e2e',
    // Other runs' sandboxes (`--tempDirName .stryker-tmp-<name>`): a run started while another
    // one works in the same tree would copy its sandbox and fail when it vanishes.
    '.stryker-tmp*',
  ],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  clearTextReporter: { allowColor: false, logTests: false },
  htmlReporter: { fileName: `reports/mutation/${area}.html` },
  jsonReporter: { fileName: `reports/mutation/${area}.json` },
  incrementalFile: `reports/stryker-incremental-${area}.json`,
  thresholds: { high: 85, low: 80, break: null },
};
