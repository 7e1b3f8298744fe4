// The code-server test harness: an extension installed beside Skillgate that runs the
// in-host mocha suites once the workbench has started and writes the results to the
// file the outer runner (scripts/integration.ts) waits for.
const fs = require('node:fs');

exports.activate = async function activate() {
  const out = process.env.SKILLGATE_TEST_RESULTS;
  const entry = process.env.SKILLGATE_TEST_ENTRY;
  if (!out || !entry) return;
  let results;
  try {
    results = await require(entry).runSuites();
  } catch (e) {
    results = {
      passed: 0,
      failed: 1,
      tests: [{ title: 'harness', state: 'failed', error: String((e && e.stack) || e) }],
    };
  }
  fs.writeFileSync(out + '.tmp', JSON.stringify(results, null, 2));
  fs.renameSync(out + '.tmp', out);
};

exports.deactivate = function deactivate() {};
