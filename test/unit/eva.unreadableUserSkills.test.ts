import { strict as assert } from 'node:assert';
import { EvaFixture } from './helpers/evaFixture';
import { fsPatcher } from './helpers/fsPatch';
import { denyDirectory } from './helpers/deniedDirectory';

/**
 * User skill folders this user may not read (eva.md §1.3; the discovery design, Agent扫描与发现架构方案.md
 * §6 "a failure at any stage must not drop the object but produce a DiscoveryDiagnostic", §13
 * `DiscoveryErrorKind::PermissionDenied`). The skills there are display-only for Eva whoever reads
 * them, and shipped Eva-CLI reads none: nothing runs unseen, but they must not vanish without a word.
 */
describe('Eva user skill folders this user may not read', () => {
  const fsPatch = fsPatcher();
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
    f.user('open');
    f.user('hidden');
    f.user('other', 'agents');
  });
  afterEach(() => f.remove());

  const said = (r: ReturnType<EvaFixture['index']>) =>
    r.diagnostics('eva.user.unreadable').map((d) => [d.severity, d.message, d.file, d.itemId]);
  const message =
    "failed to read user skill directory: Permission denied (os error 13) (Eva-CLI's discovery design reports PermissionDenied here and lists nothing from it; run as a user who may read it, it lists the skills there, display-only, which Skillgate cannot show)";
  const users = (r: ReturnType<EvaFixture['index']>) => r.items.filter((i) => i.scope === 'user').map((i) => i.id);

  it('says so at a skill folder it may not search, and lists the others', () => {
    const dir = f.path('home/.codex/skills/hidden');
    denyDirectory(fsPatch, dir);
    const r = f.index();
    assert.deepEqual(said(r), [['warning', message, dir, null]]);
    assert.deepEqual(users(r), ['eva:user:codex:open', 'eva:user:agents:other']);
  });

  it('says so at a skills root it may not list', () => {
    const root = f.path('home/.codex/skills');
    denyDirectory(fsPatch, root);
    const r = f.index();
    assert.deepEqual(said(r), [['warning', message, root, null]]);
    assert.deepEqual(users(r), ['eva:user:agents:other']);
  });

  it('says so at a skills root inside a ~/.agents it may not search', () => {
    denyDirectory(fsPatch, f.path('home/.agents'));
    const r = f.index();
    assert.deepEqual(said(r), [['warning', message, f.path('home/.agents/skills'), null]]);
    assert.deepEqual(users(r), ['eva:user:codex:hidden', 'eva:user:codex:open']);
  });

  it('still says nothing of a hidden folder, or of a root that is not there', () => {
    f.user('.system');
    denyDirectory(fsPatch, f.path('home/.codex/skills/.system'));
    const r = f.index({ home: f.path('home') });
    assert.deepEqual(said(r), []);
    assert.deepEqual(said(f.index({ home: f.mkdir('empty-home') })), []);
  });
});
