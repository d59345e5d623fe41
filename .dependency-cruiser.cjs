// The floors inside core and the sandbox (docs/architecture.md#folders-do-not-loop),
// checked by `npm run lint` (its `lint:deps` step): the folders of src/core and of src/sandbox,
// and the files at their tops, do not import each other in a loop. ESLint holds the walls between
// the rooms; this holds the order inside two of them. Type-only imports count: a loop of types is
// a loop of meaning. test/unit/lint-walls.test.ts proves the rules fail on probes that make loops.
//
// The tool sees loops between folders at any depth (`no-folder-loop`), but counts a file that
// stands at a room's top (src/core/send.ts, src/sandbox/context.ts…) as part of the room's folder,
// not as a room of its own; so each such file that imports a folder is named below, and the rules
// after `no-folder-loop` keep the loops through it out.

/** The files above the room's folders: no folder of the room may reach them. */
const ABOVE = {
  core: ['index', 'view', 'send', 'runBackend', 'probeSend', 'replyMemo'],
  sandbox: ['embedded', 'server', 'router'],
};

/** The other top files that lean on folders of their room, each with the folders it may import; these folders must not reach it. */
const LEANING = {
  core: { exchange: ['catalog'] },
  sandbox: { context: ['http', 'state'], auth: ['soap'], options: ['http'] },
};

const ROOMS = Object.keys(ABOVE);
const any = (names) => `(${names.join('|')})`;
const file = (room, names) => `^src/${room}/${any(names)}\\.ts$`;
const folders = (room, names) => `^src/${room}/${any(names)}/`;
const moved = 'move the shared piece down into a small file both import, or turn one import round';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-loop',
      comment: `Folders of src/core or src/sandbox import each other in a loop: ${moved}.`,
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/(core|sandbox)(/|$)' },
      to: { path: '^src/(core|sandbox)(/|$)', circular: true },
    },
    {
      name: 'no-file-loop',
      comment: `Files of src/core or src/sandbox import each other in a loop: ${moved}.`,
      severity: 'error',
      from: { path: '^src/(core|sandbox)/' },
      to: { circular: true },
    },
    ...ROOMS.map((room) => ({
      name: `no-folder-reaches-${room}-top`,
      comment: `A folder of src/${room} reaches a file that stands above its folders (${ABOVE[room].join(', ')}): that is a loop between them.`,
      severity: 'error',
      from: { path: `^src/${room}/[^/]+/` },
      to: { path: file(room, ABOVE[room]), reachable: true },
    })),
    ...ROOMS.flatMap((room) =>
      Object.entries(LEANING[room]).map(([name, under]) => ({
        name: `no-loop-through-${room}-${name}`,
        comment: `src/${room}/${name}.ts imports ${under.join(', ')}/, which reach it again.`,
        severity: 'error',
        from: { path: folders(room, under) },
        to: { path: file(room, [name]), reachable: true },
      })),
    ),
    ...ROOMS.map((room) => ({
      name: `${room}-top-files-named`,
      comment:
        `A file at the top of src/${room} imports a folder of the room that .dependency-cruiser.cjs does not list for it ` +
        '(ABOVE or LEANING): name it there, so the loops through it are checked.',
      severity: 'error',
      from: { path: `^src/${room}/[^/]+\\.ts$`, pathNot: file(room, [...ABOVE[room], ...Object.keys(LEANING[room])]) },
      to: { path: `^src/${room}/[^/]+/` },
    })),
    ...ROOMS.flatMap((room) =>
      Object.entries(LEANING[room]).map(([name, under]) => ({
        name: `${room}-${name}-imports-what-is-named`,
        comment: `src/${room}/${name}.ts imports a folder that .dependency-cruiser.cjs does not list for it (LEANING): name it there.`,
        severity: 'error',
        from: { path: file(room, [name]) },
        to: { path: `^src/${room}/[^/]+/`, pathNot: folders(room, under) },
      })),
    ),
  ],
  options: {
    includeOnly: '^src/(core|sandbox)/',
    tsPreCompilationDeps: true,
    // Folder-scoped rules need the folder graph, which the tool builds with its metrics.
    metrics: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
