import { execFile, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/process/isProcessAlive';
import { waitUntilGone } from '../support/cliProcess';
import { packedTarball } from './packedTarball';
import { nodeModulesFootprint, productionInstall } from './productionTree';
import { typeCheck } from './typeCheckProjects';

/**
 * The package as a user installs it: `npm pack` (which builds dist/ through `prepack`; kept by a
 * hash of its inputs, ./packedTarball.ts, so the same sources are built and packed once), the
 * tarball extracted into node_modules/intentsim of an empty project, and beside it only the
 * packages a user's install gets (./productionTree.ts reads them from the lock), linked from this
 * checkout's node_modules (the flat tree `npm install` makes, without the network and without
 * compiling better-sqlite3 again); its size is what a user's node_modules holds.
 * A file that needs a devDependency at run time fails here. Type checks (TypeScript 7's native tsc,
 * ./typeCheckProjects.ts) and Vitest run in a second project that also has the user's own dev tools
 * (TypeScript, @types/node, Vitest).
 * Each node process that loads the package costs ~1 s of CPU (its bundle) and each simulator start
 * a little more, so checks that need no process of their own share one: tsc checks the three
 * TypeScript projects in one run (typeChecks below), the plain ESM and CommonJS scripts and tsc's
 * output run in one node process (userScripts), the two Jest stand-ins in another (jestRuns), and the
 * four Vitest configurations are the projects of one Vitest run (vitestRun). Each test still asserts
 * what it did alone.
 */
const run = promisify(execFile);
const REPO = resolve('.');
const PROJECT_FILES = join(REPO, 'test', 'package', 'project');

let work: string;
let project: string;
let devProject: string;
let packedFiles: string[];
let tarballBytes: number;
/** The tarball came from packedTarball's cache: the same inputs were packed (and built) before. */
let packedFromCache: boolean;
/** What the user's node_modules holds once installed, and how long the install took (extract and link). */
let footprint: { bytes: number; packages: number };
let installMs: number;

/**
 * The top-level packages `npm install intentsim` adds (nested ones come inside them), those this
 * platform has (an optional package for another one is in the lock, not in node_modules).
 */
function productionPackages(): string[] {
  return productionInstall(JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as Parameters<typeof productionInstall>[0])
    .filter((path) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) && existsSync(join(REPO, path)))
    .map((path) => path.slice('node_modules/'.length));
}

function linkPackages(nodeModules: string, names: readonly string[]): void {
  for (const name of names) {
    mkdirSync(join(nodeModules, name, '..'), { recursive: true });
    symlinkSync(join(REPO, 'node_modules', name), join(nodeModules, name));
  }
}

/** Runs `node <args>` in the project; resolves with its stdout once it has exited by itself (code 0) within `timeoutMs`. */
async function nodeIn(dir: string, args: readonly string[], timeoutMs = 60_000): Promise<string> {
  const { stdout } = await run(process.execPath, args, { cwd: dir, timeout: timeoutMs });
  return stdout;
}

let vitestRunOutput: Promise<string> | undefined;

/**
 * The Vitest run of the dev project (a run of its own, not a worker of this one), once for the tests
 * that read it: vitest.projects.config.mjs runs the user's four configs (vitest.config.mjs and the
 * isolated, unisolated and parallel ones) as projects of one run, each with its own simulator; its
 * output (the verbose reporter: a line per test, labelled with its project), passing or failing.
 */
function vitestRun(): Promise<string> {
  vitestRunOutput ??= (async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !['NODE_OPTIONS', 'TEST', 'FORCE_COLOR'].includes(name)));
    const args = [join('node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'vitest.projects.config.mjs', '--reporter', 'verbose'];
    const { stdout, stderr } = await run(process.execPath, args, { cwd: devProject, env: { ...env, NO_COLOR: '1' }, timeout: 90_000 }).catch((failed: { stdout?: string; stderr?: string; code?: unknown }) => {
      if (typeof failed.code !== 'number') throw failed; // a timeout or a run that never started, not failing tests
      return { stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    });
    return `${stdout}\n${stderr}`;
  })();
  return vitestRunOutput;
}

/** The tests of one project of the Vitest run, as the verbose reporter ends them ('✓ file > test' or '× file > test'), sorted. */
function projectTests(output: string, project: string): string[] {
  return output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^[✓×↓] /.test(line) && line.includes(` |${project}| `))
    .map((line) => line.replace(` |${project}|`, '').replace(/ \d+ms$/, ''))
    .sort();
}

/** The test files of one project of the Vitest run that failed before any test (a setup file that threw): `FAIL |project| file [ file ]`. */
function projectFailedFiles(output: string, project: string): string[] {
  return [...output.matchAll(new RegExp(`FAIL\\s+\\|${project}\\| (\\S+) \\[`, 'g'))].map((match) => match[1]!).sort();
}

let typeChecksRun: Promise<string> | undefined;

/**
 * What tsc says of the dev project's three TypeScript projects, checked in one `tsc -b` once for the
 * tests that read it: the user's files under nodenext (tsc writes typed.mjs and typedRequire.cjs, their
 * output, into the empty project) and under bundler resolution, and wrong.mts, a type error against the
 * package under nodenext (it shows the check can fail).
 */
function typeChecks(): Promise<string> {
  typeChecksRun ??= (async () => {
    const common = { target: 'es2022', strict: true, skipLibCheck: true, types: ['node'], noUncheckedIndexedAccess: true };
    writeFileSync(join(devProject, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...common, module: 'nodenext', moduleResolution: 'nodenext', outDir: project, rootDir: '.' }, files: ['typed.mts', 'typedRequire.cts', 'vitestTypes.mts'] }));
    writeFileSync(join(devProject, 'tsconfig.bundler.json'), JSON.stringify({ compilerOptions: { ...common, module: 'esnext', moduleResolution: 'bundler', noEmit: true }, files: ['typed.mts', 'vitestTypes.mts'] }));
    writeFileSync(join(devProject, 'wrong.mts'), "import { startSimulator } from 'intentsim';\nawait startSimulator({ chains: 'all' });\n");
    writeFileSync(join(devProject, 'tsconfig.wrong.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, skipLibCheck: true, types: ['node'], noEmit: true }, files: ['wrong.mts'] }));
    return typeCheck(devProject, ['tsconfig.json', 'tsconfig.bundler.json', 'tsconfig.wrong.json']);
  })();
  return typeChecksRun;
}

let userScriptsRun: Promise<string[]> | undefined;

/**
 * The lines the user's scripts print, in one node process once for the tests that read them (after
 * the type checks, which write typed.mjs and typedRequire.cjs): node runs, each to its end and in this
 * order, typedRequire.cjs (--require: CommonJS, before anything is imported), esm.mjs and typed.mjs
 * (--import: ESM, each starts a simulator, reads /chains and stops it), then commonjs.cjs (which starts
 * its own and compares what require and import give).
 */
function userScripts(): Promise<string[]> {
  userScriptsRun ??= (async () => {
    await typeChecks();
    const stdout = await nodeIn(project, ['--require', './typedRequire.cjs', '--import', './esm.mjs', '--import', './typed.mjs', 'commonjs.cjs'], 110_000);
    return stdout.trim().split('\n');
  })();
  return userScriptsRun;
}

let jestRunsRun: Promise<{ jestRun: string; jestIsolationRun: string }> | undefined;

/**
 * The lines of the two Jest stand-ins, run one after the other in one node process once for the tests
 * that read them (one loading of intentsim/jest): jestRun.cjs (the default global setup, all default
 * chains, read by a worker) to its teardown, then jestIsolationRun.cjs (chains 1 and 8453, its workers).
 */
function jestRuns(): Promise<{ jestRun: string; jestIsolationRun: string }> {
  jestRunsRun ??= (async () => {
    const stdout = await nodeIn(project, ['-e', "require('./jestRun.cjs')().then(() => require('./jestIsolationRun.cjs')())"], 110_000);
    const [jestRun, jestIsolationRun, ...more] = stdout.trim().split('\n');
    expect(more).toEqual([]);
    return { jestRun: jestRun!, jestIsolationRun: jestIsolationRun! };
  })();
  return jestRunsRun;
}

/** The one JSON line a script prints while its simulator runs: the chain ids /chains lists and its anvil processes. */
function scriptReport(stdout: string): { chains: number[]; anvils: number[] } & Record<string, unknown> {
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { chains: number[]; anvils: number[] };
}

/** Every file below `dir` with its size and modification time. */
function fileListing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => `${relative(dir, path)} ${statSync(path).size} ${statSync(path).mtimeMs}`)
    .sort();
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'intentsim-package-'));
  const packed = await packedTarball(REPO, work);
  packedFiles = packed.files;
  tarballBytes = packed.size;
  packedFromCache = packed.cached;

  const installStarted = performance.now();
  project = join(work, 'project');
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  await run('tar', ['-xzf', packed.tarball, '-C', work]);
  renameSync(join(work, 'package'), join(project, 'node_modules', 'intentsim'));
  // npm links the bin and makes it executable
  symlinkSync('../intentsim/bin/intentsim.js', join(project, 'node_modules', '.bin', 'intentsim'));
  chmodSync(join(project, 'node_modules', 'intentsim', 'bin', 'intentsim.js'), 0o755);
  linkPackages(join(project, 'node_modules'), productionPackages().filter((name) => name !== 'intentsim'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-user-project', private: true, dependencies: { intentsim: '0.1.0' } }));
  installMs = performance.now() - installStarted;
  footprint = nodeModulesFootprint(join(project, 'node_modules'));
  cpSync(PROJECT_FILES, project, { recursive: true });

  devProject = join(work, 'dev-tools');
  mkdirSync(join(devProject, 'node_modules'), { recursive: true });
  linkPackages(join(devProject, 'node_modules'), readdirSync(join(REPO, 'node_modules')).filter((name) => !name.startsWith('.') && !name.startsWith('@')));
  for (const scope of readdirSync(join(REPO, 'node_modules')).filter((name) => name.startsWith('@'))) {
    linkPackages(join(devProject, 'node_modules'), readdirSync(join(REPO, 'node_modules', scope)).map((name) => `${scope}/${name}`));
  }
  // a copy, so that its imports of other packages' types resolve in this project (as in one install)
  cpSync(join(project, 'node_modules', 'intentsim'), join(devProject, 'node_modules', 'intentsim'), { recursive: true });
  cpSync(PROJECT_FILES, devProject, { recursive: true });
}, 420_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm pack tarball', () => {
  it('ships the built package and its CLI, no sources, tests or scripts', () => {
    expect(packedFiles).toEqual(expect.arrayContaining(['package.json', 'README.md', 'bin/intentsim.js', 'dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts', 'dist/cli.js', 'dist/explorer/explorer.js', 'dist/api-reference/standalone.js', 'dist/vitest.js', 'dist/jest.cjs', 'dist/vitest-isolate.js', 'dist/jest-isolate.cjs']));
    expect(packedFiles.filter((path) => !/^(package\.json|README\.md|bin\/intentsim\.js|dist\/.+)$/.test(path))).toEqual([]);
    expect(packedFiles.filter((path) => /\.(ts|mts|cts)$/.test(path) && !/\.d\.c?ts$/.test(path))).toEqual([]);
    // ~1 MB of it is the API reference renderer (3.5 MB unpacked)
    expect(tarballBytes).toBeLessThan(2_500_000);
  });
});

describe('the install', () => {
  it('takes at most 250 MB of node_modules: the build and test tools (esbuild, tsx, solc, @scalar/api-reference) are not installed', () => {
    const mb = footprint.bytes / 1024 / 1024;
    process.stdout.write(`installed package: node_modules ${mb.toFixed(1)} MB, ${footprint.packages} packages; tarball ${(tarballBytes / 1024 / 1024).toFixed(2)} MB${packedFromCache ? ' (packed before from the same inputs)' : ''}; install (extract and link) ${installMs.toFixed(0)} ms\n`);
    expect(mb).toBeLessThanOrEqual(250);
    const installed = readdirSync(join(project, 'node_modules'), { recursive: true }).map(String);
    for (const tool of ['esbuild', 'tsx', 'solc', join('@scalar', 'api-reference'), 'typescript']) expect(installed, tool).not.toContain(tool);
  });
});

describe('installed into an empty project', () => {
  it('a plain Node ESM script imports it, starts the simulator, reads /chains and stops it; a TypeScript file type-checks with tsc under nodenext and bundler resolution, and its output runs', async () => {
    // the nodenext and bundler projects type-check: tsc's only diagnostic is wrong.mts's (the test below)
    // (a diagnostic's further lines are indented: a line that is not starts the next)
    expect((await typeChecks()).split(/\n(?! )/).filter((diagnostic) => diagnostic.trim() !== '' && !diagnostic.startsWith('wrong.mts('))).toEqual([]);
    const lines = await userScripts();
    // esm.mjs's line and typed.mjs's, after typedRequire.cjs's (userScripts)
    const [plain, typed] = lines.slice(1, 3).map((line) => scriptReport(line));
    expect(plain!.chains).toEqual([1]);
    expect(plain!.anvils).toHaveLength(1);
    expect(await waitUntilGone(plain!.anvils)).toEqual([]);
    const report = typed!;
    expect(report).toMatchObject({ chains: [1], summary: [true], checks: true, resolved: [false, false, false, false, false], setups: 5 });
    expect(await waitUntilGone(report.anvils)).toEqual([]);
    // typedRequire.cjs, tsc's CommonJS output, and commonjs.cjs ran in the same process: the test below reads their lines
  }, 120_000); // tsc over three projects and a process with three simulators: ~5 s of CPU, longer with the suite beside it

  it('a type error against the package fails the check (the check above can fail)', async () => {
    // the same tsc run as the check above (typeChecks), the project of wrong.mts beside the user's
    expect(await typeChecks()).toMatch(/^wrong\.mts\(2,.*error TS2322/m);
  });

  it("a CommonJS script requires it and does the same; require and import see the same names; the TypeScript CommonJS file's output runs", async () => {
    // the process of userScripts: node first ran typedRequire.cjs (tsc's output of typedRequire.cts, above) with --require, commonjs.cjs last;
    // the script also lists what each subpath gives require and import
    const lines = await userScripts();
    expect(lines).toHaveLength(4);
    const [typedRequire, commonjs] = [lines[0]!, lines[3]!];
    expect(JSON.parse(typedRequire)).toEqual({ startSimulator: 'function', globalSetup: 'function', resolved: [false, false] });
    const report = scriptReport(commonjs);
    expect(report.chains).toEqual([1]);
    expect(report.anvils).toHaveLength(1);
    expect(await waitUntilGone(report.anvils)).toEqual([]);
    const rows = report.names as Array<[string, string[], string[]]>;
    expect(rows.map(([subpath]) => subpath)).toEqual(['intentsim', 'intentsim/conformance', 'intentsim/scenario', 'intentsim/jest']);
    for (const [subpath, required, imported] of rows) expect(required, subpath).toEqual(imported);
    expect(rows[0]![1]).toEqual(expect.arrayContaining(['startSimulator', 'runScenario', 'runConformance', 'verifyWebhookSignature']));
  }, 120_000);

  it('a node --test file shares one simulator through intentsim/jest and leaves no chain running', async () => {
    const { stdout } = await run(process.execPath, ['--test', '--test-reporter=tap', 'shared.test.mjs'], { cwd: project, timeout: 60_000 });
    expect(stdout).toMatch(/^# pass 2$/m);
    expect(stdout).toMatch(/^# fail 0$/m);
  });

  it("Jest's global setup starts one simulator (all default chains), its workers read it from the environment, its global teardown stops it", async () => {
    const report = scriptReport((await jestRuns()).jestRun);
    expect(report.chains).toEqual([1, 8453, 42161, 792703809, 8253038, 3586256]);
    expect(report.anvils).toHaveLength(3);
    expect(report.contextCleared).toBe(true);
    expect(await waitUntilGone(report.anvils)).toEqual([]);
  }, 120_000); // the two Jest stand-ins in one process (jestRuns): ~8 s of CPU, longer with the suite beside it

  it("Vitest's globalSetup from intentsim/vitest starts one simulator for the run and test files inject it", async () => {
    const output = await vitestRun();
    expect(output).toMatch(/Test Files\s+2 failed \| 4 passed \(6\)/); // the two failures are the unisolated and parallel projects' (below)
    expect(projectTests(output, 'inject')).toEqual(['✓ shared.vitest.test.mjs > inject gives the run its simulator']);
    expect(projectFailedFiles(output, 'inject')).toEqual([]);
  }, 120_000); // the one Vitest run of four projects: ~8 s of CPU, longer with the suite beside it

  it('intentsim/vitest/isolate resets the shared world before each test: the second test sees no request and the start balance, which it does not without it', async () => {
    const output = await vitestRun();
    expect(projectTests(output, 'isolated')).toEqual([
      '✓ second.isolated.test.mjs > the shared simulator answers',
      '✓ worldIsolation.isolated.test.mjs > a bridge is listed and spends the account',
      "✓ worldIsolation.isolated.test.mjs > the next test sees an empty listing and the start's balance",
    ].sort());
    expect(projectFailedFiles(output, 'isolated')).toEqual([]);
    expect(projectTests(output, 'unisolated')).toEqual([
      '✓ worldIsolation.isolated.test.mjs > a bridge is listed and spends the account',
      "× worldIsolation.isolated.test.mjs > the next test sees an empty listing and the start's balance",
    ].sort());
    expect(output).toMatch(/FAIL\s+\|unisolated\| worldIsolation\.isolated\.test\.mjs > the next test sees an empty listing/);
  }, 120_000);

  it('intentsim/vitest/isolate refuses to run in a second parallel worker (fileParallelism with two workers)', async () => {
    const output = await vitestRun();
    // one file of the two fails in its setup file (whichever the second worker took); the other's tests pass
    const [refused, ...more] = projectFailedFiles(output, 'parallel');
    expect(more).toEqual([]);
    expect(['second.isolated.test.mjs', 'worldIsolation.isolated.test.mjs']).toContain(refused);
    const passed = projectTests(output, 'parallel');
    expect(passed.length).toBeGreaterThan(0);
    for (const line of passed) expect(line).toMatch(/^✓ /);
    expect(passed.filter((line) => line.includes(refused!))).toEqual([]);
    expect(output).toContain('intentsim/vitest/isolate: test files run in parallel (VITEST_POOL_ID=2)');
  }, 120_000);

  it('intentsim/jest/isolate in a Jest worker resets the world before each test, and a second parallel worker refuses', async () => {
    const report = JSON.parse((await jestRuns()).jestIsolationRun) as Record<string, unknown>;
    // one worker process runs both files (--runInBand), then a second parallel worker the isolated one, which refuses before any test
    expect(report).toEqual({
      isolated: { pass: 2, fail: 0, ok: true, refused: false },
      shared: { pass: 1, fail: 1, ok: false, refused: false },
      parallel: { pass: 0, fail: 0, ok: false, refused: true },
      files: [['isolated', 'shared'], ['isolated']],
    });
  }, 120_000);

  it('the CLI of a read-only install starts, serves /chains, the explorer and the API reference page, and stops on SIGINT, writing nothing into the package', async () => {
    const installed = join(project, 'node_modules', 'intentsim');
    // chmod -R a-w (root may write all the same: the listing below is what shows nothing was written)
    for (const path of [installed, ...readdirSync(installed, { recursive: true }).map((name) => join(installed, String(name)))]) chmodSync(path, statSync(path).mode & 0o7555);
    const before = fileListing(installed);
    const cli = spawn(join(project, 'node_modules', '.bin', 'intentsim'), ['start', '--json', '--port', '0', '--chains', '1'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    cli.stderr.on('data', (chunk) => (stderr += chunk));
    const ready = await new Promise<{ baseUrl: string }>((resolveReady, reject) => {
      createInterface({ input: cli.stdout }).on('line', (line) => line.startsWith('{') && resolveReady(JSON.parse(line) as { baseUrl: string }));
      cli.once('exit', (code) => reject(new Error(`intentsim exited ${code} before it was ready: ${stderr.slice(-2000)}`)));
    });
    const anvils = (await run('pgrep', ['-P', String(cli.pid), '-x', 'anvil'])).stdout.trim().split('\n').map(Number);
    expect(anvils).toHaveLength(1);
    const chains = (await (await fetch(`${ready.baseUrl}/chains`)).json()) as { chains: Array<{ id: number }> };
    expect(chains.chains.map((chain) => chain.id)).toEqual([1]);
    const explorer = await fetch(`${ready.baseUrl}/explorer/assets/explorer.js`);
    expect(explorer.status).toBe(200);
    expect((await explorer.text()).length).toBeGreaterThan(10_000);
    const explorerPage = await fetch(`${ready.baseUrl}/explorer`);
    expect(explorerPage.status).toBe(200);
    expect(await explorerPage.text()).toContain('/explorer/api-reference');
    const reference = await fetch(`${ready.baseUrl}/explorer/api-reference`);
    expect(reference.status).toBe(200);
    expect(await reference.text()).toContain('<script src="/explorer/assets/api-reference.js">');
    const renderer = await fetch(`${ready.baseUrl}/explorer/assets/api-reference.js`);
    expect(renderer.status).toBe(200);
    expect((await renderer.text()).length).toBeGreaterThan(1_000_000);
    const exited = new Promise<number | null>((resolveExit) => cli.once('exit', (code) => resolveExit(code)));
    cli.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(await waitUntilGone(anvils)).toEqual([]);
    expect(isProcessAlive(cli.pid!)).toBe(false);
    expect(fileListing(installed)).toEqual(before);
  });
});
