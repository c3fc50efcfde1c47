import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSimulatorConfig } from '../../src/config/simulatorConfig';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { startSummaryJson } from '../../src/formatStartSummary';
import { pooledChains } from '../support/pooledNodes';
import { LISTING_UNTHROTTLED, testSimulatorOptions } from '../support/startTestSimulator';
import { blockKind, documentationBlocks, documentationFiles, isExcerptOf, relativeLinksOf, type DocCodeBlock } from './docCodeBlocks';
import { writePackageBundle } from './packageBundle';
import { startSnippetHost, type SnippetHost } from './snippetHost';

/**
 * Every code block of README.md and docs/ runs here, or is marked as output (the rules are in
 * ./docCodeBlocks.ts); every relative link resolves inside the repository.
 */
const ROOT = resolve('.');
const blocks = documentationBlocks(ROOT);
const snippet = (name: string): DocCodeBlock => {
  const found = blocks.filter((block) => block.attributes.snippet === name);
  expect(found, `one block with snippet=${name}`).toHaveLength(1);
  return found[0]!;
};

/** Bitcoin's chain id: the file's simulator has it beside the pooled EVM chains (the sdk-bitcoin snippet pays on it). */
const BITCOIN = 8253038;

let sim: RunningSimulator;
let workDir: string;
let snippetHost: SnippetHost | undefined;
beforeAll(async () => {
  const options = testSimulatorOptions(pooledChains());
  sim = await startSimulator({ ...options, ...LISTING_UNTHROTTLED, chains: [...options.chains!, { id: BITCOIN }] });
  workDir = mkdtempSync(join(tmpdir(), 'intentsim-docs-'));
  // a project of the user's own: the packages the snippets import, this package among them
  mkdirSync(join(workDir, 'node_modules'));
  for (const name of readdirSync('node_modules')) {
    if (!name.startsWith('.') && name !== 'intentsim') symlinkSync(resolve('node_modules', name), join(workDir, 'node_modules', name));
  }
  // `intentsim` as this checkout's sources, bundled with the package build's recipe (dependencies
  // stay imports of node_modules; kept between runs while the sources are the same: ./packageBundle.ts);
  // test/package/ proves the same API from the built tarball
  const packageDir = join(workDir, 'node_modules', 'intentsim');
  await writePackageBundle(ROOT, join(packageDir, 'dist'));
  writeFileSync(join(packageDir, 'package.json'), JSON.stringify({ name: 'intentsim', type: 'module', exports: { '.': './dist/index.js' } }));
  snippetHost = startSnippetHost(workDir, process.env);
});
afterAll(async () => {
  await snippetHost?.close(10_000);
  await sim?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/**
 * Runs a TypeScript snippet in the user's project, INTENTSIM_URL pointing at the test simulator:
 * its types stripped by esbuild (as tsx does), then plain node, so that the packages it imports
 * load without a loader hook (seconds less per snippet). The snippets run one after another in one
 * node process (./snippetHost.ts), which loads those packages once for all of them (~1.5 s of CPU
 * per snippet less); that it ends on its own at the end proves that none left anything running.
 */
async function runTypeScript(name: string, source: string, env: Record<string, string> = {}): Promise<string> {
  const file = join(workDir, `${name}.mjs`);
  writeFileSync(file, (await transform(source, { loader: 'ts', format: 'esm', target: 'node20', sourcefile: `${name}.mts` })).code);
  return snippetHost!.run(file, { INTENTSIM_URL: sim.baseUrl, ...env }, 90_000);
}

/**
 * Runs a shell snippet as written, in its own process group (killed afterwards: a line ending in
 * `&` leaves nothing behind): `npx intentsim` is this checkout's CLI, the documented port 4646 is
 * `port`, and curl fails on an HTTP error.
 */
async function runShell(text: string, options: { port: number; cwd?: string; env?: Record<string, string> }): Promise<string> {
  const script = [
    'set -euo pipefail',
    'curl() { command curl --fail-with-body -sS "$@"; echo; }',
    text.replaceAll('npx intentsim', `node ${resolve('bin/intentsim.js')}`).replaceAll('4646', String(options.port)),
  ].join('\n');
  const child = spawn('bash', ['-c', script], { cwd: options.cwd ?? workDir, env: { ...process.env, ...options.env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((done) => child.on('exit', (exitCode) => done(exitCode)));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // the group is gone already
  }
  expect(code, output).toBe(0);
  return output;
}

const simPort = () => Number(new URL(sim.baseUrl).port);

/**
 * The library of a user's own that the scenario commands run (nine scenario runs in six CLI
 * processes): a bridge and a reorg between Bitcoin and Lighter, whose chains run inside the
 * simulator's process, so that no run starts Anvils (~0.5 s of CPU less per scenario run than
 * the EVM scenarios of ours this used). The paths split one per shard of `--shard 2/2` (by their
 * hash): the reorg one is shard 2's.
 */
const USER_SCENARIOS = {
  'scenarios/bridge/lighter-to-bitcoin.yaml': `description: USDC withdrawn from Lighter to the solver is filled in BTC, confirmed by the next block.
chains: [3586256, 8253038]
steps:
  - quote: {as: q, user: account:0, originChainId: 3586256, destinationChainId: 8253038, originCurrency: USDC, destinationCurrency: BTC, amount: "20000000", recipient: account:1}
  - deposit: {request: q}
  - mine: {chainId: 8253038}
  - expect: {request: q, status: success, statuses: [waiting, pending, submitted, success]}
`,
  'scenarios/reorg/bitcoin-reorg-without-deposits.yaml': `description: A Bitcoin reorg that replaces only blocks after the deposit's leaves the request alone, filled on Lighter.
chains: [8253038, 3586256]
steps:
  - quote: {as: q, user: account:0, originChainId: 8253038, destinationChainId: 3586256, originCurrency: BTC, destinationCurrency: USDC, amount: "1500000", recipient: account:1}
  - deposit: {request: q}
  - mine: {chainId: 8253038}
  - expect: {request: q, status: success}
  - mine: {chainId: 8253038, blocks: 3}
  - reorg: {chainId: 8253038, depth: 2}
  - expect: {request: q, status: success, statuses: [waiting, pending, submitted, success], record: {data.inTxs.0.status: success}}
`,
};

/** Each runner runs its snippet for real and checks what it did. */
const RUNNERS: Record<string, (block: DocCodeBlock) => Promise<void>> = {
  async setup(block) {
    expect(block.text.split('\n').map((line) => line.split('#')[0]!.trim()).filter(Boolean)).toEqual(['npm ci && npx intentsim start', 'npm test']);
    const ci = readFileSync('.ci/run', 'utf8').split('\n').filter((line) => /^npm /.test(line));
    expect(ci).toEqual(['npm ci', 'npm test']);
    // `npx intentsim start` as written (on a free port): ready with every chain, then Ctrl-C leaves nothing running
    const child = spawn(process.execPath, [resolve('bin/intentsim.js'), 'start'], { env: { ...process.env, INTENTSIM_PORT: '0' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    await expect.poll(() => stdout, { timeout: 60_000, interval: 100 }).toContain('intentsim is ready');
    for (const chain of ['Ethereum', 'Base', 'Arbitrum One', 'Solana', 'Bitcoin', 'Lighter']) expect(stdout).toContain(chain);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    await expect.poll(() => {
      try {
        process.kill(-child.pid!, 0);
        return 'running';
      } catch {
        return 'gone';
      }
    }, { timeout: 10_000 }).toBe('gone');
  },

  async 'sdk-bridge'(block) {
    expect(block.text).toContain("from '@relayprotocol/relay-sdk'");
    const stdout = await runTypeScript('sdk-bridge', block.text);
    const requestId = /done: (0x[0-9a-f]{64})/.exec(stdout)?.[1];
    expect(requestId, stdout).toBeDefined();
    expect(sim.control.requests.get(requestId!)?.status).toBe('success');
    expect(stdout).toContain('deposit');
  },

  async 'sdk-bitcoin'(block) {
    expect(block.text).toContain("from '@relayprotocol/relay-bitcoin-wallet-adapter'");
    // the file's simulator has the Bitcoin chain beside Ethereum; the line its `intentsim start --json`
    // would print is written where the snippet reads it
    writeFileSync(join(workDir, 'start.json'), `${JSON.stringify(startSummaryJson(sim))}\n`);
    const stdout = await runTypeScript('sdk-bitcoin', block.text);
    const [, requestId, status] = /(0x[0-9a-f]{64}): (\w+)/.exec(stdout) ?? [];
    expect(status, stdout).toBe('success');
    const record = sim.control.requests.get(requestId!);
    expect(record?.status).toBe('success');
    expect(stdout).toContain('deposit');
    // the deposit the adapter signed and broadcast is on the Bitcoin chain, confirmed (read through its Esplora), and the fill on Ethereum
    const deposit = record!.inTxs.find((tx) => tx.type === 'deposit')!;
    expect(deposit.chainId).toBe(BITCOIN);
    const { esploraUrl } = sim.control.chain(BITCOIN).describe().clientUrls!;
    expect(await (await fetch(`${esploraUrl}/tx/${deposit.txHash}/status`)).json()).toMatchObject({ confirmed: true });
    expect(record!.outTxs.map((tx) => [tx.type, tx.chainId])).toEqual([['fill', 1]]);
  },

  async 'http-bridge'(block) {
    const stdout = await runTypeScript('http-bridge', block.text);
    const [, requestId, status] = /(0x[0-9a-f]{64}): (\w+)/.exec(stdout) ?? [];
    expect(status, stdout).toBe('success');
    expect(sim.control.requests.get(requestId!)?.status).toBe('success');
  },

  async programmatic(block) {
    const stdout = await runTypeScript('programmatic', block.text);
    expect(stdout).toContain('chains 1,8453; account 0 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  },

  async 'node-commands'(block) {
    // each command as written: it prints its RPC URL and accounts, then Ctrl-C stops it and everything it started
    const commands = block.text.split('\n').map((line) => line.split('#')[0]!.trim()).filter(Boolean);
    expect(commands).toEqual(['npx intentsim node svm', 'npx intentsim node bitcoin', 'npx intentsim node exchange']);
    for (const command of commands) {
      const child = spawn(process.execPath, [resolve('bin/intentsim.js'), ...command.split(' ').slice(2)], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      await expect.poll(() => stdout, { timeout: 30_000, interval: 50 }).toMatch(/Ctrl-C stops it/);
      const rpcUrl = /RPC URL: +(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      expect(rpcUrl, stdout).toBeDefined();
      expect((await fetch(rpcUrl!, { method: 'POST', body: '{}' }).catch(() => undefined))?.status, command).toBeDefined();
      child.kill('SIGINT');
      expect(await exited, command).toBe(0);
    }
  },

  async 'node-programmatic'(block) {
    const stdout = await runTypeScript('node-programmatic', block.text);
    expect(stdout).toMatch(/^svm http:\/\/127\.0\.0\.1:\d+ bitcoin http:\/\/127\.0\.0\.1:\d+ exchange http:\/\/127\.0\.0\.1:\d+$/m);
  },

  async 'webhook-receiver'(block) {
    // the snippet is the receiver's route; around it, an express app that a signed and a forged delivery reach
    const harness = [
      "import express from 'express';",
      "import { signWebhookBody } from 'intentsim';",
      'const app = express();',
      block.text,
      'const server = app.listen(0);',
      "await new Promise((done) => server.once('listening', done));",
      'const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks`;',
      "const body = JSON.stringify({ event: 'request.status.updated', data: { status: 'success' } });",
      'const timestamp = String(Math.floor(Date.now() / 1000));',
      'const signature = signWebhookBody({ body, timestamp, apiKey: process.env.API_KEY! });',
      "const send = (sig: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature-timestamp': timestamp, 'x-signature-sha256': sig }, body }).then((r) => r.status);",
      "console.log(`signed ${await send(signature)} forged ${await send('0'.repeat(64))}`);",
      'server.close();',
    ].join('\n');
    expect(await runTypeScript('webhook-receiver', harness, { API_KEY: sim.apiKey })).toContain('signed 200 forged 401');
  },

  async 'config-file'(block) {
    const file = join(workDir, 'sim.yaml');
    writeFileSync(file, block.text);
    const config = loadSimulatorConfig({ configFile: file, env: {} });
    expect(config).toMatchObject({ port: 4646, seed: 7, serviceFeeBps: 10, solverPolicy: 'fill' });
    expect(config.chains.map((chain) => chain.id)).toEqual([1, 10, 8453]);
  },

  async 'listing-curl'(block) {
    const output = await runShell(block.text, { port: simPort(), env: { KEY: sim.apiKey } });
    expect(JSON.parse(output)).toHaveProperty('requests');
  },

  async 'rpc-faults-curl'(block) {
    const output = await runShell(block.text, { port: simPort() });
    expect(output).toContain('"kind":"rpc-timeout"');
  },

  async 'solver-rules-curl'(block) {
    const output = await runShell(block.text, { port: simPort() });
    expect(output).toContain('"id":"rule-1"');
  },

  async 'conformance-commands'(block) {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-docs-conformance-'));
    try {
      const output = await runShell(block.text, { port: simPort(), cwd: dir, env: { KEY: sim.apiKey, PRIVATE_KEY: sim.accounts[4]!.privateKey } });
      expect(output.match(/\d+ passed, 0 failed, \d+ skipped in/g)).toHaveLength(3);
      const junit = readFileSync(join(dir, 'conformance.xml'), 'utf8');
      expect(junit).toMatch(/<testsuite name="intentsim conformance" tests="\d+" failures="0"/);
      expect(junit).toContain('classname="SPEC §7.1"');
      // --only 7.1,listing: the JSON report holds those checks and no others
      const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { passed: boolean; results: Array<{ id: string; section: string }> };
      expect(json.passed).toBe(true);
      expect(json.results.length).toBeGreaterThan(0);
      expect(json.results.filter((result) => !(result.section === '7.1' || result.section.startsWith('7.1.') || result.id.startsWith('listing.'))).map((r) => r.id)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },

  async 'conformance-ci'(block) {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-docs-ci-'));
    try {
      const output = await runShell(block.text, { port: await freePort(), cwd: dir });
      expect(output).toMatch(/\d+ passed, 0 failed, \d+ skipped in/);
      expect(readFileSync(join(dir, 'conformance.xml'), 'utf8')).toMatch(/failures="0"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },

  async 'scenario-commands'(block) {
    // a user's own small library under scenarios/ (scenarios/reorg among them), and my.yaml
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-docs-scenarios-'));
    try {
      for (const [path, text] of Object.entries(USER_SCENARIOS)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      writeFileSync(join(dir, 'my.yaml'), USER_SCENARIOS['scenarios/bridge/lighter-to-bitcoin.yaml']);
      await runShell(block.text, { port: await freePort(), cwd: dir });
      expect(readdirSync(join(dir, 'timelines')).length).toBeGreaterThan(0);
      expect(readFileSync(join(dir, 'report.xml'), 'utf8')).toMatch(/failures="0"/);
      // --shard 2/2 of the two files: the reorg one (by its path's hash), in its own report
      expect(readFileSync(join(dir, 'shard.shard-2-of-2.xml'), 'utf8')).toMatch(/<testsuite name="intentsim scenarios \(shard 2\/2\)" tests="1" failures="0"[\s\S]*name="reorg\/bitcoin-reorg-without-deposits"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

describe('code blocks of README.md and docs/', () => {
  it('each says what it is: output, a snippet a runner here runs, a scenario of the library or an excerpt of a file', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(blocks.filter((block) => !blockKind(block)).map((block) => `${block.file}:${block.line}`)).toEqual([]);
  });

  it('the snippets are exactly the runners of this file', () => {
    const names = blocks.filter((block) => blockKind(block) === 'snippet').map((block) => String(block.attributes.snippet));
    expect([...names].sort()).toEqual(Object.keys(RUNNERS).sort());
  });

  it('a scenario block is the library file it names, word for word; an excerpt stands in its file', () => {
    const named = blocks.filter((block) => blockKind(block) === 'scenario' || blockKind(block) === 'excerpt');
    expect(named.length).toBeGreaterThan(0);
    for (const block of named) {
      const path = String(block.attributes.scenario ?? block.attributes.excerpt);
      expect(existsSync(path), `${block.file}:${block.line} names ${path}`).toBe(true);
      const text = readFileSync(path, 'utf8');
      if (blockKind(block) === 'scenario') expect(block.text, `${block.file}:${block.line}`).toBe(text);
      else expect(isExcerptOf(block.text, text), `${block.file}:${block.line} is not an excerpt of ${path}`).toBe(true);
    }
  });

  for (const name of Object.keys(RUNNERS)) {
    it(`runs the snippet "${name}"`, () => RUNNERS[name]!(snippet(name)), 300_000);
  }

  it('the TypeScript snippets leave nothing running: their process ends on its own once they are done', async () => {
    const { code, stderr } = await snippetHost!.close(10_000);
    expect(code, stderr).toBe(0);
  });
});

describe('links of README.md and docs/', () => {
  it('every relative link resolves inside the repository', () => {
    const broken: string[] = [];
    for (const file of documentationFiles(ROOT)) {
      for (const target of relativeLinksOf(readFileSync(file, 'utf8'))) {
        const path = resolve(dirname(file), target);
        if (!path.startsWith(ROOT) || !existsSync(path)) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('README.md is at most 300 lines', () => {
    expect(readFileSync('README.md', 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });
});
