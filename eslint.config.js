// ESLint flat config: recommended JS + typescript-eslint rules, and the rooms of DESIGN.md as an import rule.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/**
 * The rooms of src/ (DESIGN.md "Rooms"; docs/architecture.md "Rooms"). The first pattern that
 * matches a file names its room, so the composition root (`src` itself: src/roles/, src/cli.ts,
 * src/config.ts, src/service.ts, src/replay.ts) comes last.
 */
const ROOMS = [
  { type: 'domain', pattern: 'src/domain' },
  { type: 'feed', pattern: 'src/feed' },
  { type: 'pipeline', pattern: 'src/pipeline' },
  { type: 'live', pattern: 'src/live' },
  { type: 'store', pattern: 'src/store' },
  { type: 'api', pattern: 'src/api' },
  { type: 'portal', pattern: 'src/portal' },
  { type: 'root', pattern: 'src' },
].map((room) => ({ ...room, partialMatch: false }));

/** What the api may take from the pipeline: the feed ingress port, nothing that runs the pipeline. */
const PIPELINE_INGRESS = ['ingress.ts'];

/** What the portal may take from the api: key and webhook administration, usage reports, the error statuses, the base URL. */
const API_FOR_PORTAL = [
  'key-admin.ts',
  'webhook-admin.ts',
  'quota/counter.ts',
  'quota/report.ts',
  'errors.ts',
  'base-url.ts',
];

/** A room, or only some files of it (paths inside the room). */
const only = (type, files) => ({ element: { type, fileInternalPath: files } });
const mayImport = (from, to) => ({
  from: { element: { type: from } },
  allow: { to: to.map((t) => (typeof t === 'string' ? { element: { type: t } } : t)) },
});

/** Arrows point down the table only: each room lists what it may import, and everything else is refused. */
const ARROWS = [
  mayImport('domain', ['domain']),
  mayImport('feed', ['domain']),
  mayImport('pipeline', ['domain', 'feed', 'live', 'store']),
  mayImport('live', ['domain']),
  mayImport('store', ['domain']),
  mayImport('api', ['domain', 'live', 'store', only('pipeline', PIPELINE_INGRESS)]),
  mayImport('portal', ['domain', 'store', only('api', API_FOR_PORTAL)]),
  mayImport('root', ['domain', 'feed', 'pipeline', 'live', 'store', 'api', 'portal', 'root']),
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'test-artifacts/',
      'sdk/dist/',
      'sdk/node_modules/',
      'sdk/src/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      // Room patterns are relative to the repository, wherever ESLint runs from (the rooms test too).
      'boundaries/root-path': import.meta.dirname,
      'boundaries/elements': ROOMS,
      // `import … from './x.js'` names the compiled file: the TypeScript resolver finds `x.ts`.
      'import/resolver': { typescript: { project: `${import.meta.dirname}/tsconfig.json` } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          // An import that resolves to no room (or to nothing) is refused too, rather than skipped.
          checkUnknownLocals: true,
          message:
            "the {{from.element.type}} room may not import '{{dependency.source}}': imports point down the rooms table only (docs/architecture.md, Rooms)",
          policies: ARROWS,
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
  },
);
