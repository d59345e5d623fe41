// The walls between the rooms (docs/architecture.md#the-walls-between-the-rooms), checked by
// `npm run lint`: which room may import what (vscode, Node built-ins, the other rooms, core through
// its entries) and which globals a room may touch. Syntax rules only: no type-aware rules, so a
// lint of the whole tree stays fast.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeOnly = (name) => !(name in globals.browser) && !(name in globals.builtin);
const browserOnly = (name) => !(name in globals.node) && !(name in globals.builtin);

// Newer Node versions grew a `navigator` and a `localStorage`; core must still not lean on them.
const BROWSER_GLOBALS = [...new Set([...Object.keys(globals.browser).filter(browserOnly), 'navigator', 'localStorage', 'sessionStorage'])].sort();
const NODE_GLOBALS = Object.keys(globals.node).filter(nodeOnly).sort();

const restrictedGlobals = (names, why) => names.map((name) => ({ name, message: why }));

const VSCODE = { name: 'vscode', message: 'Only src/extension (and the host tests in test/vscode) may import vscode.' };

/** `../sandbox`, `../../cli/args`, …: a relative path that leaves the current room for one of `rooms`. */
const intoRooms = (rooms, message) => ({ regex: `^(\\.\\./)+(${rooms.join('|')})(/|$)`, message });

/** Anything under src/core but `entry` (and, for the index, the folder itself), spelled relatively. */
const deepCore = (entry, message) =>
  entry === 'index' ? { regex: '^(\\.\\./)+core/(?!index$)', message } : { regex: `^(\\.\\./)+core(/(?!${entry}$)|$)`, message };

// Bare names (`fs`, `path`, `fs/promises`, …) as Node lists them; `node:` names by their prefix.
const NODE_MODULE_NAMES = builtinModules.filter((name) => !name.startsWith('_'));

function walls({ paths = [], patterns = [] }) {
  return { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] };
}

const ENGINE_ENTRY = 'src/extension/engine.ts';
const CORE_LIGHT = 'src/extension/coreLight.ts';
/** A value import of one of `rooms` from an extension file: it must come through the engine. */
const throughEngine = (rooms) => ({
  ...intoRooms(
    rooms,
    "The extension reaches core (and the inspector, the sandbox's pages) only through engine() (src/extension/engineBundle.ts); import their types with `import type`.",
  ),
  allowTypeImports: true,
});

const NO_NODE = 'The webview is a browser bundle: no Node modules.';
const CORE_TOUCHES_NOTHING =
  "Core touches nothing outside itself: the file system, environment variables and HTTP dispatchers come in through its context (src/core/context.ts; src/host makes Node's).";
/** What core may not import (docs/architecture.md#core-touches-nothing-itself): the file system, undici's values and internals. */
const CORE_IO = [
  ...['fs', 'fs/promises', 'node:fs', 'node:fs/promises'].map((name) => ({ name, message: CORE_TOUCHES_NOTHING })),
  { name: 'undici', message: `${CORE_TOUCHES_NOTHING} Its types may be imported (import type).`, allowTypeImports: true },
];
const CORE_ENTRY = "Import core from its public entry, src/core/index.ts ('../core'), not from its files.";

export default tseslint.config(
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  { ignores: ['dist/**', '.cache/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `const { omitted: _omitted, ...rest } = x` is how the tree leaves a field out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // The host requires undici on the first send, so a command that sends nothing never loads it (src/host/dispatchers.ts).
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^undici$'] }],
      // A `let` that closures read before its one assignment (src/webview/app.ts's tabs) cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Plain CommonJS run by node as they are (build, start and host scripts): require is their import.
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**'],
    languageOptions: { globals: { ...globals.mocha } },
  },

  // ---- the walls ----
  {
    // Everything but the extension and its host tests: no vscode.
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    ignores: ['src/extension/**', 'test/vscode/**'],
    rules: walls({ paths: [VSCODE] }),
  },
  {
    files: ['src/core/**'],
    rules: {
      ...walls({
        paths: [VSCODE, ...CORE_IO],
        patterns: [
          intoRooms(['sandbox', 'inspector', 'cli', 'extension', 'webview', 'host'], 'Core is imported by the other rooms and imports none of them.'),
          { regex: '^undici/', message: CORE_TOUCHES_NOTHING },
        ],
      }),
      'no-restricted-globals': [
        'error',
        ...restrictedGlobals(BROWSER_GLOBALS, 'Core runs in Node (the CLI, the extension host); browser globals belong to src/webview.'),
      ],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: CORE_TOUCHES_NOTHING }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='require'][arguments.0.value=/^(node:)?fs(\\/|$)|^undici/]", message: CORE_TOUCHES_NOTHING },
      ],
    },
  },
  {
    files: ['src/sandbox/**', 'src/inspector/**', 'src/cli/**'],
    rules: {
      ...walls({
        paths: [VSCODE],
        patterns: [
          deepCore('index', CORE_ENTRY),
          intoRooms(
            ['extension', 'webview'],
            'Node rooms do not import the extension (vscode) or the webview (a browser bundle); shared code belongs in core.',
          ),
        ],
      }),
      'no-restricted-globals': ['error', ...restrictedGlobals(BROWSER_GLOBALS, 'This room runs in Node; browser globals belong to src/webview.')],
    },
  },
  {
    // The host makes core's context from Node (docs/architecture.md#core-touches-nothing-itself): core through its entry, no other room.
    files: ['src/host/**'],
    rules: {
      ...walls({
        paths: [VSCODE],
        patterns: [
          deepCore('index', CORE_ENTRY),
          intoRooms(['sandbox', 'inspector', 'cli', 'extension', 'webview'], 'The host stands beside core, under the faces: it imports core alone.'),
        ],
      }),
      'no-restricted-globals': ['error', ...restrictedGlobals(BROWSER_GLOBALS, 'This room runs in Node; browser globals belong to src/webview.')],
    },
  },
  {
    // The engine door (docs/architecture.md#the-engine-door): the extension reaches core, the
    // inspector and the sandbox's pages at run time only through engine() (engineBundle.ts), so
    // their modules and state exist once, in dist/engine.js; type imports are free. engine.ts is
    // that bundle's entry; coreLight.ts is the short list of light helpers activation needs first.
    files: ['src/extension/**'],
    ignores: [ENGINE_ENTRY, CORE_LIGHT],
    rules: walls({ patterns: [deepCore('index', CORE_ENTRY), throughEngine(['core', 'inspector', 'sandbox', 'host'])] }),
  },
  {
    // Node's file system alone (src/host/files.ts), for the environments at activation: the host's index brings the HTTP client.
    files: [CORE_LIGHT],
    rules: walls({
      patterns: [
        deepCore('index', CORE_ENTRY),
        throughEngine(['inspector', 'sandbox']),
        {
          regex: '^\\.\\./host(/(?!files$)|$)',
          message: 'coreLight.ts reads the environments with src/host/files.ts alone; the rest of the host comes through engine().',
        },
      ],
    }),
  },
  {
    files: [ENGINE_ENTRY],
    rules: walls({ patterns: [deepCore('index', CORE_ENTRY)] }),
  },
  {
    // Tests may reach into core's files; the benchmarks and scripts use what the product uses.
    files: ['bench/**', 'scripts/**'],
    rules: walls({
      paths: [VSCODE],
      patterns: [{ regex: '^(\\.\\./)+src/core/(?!index$)', message: "Import core from its public entry, src/core/index.ts ('../../src/core')." }],
    }),
  },
  {
    // One reader (docs/architecture.md#one-reader): a reply is read through parseReply alone; its
    // fast path (the one-pass reader of the common SOAP reply) is reached only through it, and
    // only the one equality test holds it against the general way. Its own rule name, so it adds
    // to the walls above rather than replacing them.
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    ignores: ['src/core/reply/**', 'src/core/xml/**', 'test/unit/reply-readers-equal.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)reply/commonReply(\\.[cm]?[jt]s)?$',
              message:
                'Read a reply with parseReply (src/core/reply/parse.ts): the one-pass reader of the common reply is its fast path, not another way in; test/unit/reply-readers-equal.test.ts alone holds the two side by side.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/webview/**'],
    rules: {
      ...walls({
        paths: [VSCODE, ...[...NODE_MODULE_NAMES, 'undici'].map((name) => ({ name, message: NO_NODE }))],
        patterns: [
          { regex: '^(node:|undici/)', message: NO_NODE },
          deepCore('view', "The webview imports core only from its browser-safe entry, src/core/view.ts ('../core/view')."),
          intoRooms(['sandbox', 'inspector', 'cli', 'extension'], 'The webview talks to the extension through protocol.ts messages only.'),
        ],
      }),
      'no-restricted-globals': ['error', ...restrictedGlobals(NODE_GLOBALS, 'The webview is a browser bundle: Node globals do not exist there.')],
    },
  },
);
