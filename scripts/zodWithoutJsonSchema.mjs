// zod in dist/core.js without its JSON Schema generator. zod's classic schema classes
// (zod/v4/classic/schemas.js) reach the generator from every class: each constructor sets
// `_zod.processJSONSchema` to a function of zod/v4/core/json-schema-processors.js, and
// ZodType's `toJSONSchema()` and `~standard.jsonSchema` come from
// zod/v4/core/to-json-schema.js, so esbuild keeps both modules whole although the core
// never generates JSON Schema (it validates with zod; media/schemas/ are written by hand):
// 16 KB of dist/core.js, 5 KB of the VSIX (issue 15).
//
// For classic/schemas.js alone, each module is replaced by a stand-in that re-exports the
// real module and shadows only the generator's entry points with a function that throws,
// saying why: every processor (`…Processor`), `createToJSONSchemaMethod` and
// `createStandardJSONSchemaMethod`. Everything else stays zod's own, such as
// `aggregateChecks`, which the `minLength`, `minValue`, … getters read; esbuild then drops
// what nothing reaches. A zod that adds a processor gets it shadowed by name; one that moves
// the generator elsewhere is simply not trimmed.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const NAMESPACE = 'zod-without-json-schema';
const CLASSIC_SCHEMAS = /[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/;
const GENERATOR = /^\.\.\/core\/(json-schema-processors|to-json-schema)\.js$/;
const LEFT_OUT = "zod's JSON Schema generation is left out of dist/core.js (scripts/zodWithoutJsonSchema.mjs)";

/** The generator's entry points a module exports: its processors, and the two method factories. */
function entryPoints(file) {
  const names = [...readFileSync(file, 'utf8').matchAll(/^export (?:const|function) (\w+)/gm)].map((m) => m[1]);
  return names.filter((n) => n.endsWith('Processor') || /^create\w*JSONSchemaMethod$/.test(n));
}

/** The esbuild plugin, for the core's build: classic/schemas.js imports stand-ins of the generator. */
export const zodWithoutJsonSchema = {
  name: 'zod-without-json-schema',
  setup(build) {
    build.onResolve({ filter: GENERATOR }, (args) =>
      CLASSIC_SCHEMAS.test(args.importer)
        ? { path: path.resolve(args.resolveDir, args.path), namespace: NAMESPACE }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
      // A factory returns the method it makes: the method, not the factory, is what throws.
      const stand = (name) => `export const ${name} = ${name.endsWith('Processor') ? 'leftOut' : '() => leftOut'};`;
      return {
        contents: [
          `export * from ${JSON.stringify(args.path)};`,
          `const leftOut = () => { throw new Error(${JSON.stringify(LEFT_OUT)}); };`,
          ...entryPoints(args.path).map(stand),
        ].join('\n'),
        resolveDir: path.dirname(args.path),
        loader: 'js',
      };
    });
  },
};
