import * as assert from 'node:assert/strict';
import { A0, EvaFixture } from './helpers/evaFixture';
import { explainEva } from '../../src/core/systems/eva/explainEva';
import { evaReviewContract } from '../../src/core/systems/eva/reviewContract';

/**
 * A process-backed Eva skill runs a command (eva.md §2.2). Trust covers its bytes only when
 * it is a workspace-relative path inside the project (§6.1); the review and `explain` show
 * what runs and say when trust does not pin it, so that is never left out silently. A
 * command inside the project that is absent now and appears later joins the covered set,
 * so trust drops.
 */
describe('Eva: what a process-backed skill runs, and whether trust covers it', () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  const withRunner = (runner: string) =>
    f.adapter(A0.replace('  entry: {type: codex_skill}\n', `  entry: {type: process}\n  runner: ${runner}\n`));
  const adapter = () => f.index().item('adapters/review.yaml');
  const runs = () => evaReviewContract(adapter())?.rows.find((r) => r.label === 'runs')?.value;

  it('shows the command and its arguments, and where its bytes stand, for each kind of command', () => {
    f.write('ws/bin/run.sh', 'echo\n');
    withRunner('{command: bin/run.sh, args: [--mode, two words]}');
    assert.equal(runs(), "bin/run.sh --mode 'two words' (a project file, covered by this trust)");
    withRunner('{command: ../outside/run.sh}');
    assert.equal(runs(), '../outside/run.sh (outside the project: its bytes are not covered by this trust)');
    withRunner('{command: /usr/bin/env, args: [python3]}');
    assert.equal(runs(), '/usr/bin/env python3 (an absolute path: its bytes are not covered by this trust)');
    withRunner('{command: python3, args: [bin/run.py]}');
    assert.equal(runs(), 'python3 bin/run.py (looked up on PATH: its bytes are not covered by this trust)');
    withRunner('{command: bin/none.sh}');
    assert.equal(runs(), 'bin/none.sh (not in the project now; trust drops if it appears)');
    f.symlink(f.path('ws/bin'), 'ws/linked');
    withRunner('{command: linked/run.sh}');
    assert.equal(runs(), 'linked/run.sh (a symbolic link, or under one: this skill cannot be trusted)');
    assert.equal(adapter().reviewToken, null);
  });

  it('takes the runner over a top-level command, each with its own arguments; shows nothing for a process-free skill', () => {
    f.adapter(`${A0}command: tools/top.sh\nargs: [a]\n`);
    assert.match(runs() ?? '', /^tools\/top\.sh a \(/);
    f.adapter(
      `${A0.replace('  entry: {type: codex_skill}\n', '  entry: {type: process}\n  runner: {command: bin/run.sh, args: [b]}\n')}command: tools/top.sh\nargs: [a]\n`,
    );
    assert.match(runs() ?? '', /^bin\/run\.sh b \(/);
    f.adapter(A0);
    assert.equal(runs(), undefined);
  });

  it('drops trust when a command absent at review appears in the project', () => {
    withRunner('{command: bin/run.sh}');
    const before = adapter();
    assert.notEqual(before.contentHash, null);
    f.write('ws/bin/run.sh', 'echo appeared\n');
    assert.notEqual(adapter().contentHash, before.contentHash);
  });

  it('explain warns when trust does not cover the command', () => {
    withRunner('{command: ../outside/run.sh, args: [x]}');
    const source = explainEva(adapter())[1]?.lines ?? [];
    assert.ok(source.includes('runs: ../outside/run.sh x'), source.join('\n'));
    assert.ok(
      source.includes('warning: the command is outside the project: its bytes are not covered by this trust'),
      source.join('\n'),
    );
  });
});
