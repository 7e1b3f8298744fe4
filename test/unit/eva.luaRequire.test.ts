import * as assert from 'node:assert/strict';
import { EvaFixture } from './helpers/evaFixture';
import { explainEva } from '../../src/core/systems/eva/explainEva';

/**
 * Trust covers a lua_skill's script and schema files, not the Lua modules the script may
 * `require` (not knowable statically); `explain` warns when the script contains `require`
 * (eva.md §6.1), so that what trust leaves out is never left out silently.
 */
describe('Eva lua_skill: explain warns about require (eva.md §6.1)', () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  const WARNING = 'warning: the script calls require; the Lua modules it loads are not covered by this trust';
  const source = () => explainEva(f.index().item('capabilities/lint.yaml'))[1]?.lines ?? [];

  it('warns when the script requires a module', () => {
    f.l0();
    f.write('ws/config/skills/lint.lua', 'local helpers = require("lint.helpers")\nreturn helpers\n');
    assert.deepEqual(source(), [
      'kind: lua_skill, source: project_capability, trust level: Project',
      'id: lint-skill',
      'lua.script: config/skills/lint.lua',
      WARNING,
    ]);
    f.write('ws/config/skills/lint.lua', "local h = require'x'\n");
    assert.ok(source().includes(WARNING));
  });

  it('says nothing for a script without require, or one that only has a longer name containing it', () => {
    f.l0();
    assert.equal(source().includes(WARNING), false);
    f.write('ws/config/skills/lint.lua', 'local requires = 1\nlocal my_require = 2\nreturn {}\n');
    assert.equal(source().includes(WARNING), false);
  });
});
