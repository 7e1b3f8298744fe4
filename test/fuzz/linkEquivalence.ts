/**
 * `link-equivalence`: a workspace folder given through a symbolic link (`--workspace link`,
 * `link -> dir`) reads as the folder given directly. Every agent reports the same items,
 * decisions, reasons, diagnostics and hashes; the paths it reports are spelled under the
 * folder as given (spec/cli.md: `workspace` is "the workspace folder", `path`/`file` relative
 * to it or absolute), while identities stay canonical (trust.md "Bundle identity"), so ids,
 * hashes, tokens, bundle keys and an agent's canonical root are byte-equal in both runs.
 *
 * The direct run is respelled, not the linked one: each path field of the direct output that
 * lies under `dir` (the folder itself, or `dir/` and more: a whole path prefix, so `dir-2`
 * is not under `dir`) is expected under `link` in the linked output. Respelling the linked
 * run back would hide a path spelled under the canonical folder where the folder as given
 * was due (the defect of 4c0b42e: Eva's items under the canonical root, absent from the
 * tree). A diagnostic's message may name such a path among its words: there the path, as a
 * whole path, is respelled too (`respellInText`). Nothing else is: an id, hash, token or any
 * other word that differs is a difference.
 */

/** A field's place in a JSON document: object keys and array indexes. */
type FieldPath = readonly (string | number)[];

/**
 * The fields of `list --json` and `show --json` that hold a path (spec/cli.md "JSON output",
 * report/contract.ts; eva/givenFolder.ts respells the same ones): `[]` is any index, `*` any
 * key. An item's `path` and a diagnostic's `file` are workspace-relative inside a folder and
 * absolute outside every one; `detail.manifest` is absolute for an Eva item and the policy
 * file that decided an Eva permission is absolute. `detail.facts.canonicalRoot` is an
 * identity (Codewhale's canonical root), not a place a user is shown: it is left out.
 */
export const PATH_FIELDS: readonly (readonly string[])[] = [
  ['items', '[]', 'workspace'],
  ['items', '[]', 'path'],
  ['diagnostics', '[]', 'workspace'],
  ['diagnostics', '[]', 'file'],
  ['detail', 'manifest'],
  ['detail', 'eva', 'effectivePermissions', '*', 'decidedBy', 'file'],
];

/**
 * The fields of text that may name a path among their words: a diagnostic's message reuses
 * the agent's wording, which names the file at fault absolutely ("Plugin bundle directory may
 * not be a symbolic link or reparse point: /ws/.codewhale/plugins/x", codewhale.md §2.5), and
 * so does `show --json`'s reason a trust unit's file cannot be covered (Python's OSError:
 * "[Errno 36] File name too long: '/ws/…'"); a path in either is spelled as the folder was
 * given, as the fields above are.
 */
export const TEXT_FIELDS: readonly (readonly string[])[] = [
  ['diagnostics', '[]', 'message'],
  ['detail', 'notCovered', '[]'],
];

function matches(patterns: readonly (readonly string[])[], at: FieldPath): boolean {
  return patterns.some(
    (pattern) =>
      pattern.length === at.length &&
      pattern.every((p, i) => {
        const seg = at[i];
        return p === '[]' ? typeof seg === 'number' : p === '*' ? typeof seg === 'string' : p === seg;
      }),
  );
}

/** `p` under `link` when it is `dir` or lies under it as a whole path prefix; else `p` unchanged. */
export function respell(p: string, dir: string, link: string): string {
  if (p === dir) return link;
  return p.startsWith(`${dir}/`) ? `${link}${p.slice(dir.length)}` : p;
}

/** A character that may continue a file name: `dir` next to one is another name (`ws-link`, `/x/ws`), not the folder. */
const NAME_CHAR = /[\p{L}\p{N}._~+-]/u;

/**
 * `text` with each path in it that starts with `dir` as a whole path (`dir` not inside a
 * longer name on either side: at the start or after a space, quote or bracket, and followed
 * by `/`, the end or such a character) respelled under `link`; the rest left as it is.
 */
export function respellInText(text: string, dir: string, link: string): string {
  if (dir === '') return text;
  let out = '';
  let from = 0;
  for (let at = text.indexOf(dir); at !== -1; at = text.indexOf(dir, at + dir.length)) {
    const before = at > 0 ? (text[at - 1] as string) : '';
    const after = text.slice(at + dir.length, at + dir.length + 1);
    if (before === '/' || NAME_CHAR.test(before) || (after !== '/' && NAME_CHAR.test(after))) continue;
    out += text.slice(from, at) + link;
    from = at + dir.length;
  }
  return out + text.slice(from);
}

export interface LinkDifference {
  /** Where, e.g. `items[3].workspace` (and the item's id, when the field is in an item or diagnostic). */
  readonly field: string;
  /** The field with indexes left out, and the agent and kind of the item it is in: groups one defect across inputs. */
  readonly shape: string;
  /** What the direct output holds (respelled under the link where it is a path), and what the linked one holds. */
  readonly expected: unknown;
  readonly actual: unknown;
}

function fieldText(at: FieldPath): string {
  let out = '';
  for (const seg of at) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${seg}` : seg;
  return out;
}

function shapeText(at: FieldPath): string {
  return fieldText(at.map((seg) => (typeof seg === 'number' ? 0 : seg))).replace(/\[0\]/g, '[]');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * What differs between a document printed for the folder given directly (`direct`) and for
 * the same folder given through `link` (`viaLink`), both parsed, at most `limit` of them.
 */
export function linkDifferences(
  direct: unknown,
  viaLink: unknown,
  dir: string,
  link: string,
  limit = 5,
): LinkDifference[] {
  const out: LinkDifference[] = [];
  // The item or diagnostic a field is in, to say which one and to group by its agent and kind.
  const owner = (at: FieldPath): { id: string; where: string } | undefined => {
    if ((at[0] !== 'items' && at[0] !== 'diagnostics') || typeof at[1] !== 'number') return undefined;
    const list = (direct as Record<string, unknown>)[at[0]];
    const entry = Array.isArray(list) ? (list[at[1]] as unknown) : undefined;
    if (!isObject(entry)) return undefined;
    return at[0] === 'items'
      ? { id: String(entry.id), where: `${String(entry.system)} ${String(entry.kind)}` }
      : { id: String(entry.itemId ?? entry.file), where: String(entry.code) };
  };
  const differ = (at: FieldPath, expected: unknown, actual: unknown) => {
    if (out.length >= limit) return;
    const o = owner(at);
    out.push({
      field: o ? `${fieldText(at)} (${o.id})` : fieldText(at),
      shape: o ? `${shapeText(at)} (${o.where})` : shapeText(at),
      expected,
      actual,
    });
  };
  const walk = (a: unknown, b: unknown, at: (string | number)[]) => {
    if (out.length >= limit) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) differ([...at, 'length'], a.length, b.length);
      for (let i = 0; i < Math.min(a.length, b.length); i++) walk(a[i], b[i], [...at, i]);
      return;
    }
    if (isObject(a) && isObject(b)) {
      const keys = Object.keys(a);
      const other = Object.keys(b);
      if (keys.join('\0') !== other.join('\0')) differ([...at, '{keys}'], keys, other);
      for (const k of keys) if (Object.hasOwn(b, k)) walk(a[k], b[k], [...at, k]);
      return;
    }
    const expected =
      typeof a !== 'string'
        ? a
        : matches(PATH_FIELDS, at)
          ? respell(a, dir, link)
          : matches(TEXT_FIELDS, at)
            ? respellInText(a, dir, link)
            : a;
    if (expected !== b) differ(at, expected, b);
  };
  walk(direct, viaLink, []);
  return out;
}

/** A CLI run as `checkInput` records it (invariants.ts `Run`), restated here so this module stands alone. */
interface LinkRun {
  readonly argv: readonly string[];
  readonly code: number;
  readonly out: string;
}

export interface LinkCheck {
  /** The workspace folder as given directly, and the symbolic link beside it (outside it) that names it. */
  readonly dir: string;
  readonly link: string;
  /** `list --json` over the folder given directly (already run: the input's first command). */
  readonly listed: LinkRun;
  /** An item to `show --json` both ways, by id (ids are identities: the same in both runs); none: no show. */
  readonly selector: string | undefined;
  /** The CLI with the input's arguments, and with `--workspace <dir>` given as `--workspace <link>` instead. */
  readonly direct: (...args: string[]) => Promise<LinkRun>;
  readonly viaLink: (...args: string[]) => Promise<LinkRun>;
  readonly fail: (signature: string, detail: string) => void;
}

const clip = (v: unknown) => JSON.stringify(v)?.slice(0, 200) ?? String(v);

/** Runs the linked spelling of `list --json` (and `show --json` of one item) and reports each difference. */
export async function checkLinkEquivalence(c: LinkCheck): Promise<void> {
  const compare = (what: string, direct: LinkRun, viaLink: LinkRun) => {
    if (direct.code !== viaLink.code)
      return c.fail(
        `${what}: exit`,
        `\`${what}\` exited ${direct.code} with --workspace ${c.dir}, ${viaLink.code} with --workspace ${c.link} (a link to it)`,
      );
    if (direct.code !== 0) return;
    let a: unknown;
    let b: unknown;
    try {
      a = JSON.parse(direct.out);
      b = JSON.parse(viaLink.out);
    } catch (e) {
      // The direct run's own document is json-valid's; one that parses only directly is a difference.
      if (a !== undefined)
        c.fail(`${what}: parse`, `\`${what}\` through the link is not JSON: ${(e as Error).message}`);
      return;
    }
    for (const d of linkDifferences(a, b, c.dir, c.link))
      c.fail(
        `${what} ${d.shape}`,
        `\`${what}\` ${d.field}: with --workspace ${c.link} (a link to ${c.dir}) it is ${clip(d.actual)}, expected ${clip(d.expected)}`,
      );
  };
  compare('list --json', c.listed, await c.viaLink('list', '--json'));
  if (c.selector !== undefined) {
    const show = ['show', c.selector, '--json'];
    compare('show --json', await c.direct(...show), await c.viaLink(...show));
  }
}
