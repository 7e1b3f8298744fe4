import { strict as assert } from 'node:assert';
import { A0, EvaFixture } from './helpers/evaFixture';
import { fsPatcher } from './helpers/fsPatch';
import { denyDirectory } from './helpers/deniedDirectory';

/**
 * A configuration directory this user may not list (eva.md §1.2; upstream eva-config lib.rs
 * `collect_files`: `fs::read_dir(root).map_err(|error| io_error(error, root, "config root"))?`).
 * Eva-CLI run as the same user stops loading the project there; run as one who may read it, it
 * loads the manifests inside. Before, the directory's manifests were silently absent.
 */
describe('Eva configuration directory this user may not list', () => {
  const fsPatch = fsPatcher();
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
    f.adapter(A0);
    f.l0();
  });
  afterEach(() => f.remove());

  it('reports a capability root it may not list, where Eva-CLI stops loading the project', () => {
    const dir = f.path('ws/config/capabilities');
    denyDirectory(fsPatch, dir);
    const r = f.index();
    assert.deepEqual(
      r.diagnostics().map((d) => [d.code, d.severity, d.message, r.rel(d.file)]),
      [
        [
          'eva.scan.unreadable',
          'error',
          'failed to read config root: Permission denied (os error 13); Eva-CLI run as a user who may read it loads the manifests there, which Skillgate cannot show',
          'config/capabilities',
        ],
        [
          'eva.project.load-aborted',
          'warning',
          'Eva-CLI stops loading this project at this file, so it would register no skill until it is fixed',
          'config/capabilities',
        ],
      ],
    );
    // The adapter root was read as usual: its item keeps its own decision.
    assert.deepEqual(
      r.items.map((i) => [i.kind, i.name]),
      [['skill-adapter', 'review-skill']],
    );
  });

  it('reports a subdirectory it may not list, below a root it reads', () => {
    f.write('ws/config/adapters/hardware/x.yaml', A0.replace('review-skill', 'x-skill'));
    const dir = f.path('ws/config/adapters/hardware');
    denyDirectory(fsPatch, dir);
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.scan.unreadable').map((d) => r.rel(d.file)),
      ['config/adapters/hardware'],
    );
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((d) => r.rel(d.file)),
      ['config/adapters/hardware'],
    );
  });
});
