import * as z from 'zod';
import { pydanticStrAsFloat } from './laxFloat';
import { hasNoUtf8, pythonStrip } from './pythonText';
import { SAFE_NAME } from './skillFile';

/**
 * Rivumi's manifest and hook schemas (rivumi.md §4.3, §5.2), in zod. Rivumi validates
 * with pydantic; its inner reasons are reproduced where Rivumi defines them, and the
 * generic type/length/extra-key errors are phrased the way pydantic phrases them.
 * pydantic stops a field at its first failure (a length constraint, then each validator
 * in turn), so every check of a field here aborts the field's remaining checks.
 */

export const HOOK_EVENTS = [
  'pre_tool_use',
  'post_tool_use',
  'approval_request',
  'pre_compact',
  'post_compact',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

const strictText = z.string({ error: 'Input should be a valid string' });

/**
 * A str field with a length limit. pydantic-core's `StrConstrainedValidator` reads the
 * string as UTF-8 (`either_str.as_cow()?`) before measuring it, and a Python str holding
 * a lone surrogate (which json's `"\ud800"` or `"\udcff"` escape gives) has no UTF-8:
 * `string_unicode`, before any length or validator (pydantic-core's test_string.py,
 * `test_unicode_error`). A plain `str` (an argv entry, a tool, a keyword) keeps it.
 */
const constrainedText = () =>
  z.string({ error: 'Input should be a valid string' }).refine((s) => !hasNoUtf8(s), {
    error: 'Input should be a valid string, unable to parse raw data as a unicode string',
    abort: true,
  });

/** pydantic's `too_long` for a tuple, with the length it saw ("…, not 17"). */
const tooLong = (max: number) => ({
  error: (iss: { input?: unknown }) =>
    `Tuple should have at most ${max} items after validation, not ${Array.isArray(iss.input) ? iss.input.length : '?'}`,
});

/**
 * pydantic's lax float: numbers (Python's json also yields ±Infinity and NaN, floats that
 * only the bounds then refuse), numeric strings as pydantic-core reads them (laxFloat.ts:
 * `"1_0"` is 10, `"inf"` is infinity) and booleans; a string that is not a number is
 * pydantic's `float_parsing` error, anything else `float_type`.
 */
const laxFloat = z.union(
  [
    z.number().or(z.custom<number>((v) => v === Infinity || v === -Infinity || Number.isNaN(v))),
    z.string().transform((s, ctx) => {
      const f = pydanticStrAsFloat(s);
      if (f !== undefined) return f;
      ctx.addIssue({ code: 'custom', input: s });
      return z.NEVER;
    }),
    z.boolean().transform((b) => (b ? 1 : 0)),
  ],
  {
    error: (iss) =>
      typeof iss.input === 'string'
        ? 'Input should be a valid number, unable to parse string as a number'
        : 'Input should be a valid number',
  },
);

export const hookCommand = z.strictObject(
  {
    command: z
      .array(strictText, { error: 'Input should be a valid tuple' })
      .min(1, { error: 'Tuple should have at least 1 item after validation, not 0', abort: true })
      .max(32, { ...tooLong(32), abort: true })
      .refine(
        (argv) => argv.every((a) => a !== '' && !a.includes('\0')),
        'hook command argv entries must be non-empty and NUL-free',
      ),
    // pydantic-core checks `le` before `gt`, each as "the comparison holds": NaN fails `le` first.
    timeout_seconds: laxFloat
      .refine((t) => t <= 30, { error: 'Input should be less than or equal to 30', abort: true })
      .refine((t) => t > 0, 'Input should be greater than 0')
      .optional(),
    tools: z
      .array(strictText, { error: 'Input should be a valid tuple' })
      .transform((tools) => tools.map(pythonStrip))
      .refine((tools) => tools.every((t) => t !== '' && !t.includes('\0')), 'hook tools must be non-empty and NUL-free')
      .transform((tools) => [...new Set(tools)])
      .optional(),
  },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys' ? 'Extra inputs are not permitted' : 'Input should be a valid dictionary',
  },
);

const httpUrl = constrainedText()
  .max(2048, { error: 'String should have at most 2048 characters', abort: true })
  .refine((raw) => {
    const v = pythonStrip(raw);
    // Scheme `http` or `https` in any case, then `//` and a network location that is not
    // empty: the location runs to the first `/`, `?` or `#`, so its first character is none of them.
    return !v.includes('\0') && /^https?:\/\/[^/?#]/i.test(v);
  }, 'plugin discovery URL must be http(s)')
  .nullable()
  .optional();

const discoveryText = (max: number) =>
  constrainedText()
    .max(max, { error: `String should have at most ${max} characters`, abort: true })
    .refine((v) => pythonStrip(v) !== '' && !v.includes('\0'), 'plugin discovery text cannot be blank or contain NUL')
    .nullable()
    .optional();

export const pluginManifest = z.strictObject(
  {
    name: constrainedText()
      .min(1, { error: 'String should have at least 1 character', abort: true })
      .max(64, { error: 'String should have at most 64 characters', abort: true })
      .refine((n) => SAFE_NAME.test(pythonStrip(n)), 'invalid plugin name'),
    description: constrainedText().max(400, 'String should have at most 400 characters').optional(),
    skills: z
      .array(
        z.strictObject(
          {
            path: constrainedText()
              .min(1, { error: 'String should have at least 1 character', abort: true })
              .max(256, { error: 'String should have at most 256 characters', abort: true })
              .refine(
                (p) => {
                  const v = pythonStrip(p).replace(/\\/g, '/');
                  return (
                    v !== '' && !v.includes('\0') && !v.startsWith('/') && !v.startsWith('../') && !v.includes('/../')
                  );
                },
                { error: 'plugin skill path must be manifest-relative', abort: true },
              )
              .refine(
                (p) => pythonStrip(p).replace(/\\/g, '/').endsWith('.md'),
                'plugin skill path must point to markdown',
              ),
          },
          {
            error: (iss) =>
              iss.code === 'unrecognized_keys'
                ? 'Extra inputs are not permitted'
                : 'Input should be a valid dictionary',
          },
        ),
        { error: 'Input should be a valid tuple' },
      )
      .max(16, tooLong(16))
      .optional(),
    hooks: z.record(z.string(), z.unknown(), { error: 'Input should be a valid dictionary' }).optional(),
    discovery: z
      .strictObject(
        {
          keywords: z
            .array(z.string({ error: 'Input should be a valid string' }), { error: 'Input should be a valid tuple' })
            .max(16, { ...tooLong(16), abort: true })
            .refine((ks) => ks.every((k) => SAFE_NAME.test(pythonStrip(k))), {
              error: 'plugin discovery keyword is invalid',
              abort: true,
            })
            .refine(
              (ks) => new Set(ks.map(pythonStrip)).size === ks.length,
              'plugin discovery keywords cannot contain duplicates',
            )
            .optional(),
          homepage: httpUrl,
          repository: httpUrl,
          license: discoveryText(128),
          author: discoveryText(256),
        },
        {
          error: (iss) =>
            iss.code === 'unrecognized_keys' ? 'Extra inputs are not permitted' : 'Input should be a valid dictionary',
        },
      )
      .optional(),
    // Rivumi's loader overwrites these two silently (rivumi.md §5.2).
    source: z.unknown().optional(),
    directory: z.unknown().optional(),
  },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys' ? 'Extra inputs are not permitted' : 'Input should be a valid dictionary',
  },
);

/**
 * `loc: message` in pydantic's dotted-location form, one per problem; `message` is the
 * text after the location (a key may itself hold `: `, so the text is not split again).
 * `keyOrder` puts the extra keys of the object at a path in the order Python's dict holds
 * them (pythonDictOrder.ts), when the validated value came from a JSON text.
 */
export function pydanticDetails(
  error: z.ZodError,
  keyOrder: (path: (string | number)[], keys: readonly string[]) => readonly string[] = (_path, keys) => keys,
): { path: (string | number)[]; text: string; message: string }[] {
  const out: { path: (string | number)[]; text: string; message: string }[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    if (issue.code === 'unrecognized_keys') {
      // One issue names every extra key; pydantic reports each key on its own, with the text the schema gives.
      for (const k of keyOrder(base, issue.keys))
        out.push({ path: [...base, k], text: `${[...base, k].join('.')}: ${issue.message}`, message: issue.message });
    } else if (issue.code === 'invalid_type' && issue.input === undefined) {
      out.push({ path: base, text: `${base.join('.')}: Field required`, message: 'Field required' });
    } else {
      out.push({
        path: base,
        text: `${base.length ? base.join('.') + ': ' : ''}${issue.message}`,
        message: issue.message,
      });
    }
  }
  return out;
}
