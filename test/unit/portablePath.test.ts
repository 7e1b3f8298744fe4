import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import fc from 'fast-check';
import { insideSuffix, isAncestor, leavesBase, portableRelative, resolvedWithin } from '../../src/core/fs/portablePath';
import { isInside } from '../../src/core/fs/safeFs';

/** Paths built from segments that include the ones `path.resolve` rewrites. */
const segment = fc.constantFrom('a', 'b', 'ab', '.', '..', '', '.a', 'a.', '...', 'é', 'a b');
const absolute = fc.array(segment, { maxLength: 5 }).map((s) => '/' + s.join('/'));
const trailing = fc.tuple(absolute, fc.constantFrom('', '/')).map(([p, t]) => p + t);

describe('portablePath: the relative path without path.relative when it is a plain suffix', () => {
  it('insideSuffix, when it answers, is what path.relative says', () => {
    fc.assert(
      fc.property(trailing, fc.array(segment, { maxLength: 4 }), fc.boolean(), (from, tail, under) => {
        const target = under ? [from, ...tail].join('/') : '/' + tail.join('/');
        const fast = insideSuffix(from, target);
        if (fast !== undefined) assert.equal(fast, path.relative(from, target), `${from} -> ${target}`);
      }),
      { numRuns: 5000 },
    );
  });

  it('isInside and isAncestor, decided from the bytes for resolved paths, are what path.relative says', () => {
    const slow = (base: string, p: string) => !leavesBase(path.relative(base, p));
    fc.assert(
      fc.property(trailing, fc.array(segment, { maxLength: 4 }), fc.boolean(), (base, tail, under) => {
        for (const p of [under ? [base, ...tail].join('/') : '/' + tail.join('/'), base, path.dirname(base)]) {
          assert.equal(isInside(base, p), slow(base, p), `isInside ${base} ${p}`);
          const rel = path.relative(base, p);
          assert.equal(isAncestor(base, p), rel !== '' && !leavesBase(rel), `isAncestor ${base} ${p}`);
        }
      }),
      { numRuns: 5000 },
    );
    // The bytes decide only where path.relative would not rewrite either path.
    assert.equal(resolvedWithin('/w/ws', '/w/ws/a'), true);
    assert.equal(resolvedWithin('/w/ws', '/w/wsx'), false);
    assert.equal(resolvedWithin('/', '/a'), undefined);
    assert.equal(resolvedWithin('/w/ws/', '/w/ws/a'), undefined);
    assert.equal(resolvedWithin('/w/ws', '/w/ws/../x'), undefined);
  });

  it('answers for resolved paths under a resolved root, and leaves the rest to path.relative', () => {
    assert.equal(insideSuffix('/w/ws', '/w/ws/.codewhale/plugins/p/SKILL.md'), '.codewhale/plugins/p/SKILL.md');
    assert.equal(insideSuffix('/w/ws', '/w/ws'), '');
    assert.equal(insideSuffix('/w/ws', '/w/wsx/a'), undefined);
    assert.equal(insideSuffix('/w/ws', '/w/ws/../x'), undefined);
    assert.equal(insideSuffix('/w/ws/', '/w/ws/a'), undefined);
    assert.equal(insideSuffix('/', '/a'), undefined);
    assert.equal(portableRelative('/w/ws', '/w/ws/a/./b'), 'a/b');
    assert.equal(portableRelative('/w/ws', '/w/other'), '../other');
    assert.equal(isAncestor('/w/ws', '/w/ws'), false);
    assert.equal(isAncestor('/w/ws', '/w/ws/a'), true);
    assert.equal(isAncestor('/w/ws', '/w/ws/a/..'), false);
  });

  it('takes a name that starts with two dots for a name inside, and only a `..` component for leaving', () => {
    for (const inside of ['/w/ws/..x', '/w/ws/...', '/w/ws/a/..x/..y', '/w/ws/a/b/..'])
      assert.equal(isAncestor('/w/ws', inside), true, inside);
    assert.equal(isAncestor('/w/ws/', '/w/ws/..x'), true, 'through path.relative');
    assert.equal(isInside('/w/ws/', '/w/ws/..x'), true);
    assert.equal(isInside('/w/ws', '/w/ws'), true);
    assert.equal(isInside('/w/ws', '/w/ws/../x'), false);
    assert.equal(isInside('/w/ws', '/w/..x'), false);
    for (const rel of ['..x', '...', '.', '', 'a/..', 'a/../..x']) assert.equal(leavesBase(rel), false, rel);
    for (const rel of ['..', '../x', '../..x', '/abs']) assert.equal(leavesBase(rel), true, rel);
  });
});
