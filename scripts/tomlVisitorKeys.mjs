// toml-eslint-parser in dist/core.js without ESLint's JavaScript visitor keys. The parser
// builds the keys its `traverseNodes` walks a tree by (toml-eslint-parser/lib/index.mjs,
// `KEYS = unionWith(tomlKeys)`) with eslint-visitor-keys' `unionWith`, which merges its TOML
// keys into the keys of every JavaScript node, ESLint's table, for ESLint's sake. A TOML
// tree holds TOML nodes and its `Program` alone, whose keys both tables give as `body`, so
// the walk the core makes (documents/tomlDocument.ts) reads the same keys from the TOML
// keys alone: 3 KB of dist/core.js, 1 KB of the VSIX (issue 15). Should the parser import
// anything else from eslint-visitor-keys, the build fails on the missing export.
const NAMESPACE = 'toml-visitor-keys';
const TOML_PARSER = /[\\/]node_modules[\\/]toml-eslint-parser[\\/]/;

/** `unionWith(keys)` over an empty table of JavaScript keys: the TOML keys, frozen as eslint-visitor-keys freezes them. */
const UNION_WITH_NONE = `export function unionWith(additionalKeys) {
  const keys = {};
  for (const type of Object.keys(additionalKeys)) keys[type] = Object.freeze(Array.from(additionalKeys[type]));
  return Object.freeze(keys);
}
`;

/** The esbuild plugin, for the core's build: toml-eslint-parser's eslint-visitor-keys holds no JavaScript keys. */
export const tomlVisitorKeys = {
  name: 'toml-visitor-keys',
  setup(build) {
    build.onResolve({ filter: /^eslint-visitor-keys$/ }, (args) =>
      TOML_PARSER.test(args.importer) ? { path: args.path, namespace: NAMESPACE } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => ({ contents: UNION_WITH_NONE, loader: 'js' }));
  },
};
