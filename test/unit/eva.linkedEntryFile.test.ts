import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { CORPUS, EvaFixture, A0 } from './helpers/evaFixture';
import { runCli } from './helpers/runCli';
import { loadEvaProject } from '../../src/core/systems/eva/project';
import { hashEvaTarget } from '../../src/core/systems/eva/trustUnit';

/**
 * `config/eva.yaml` as a symbolic link. Upstream's `load_project_config` (eva-config
 * lib.rs) reads `project_root.join("config").join("eva.yaml")` with `fs::read_to_string`,
 * which follows a link: a repository whose entry file links to a file beside it is an Eva
 * project, and Eva registers its skills. Skillgate took only a regular file, so such a
 * project listed nothing and `skillgate check` passed over skills Eva loads.
 */
describe('Eva: a linked config/eva.yaml is the project entry file Eva reads', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
    f.adapter(A0);
    // The entry file's bytes live beside it in the repository; config/eva.yaml links to them.
    f.write('ws/eva/main.yaml', fs.readFileSync(`${CORPUS}/config/eva.yaml`));
    fs.rmSync(f.path('ws/config/eva.yaml'));
  });
  afterEach(() => f.remove());

  const cli = (...args: string[]) =>
    runCli(
      [...args, '--eva-home', f.home, '--codewhale-home', f.mkdir('cw')],
      { SKILLGATE_STATE_DIR: f.path('state') },
      f.ws,
    );

  it('a link to a file inside the folder: the project is read through it, its skill listed and gated', async () => {
    f.symlink('../eva/main.yaml', 'ws/config/eva.yaml');
    const p = loadEvaProject(f.ws);
    assert.ok(p, 'an Eva project');
    assert.deepEqual(
      p.diagnostics.map((d) => d.code),
      [],
    );
    assert.equal(p.roots.adapter_dir, f.path('ws/config/adapters'));

    const r = f.index();
    assert.deepEqual(
      r.items.map((i) => [i.id, i.decision, i.reasons]),
      [[f.id('adapters/review.yaml'), 'registered', ['loaded_unreviewed', 'not_reviewed']]],
    );
    // Through the CLI (EvaIndex's scan looks at the entry file too) the gate fails on it.
    const check = await cli('check');
    assert.equal(check.code, 1, check.out + check.err);
    assert.match(check.err, /eva skill-adapter review-skill \(config\/adapters\/review\.yaml\): it is not reviewed/);
    // `skillgate hash` finds the manifest's project through the same entry file.
    const hashed = hashEvaTarget(f.path('ws/config/adapters/review.yaml'), 'config/adapters/review.yaml');
    assert.ok(hashed?.ok, JSON.stringify(hashed));
  });

  it('a link out of the folder: still the project Eva reads, not read, said, and the sample roots scanned', () => {
    f.write('elsewhere/eva.yaml', fs.readFileSync(`${CORPUS}/config/eva.yaml`));
    f.symlink(f.path('elsewhere/eva.yaml'), 'ws/config/eva.yaml');
    const p = loadEvaProject(f.ws);
    assert.ok(p, 'an Eva project');
    assert.deepEqual(
      p.diagnostics.map((d) => [d.code, d.message]),
      [['eva.project.root-outside', 'config/eva.yaml resolves outside the workspace; Skillgate does not read it']],
    );
    assert.equal(p.document, undefined);
    assert.equal(p.roots.adapter_dir, f.path('ws/config/adapters'));
    assert.deepEqual(
      f.index().items.map((i) => [i.id, i.decision]),
      [[f.id('adapters/review.yaml'), 'registered']],
    );
  });

  it('a dangling link: Eva cannot read it and loads nothing, so neither is it a project here', () => {
    f.symlink('../eva/missing.yaml', 'ws/config/eva.yaml');
    assert.equal(loadEvaProject(f.ws), undefined);
    assert.deepEqual(f.index().items, []);
  });
});
