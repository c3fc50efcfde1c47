import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cruise, type ICruiseOptions } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, it } from 'vitest';

// The import rules of .dependency-cruiser.cjs that keep the embedded nodes apart (and the routes
// off the code of chains/ and solver/), run by the project's own dependency-cruiser on a small
// tree of files: a wrong-way import must fail the check (`npm run check-imports`, part of
// `npm test`), the right way must pass. The cruise runs in this process (its API, with the
// config read as the CLI reads it, the tree as its base directory and the `err` report the CLI
// prints): a `depcruise` process per tree cost ~3 s of CPU each, loading the package again.

const CONFIG = resolve('.dependency-cruiser.cjs');
const trees: string[] = [];
const projectOptions = extractDepcruiseOptions(CONFIG);

afterAll(() => trees.forEach((tree) => rmSync(tree, { recursive: true, force: true })));

async function checkImports(files: Record<string, string>): Promise<{ ok: boolean; output: string }> {
  const tree = mkdtempSync(join(tmpdir(), 'intentsim-import-rule-'));
  trees.push(tree);
  const tsConfigFile = join(tree, 'tsconfig.json');
  writeFileSync(tsConfigFile, JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  const project = await projectOptions;
  const options: ICruiseOptions = {
    ...project,
    baseDir: tree,
    outputType: 'err',
    tsConfig: { fileName: tsConfigFile },
  };
  const result = await cruise(['src'], options, undefined, { tsConfig: extractTSConfig(tsConfigFile) });
  return { ok: result.exitCode === 0, output: String(result.output) };
}

const NODE = "export function ledgerHeight(): number { return 1; }\n";

describe('the import rules around src/nodes/', () => {
  it('fail when a node imports the service (here store/), and pass for the adapter importing its node', async () => {
    const wrongWay = await checkImports({
      'src/store/SomeStore.ts': 'export class SomeStore {}\n',
      'src/nodes/svm/ledger.ts': `import { SomeStore } from '../../store/SomeStore';\nexport const store = new SomeStore();\n${NODE}`,
    });
    expect(wrongWay.ok).toBe(false);
    expect(wrongWay.output).toContain('nodes-stand-apart-from-the-service');

    const rightWay = await checkImports({
      'src/nodes/svm/ledger.ts': NODE,
      'src/nodes/svm/index.ts': "export { ledgerHeight } from './ledger';\n",
      'src/chains/svm/adapter.ts': "import { ledgerHeight } from '../../nodes/svm';\nexport const height = ledgerHeight();\n",
    });
    expect(rightWay).toMatchObject({ ok: true });
  }, 60_000);

  it('fail when an adapter reaches past its node\'s face (nodes/<kind>/index.ts) into the node\'s own files', async () => {
    const result = await checkImports({
      'src/nodes/svm/ledger.ts': NODE,
      'src/nodes/svm/index.ts': "export { ledgerHeight } from './ledger';\n",
      'src/chains/svm/adapter.ts': "import { ledgerHeight } from '../../nodes/svm/ledger';\nexport const height = ledgerHeight();\n",
    });
    expect(result.ok).toBe(false);
    expect(result.output).toContain('adapters-reach-nodes-through-their-face');
    expect(result.output).toContain('src/chains/svm/adapter.ts → src/nodes/svm/ledger.ts');
  }, 60_000);

  it('fail when a service layer other than the adapters reaches into a node, or one node into another', async () => {
    const result = await checkImports({
      'src/nodes/svm/ledger.ts': NODE,
      'src/nodes/bvm/ledger.ts': "import { ledgerHeight } from '../svm/ledger';\nexport const height = ledgerHeight();\n",
      'src/solver/Solver.ts': "import { ledgerHeight } from '../nodes/svm/ledger';\nexport const height = ledgerHeight();\n",
    });
    expect(result.ok).toBe(false);
    expect(result.output).toContain('one-node-never-reaches-into-another');
    expect(result.output).toContain('only-adapters-and-entry-points-start-nodes');
  }, 60_000);
});

describe('the import rule between the routes and the chains and solver', () => {
  const CHAIN_CONTROL = "export class ChainControl { advanceTime(seconds: number): number { return seconds; } }\n";

  it('fails when a route imports code of chains/ or solver/, and passes for a type-only import of the service the root hands it', async () => {
    const wrongWay = await checkImports({
      'src/chains/ChainControl.ts': CHAIN_CONTROL,
      'src/solver/requestFastFill.ts': 'export function requestFastFill(): number { return 1; }\n',
      'src/api/routes/controlRoutes.ts': "import { ChainControl } from '../../chains/ChainControl';\nexport const control = new ChainControl();\n",
      'src/api/routes/fastFillRoutes.ts': "import { requestFastFill } from '../../solver/requestFastFill';\nexport const filled = requestFastFill();\n",
    });
    expect(wrongWay.ok).toBe(false);
    expect(wrongWay.output).toContain('routes-reach-chains-and-solver-through-services');
    expect(wrongWay.output).toContain('src/api/routes/controlRoutes.ts → src/chains/ChainControl.ts');
    expect(wrongWay.output).toContain('src/api/routes/fastFillRoutes.ts → src/solver/requestFastFill.ts');

    const rightWay = await checkImports({
      'src/chains/ChainControl.ts': CHAIN_CONTROL,
      'src/api/routes/controlRoutes.ts': "import type { ChainControl } from '../../chains/ChainControl';\nexport const advance = (control: ChainControl) => control.advanceTime(1);\n",
    });
    expect(rightWay).toMatchObject({ ok: true });
  }, 60_000);
});
