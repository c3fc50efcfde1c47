/**
 * The import rules of ARCHITECTURE.md, checked by `npm test` (`npm run check-imports`).
 * Data flows one way (DESIGN.md): api → quote/listing → domain; chains + solver → lifecycle →
 * store → events. A rule names what a layer must NOT import; every rule is an error.
 */
const layer = (name) => `^src/${name}/`;
/** The composition root: `src/simulator.ts` and the parts it assembles, `src/root/`. */
const ROOT = '^src/(simulator\\.ts$|root/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'domain/ holds the rules (SPEC tables, fee math, views): no I/O, no other layer, no node built-ins.',
      severity: 'error',
      from: { path: layer('domain') },
      to: {
        pathNot: [layer('domain'), '^node_modules/(viem|zod|@noble|@scure|abitype|ox|hash-wasm)/'],
      },
    },
    {
      name: 'domain-has-no-io-packages',
      comment: 'domain/ does no I/O: no Node built-in (fs, net, crypto, …) is imported there.',
      severity: 'error',
      from: { path: layer('domain') },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'only-the-root-wires-the-http-layer',
      comment: 'api/ (express routes) is the top: only the composition root (simulator.ts, root/) and the entry points import it.',
      severity: 'error',
      from: { path: '^src/', pathNot: [layer('api'), ROOT, '^src/(index|cli)\\.ts$'] },
      to: { path: layer('api') },
    },
    {
      name: 'routes-reach-chains-and-solver-through-services',
      comment: 'api/ reaches chains and the solver only through the services the root hands it (ChainControl, the chains map, the solver, a fast-fill function): it may name their types, never import their code.',
      severity: 'error',
      from: { path: layer('api') },
      to: { path: [layer('chains'), layer('solver')], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-the-root-assembles-the-parts',
      comment: 'root/ builds and stops the simulator\'s parts (stores, lifecycle and events, chains, solver, HTTP API) for startSimulator in simulator.ts; nothing else builds them.',
      severity: 'error',
      from: { path: '^src/', pathNot: ROOT },
      to: { path: layer('root') },
    },
    {
      name: 'only-entry-points-run-scenarios',
      comment: 'scenario/ drives a whole simulator like a user (HTTP, a wallet, the control plane): only the CLI and the programmatic API import it.',
      severity: 'error',
      from: { path: '^src/', pathNot: [layer('scenario'), '^src/(index|cli)\\.ts$'] },
      to: { path: layer('scenario') },
    },
    {
      name: 'quote-and-listing-sit-below-the-routes',
      comment: 'quote/, listing/ and lookups/ (the read-only look-ups) answer routes from chains and stores; they never drive the solver.',
      severity: 'error',
      from: { path: [layer('quote'), layer('listing'), layer('lookups')] },
      to: { path: [layer('execute'), layer('solver'), layer('events'), ROOT] },
    },
    {
      name: 'app-fees-and-authorize-sit-below-the-routes',
      comment: 'appFees/ (balances, claims and their payment through the chain adapter) and authorize/ (nonce mappings) answer routes from chains and stores; they never drive the solver or publish events.',
      severity: 'error',
      from: { path: [layer('appFees'), layer('authorize')] },
      to: { path: [layer('solver'), layer('events'), layer('quote'), layer('listing'), layer('lookups'), layer('lifecycle'), ROOT] },
    },
    {
      name: 'only-routes-use-app-fees-and-authorize',
      comment: 'appFees/ and authorize/ are called by their routes (and built by the root); no layer below the routes imports them.',
      severity: 'error',
      from: { path: '^src/(domain|chains|nodes|solver|lifecycle|store|events|quote|listing|lookups|errors|clock|rng|process|config|keys)/' },
      to: { path: [layer('appFees'), layer('authorize')] },
    },
    {
      name: 'chains-know-no-requests',
      comment: 'Chain adapters report facts (deposits, reorgs, receipts); they never decide a request\'s fate.',
      severity: 'error',
      from: { path: layer('chains') },
      to: { path: [layer('execute'), layer('quote'), layer('listing'), layer('lookups'), layer('solver'), layer('lifecycle'), layer('events'), ROOT] },
    },
    {
      name: 'evm-stays-inside-chains',
      comment: 'Only the chain registry knows an adapter\'s VM; nothing outside chains/ reaches into chains/<vm>/.',
      severity: 'error',
      from: { path: '^src/', pathNot: layer('chains') },
      to: { path: '^src/chains/(evm|svm|bvm|lvm)/' },
    },
    {
      name: 'vm-adapters-stay-apart',
      comment: 'Each VM\'s adapter stands alone behind ChainAdapter: chains/svm/ never reaches into chains/evm/ (or another VM\'s folder), and the other way round.',
      severity: 'error',
      from: { path: '^src/chains/(evm|svm|bvm|lvm)/' },
      to: { path: '^src/chains/(evm|svm|bvm|lvm)/', pathNot: '^src/chains/$1/' },
    },
    {
      name: 'nodes-stand-apart-from-the-service',
      comment: 'nodes/ holds the embedded nodes (SVM, Bitcoin-style, exchange), each usable alone as Anvil is: a node imports nothing of the service. It declares what it needs (the LedgerJournal store/ implements) and uses only the shared leaves, keys/ and fixtures/.',
      severity: 'error',
      from: { path: layer('nodes') },
      to: { path: '^src/', pathNot: ['^src/nodes/', '^src/(errors|clock|rng|process|config|keys)/'] },
    },
    {
      name: 'one-node-never-reaches-into-another',
      comment: 'Each embedded node stands alone: nodes/svm/ never imports nodes/bvm/ or nodes/lvm/, and the other way round (shared node plumbing sits in nodes/ itself).',
      severity: 'error',
      from: { path: '^src/nodes/([^/]+)/' },
      to: { path: '^src/nodes/[^/]+/', pathNot: '^src/nodes/$1/' },
    },
    {
      name: 'only-adapters-and-entry-points-start-nodes',
      comment: 'The service reaches an embedded node through its chain adapter (chains/<vm>/, by RPC or one narrow ledger interface); besides them only the entry points start a node alone (`intentsim node`, startSvmNode …), and store/ implements the journal interface a node declares (type-only).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/nodes/', '^src/chains/', '^src/(index|cli|nodeCommand)\\.ts$', '^src/store/'] },
      to: { path: layer('nodes') },
    },
    {
      name: 'adapters-reach-nodes-through-their-face',
      comment: 'An adapter (chains/<vm>/) and the entry points use a node only through its face, nodes/<kind>/index.ts: what it exports is the node\'s public API, the rest of its folder is its own.',
      severity: 'error',
      from: { path: ['^src/chains/', '^src/(index|cli|nodeCommand)\\.ts$'] },
      to: { path: '^src/nodes/[^/]+/', pathNot: '^src/nodes/[^/]+/index\\.ts$' },
    },
    {
      name: 'store-only-implements-the-node-journal',
      comment: 'store/ implements the LedgerJournal a node declares: it may name the node\'s types, never run a node.',
      severity: 'error',
      from: { path: layer('store') },
      to: { path: layer('nodes'), dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'execute-relays-through-chains-and-lifecycle',
      comment: 'execute/ (gasless /execute and /execute/permits) simulates and relays through the chain interface and moves requests through lifecycle/; it never drives the solver (the root hands it the relay-fault rules as a function) or the quote pipeline.',
      severity: 'error',
      from: { path: layer('execute') },
      to: { path: [layer('quote'), layer('listing'), layer('lookups'), layer('solver'), layer('events'), ROOT] },
    },
    {
      name: 'solver-acts-through-lifecycle',
      comment: 'The solver reacts to chain facts and changes requests through lifecycle/; it never calls the routes\' pipelines (quote, listing, execute) or publishes events itself.',
      severity: 'error',
      from: { path: layer('solver') },
      to: { path: [layer('execute'), layer('quote'), layer('listing'), layer('lookups'), layer('events'), ROOT] },
    },
    {
      name: 'lifecycle-is-below-its-callers',
      comment: 'lifecycle/ (transitionRequest, the one status writer) is called by the solver, quote and execute; it knows none of them and no chain.',
      severity: 'error',
      from: { path: layer('lifecycle') },
      to: { path: [layer('execute'), layer('quote'), layer('listing'), layer('lookups'), layer('solver'), layer('chains'), ROOT] },
    },
    {
      name: 'store-is-persistence-only',
      comment: 'store/ reads and writes SQLite; it calls no layer above it.',
      severity: 'error',
      from: { path: layer('store') },
      to: { path: [layer('execute'), layer('quote'), layer('listing'), layer('lookups'), layer('solver'), layer('chains'), layer('lifecycle'), layer('events'), ROOT] },
    },
    {
      name: 'events-only-publish',
      comment: 'events/ turns committed status changes into webhooks and websocket messages. It may implement an interface lifecycle declares (type-only import), nothing more.',
      severity: 'error',
      from: { path: layer('events') },
      to: {
        path: [layer('execute'), layer('quote'), layer('listing'), layer('lookups'), layer('solver'), layer('chains'), layer('lifecycle'), ROOT],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'shared-leaves-import-no-layer',
      comment: 'errors/, clock/, rng/, process/, config/ and keys/ (keys from the mnemonic) are used by every layer, so they use none.',
      severity: 'error',
      from: { path: '^src/(errors|clock|rng|process|config|keys)/' },
      to: { path: [layer('execute'), layer('api'), layer('quote'), layer('listing'), layer('lookups'), layer('solver'), layer('chains'), layer('lifecycle'), layer('store'), layer('events'), layer('nodes')] },
    },
    {
      name: 'status-writes-go-through-lifecycle',
      comment: 'The record writer is held by the lifecycle alone (built by the root in root/requestEvents.ts and handed to nothing else): a status changes only through transitionRequest.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/lifecycle/', '^src/root/requestEvents\\.ts$', '^src/store/RequestRecordWriter\\.ts$'] },
      to: { path: '^src/store/RequestRecordWriter\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles in src/ (type-only imports excepted): each module can be read after what it imports.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'src-never-imports-tests-or-scripts',
      comment: 'The simulator ships without test/ and scripts/: nothing in src/ may need them.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|scripts)/' },
    },
    {
      name: 'only-entry-points-run-the-conformance-suite',
      comment: 'The CLI command and the package entry point run conformance/; the scenario runner shares its JUnit writer and its shard split (leaves).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(index|cli|conformanceCommand)\\.ts$' },
      to: { path: '^conformance/', pathNot: '^conformance/(report/junitXml|shard)\\.ts$' },
    },
    {
      name: 'explorer-page-knows-only-http',
      comment: 'web/explorer/ runs in the browser: it reads the simulator over HTTP, the websocket and chain RPCs; from src/ it may share only the pure domain/ (status and type lists, the record view\'s type).',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(src|test|scripts|fixtures|conformance|bin)/', pathNot: '^src/domain/' },
    },
    {
      name: 'src-never-imports-the-browser-code',
      comment: 'The server bundles web/explorer/ with esbuild by path (src/api/explorer/explorerBundle.ts); it never imports it.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^web/' },
    },
    {
      name: 'conformance-knows-only-http',
      comment: 'conformance/ checks any deployment over HTTP (+ chain RPC): it imports nothing from the simulator, so it can catch the simulator\'s own mistakes.',
      severity: 'error',
      from: { path: '^conformance/' },
      to: { path: '^(src|test|scripts|fixtures)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // a git worktree may link node_modules to another checkout's: resolve packages where they are linked
    preserveSymlinks: true,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
