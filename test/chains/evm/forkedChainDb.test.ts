// covers: endpoint:POST /quote/v2, endpoint:GET /intents/status/v3, status:success
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createTestClient, createWalletClient, defineChain, getAddress, http, parseEther, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnvilInstance, type AnvilInstance } from '../../../src/chains/evm/AnvilInstance';
import { resolveAnvilBinary } from '../../../src/process/resolveAnvilBinary';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../../src/simulator';
import { executeQuoteSteps, getJson, nativeBridgeBody, postJson, waitForSettledStatus } from '../../support/bridgeClient';
import { cliProcessGroups, payDepositStep, quoteNativeBridge, waitUntilGone, waitUntilSettled, childPidsOf } from '../../support/cliProcess';
import { evmChainOf } from '../../support/evmChainOf';

/**
 * `--fork` on an EVM chain with `--db` (docs/forking.md, "With --db"): the first start pins the
 * upstream block it forks in the database; a restart on that database forks the same block again
 * (though the upstream went on, and no `--fork-block` was given) and mines the journaled local
 * blocks on it, so the chain, its balances and the requests come back as they were. A database
 * that does not match the flags is refused in one line, before anything is left running.
 */
const FORKED = 8453;
/** A key only the upstream funds. */
const UPSTREAM_USER_KEY: Hex = `0x${'6d'.repeat(32)}`;
const upstreamUser = privateKeyToAccount(UPSTREAM_USER_KEY);
/** Paid upstream only after the restart's pinned block: the restarted fork must not see it. */
const LATE_PAYEE: Address = getAddress(`0x${'1a7e'.repeat(10)}`);

/** Anvil processes whose command line names `dir` (their IPC socket is in the data directory). */
function anvilsUnder(dir: string): string[] {
  try {
    return execFileSync('pgrep', ['-a', '-f', `anvil .*${dir}`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

describe('an EVM fork with --db, stopped and started again', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fork-db-'));
  const dbPath = join(dir, 'fork.db');
  const dataDir = join(dir, 'data');
  let upstream: AnvilInstance;
  let upstreamClient: PublicClient;
  let pinned: bigint;
  let sim: RunningSimulator | undefined;
  const options = (extra: Partial<StartSimulatorOptions> = {}): StartSimulatorOptions => ({
    port: 0,
    env: {},
    log: () => undefined,
    dbPath,
    dataDir,
    chains: [{ id: 1 }, { id: FORKED }],
    fork: { [FORKED]: upstream.rpcUrl },
    ...extra,
  });
  const forkedClient = (running: RunningSimulator) => createPublicClient({ transport: http(evmChainOf(running, FORKED).rpcUrl) });
  /** Every block of the forked chain from the pinned one to its head. */
  const localBlocks = async (running: RunningSimulator): Promise<Hex[]> => {
    const client = forkedClient(running);
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const hashes: Hex[] = [];
    for (let number = pinned; number <= head; number++) hashes.push((await client.getBlock({ blockNumber: number })).hash);
    return hashes;
  };
  const refusal = (started: Promise<RunningSimulator>): Promise<Error | undefined> =>
    started.then(
      async (running) => {
        await running.stop();
        return undefined;
      },
      (error: unknown) => error as Error,
    );

  beforeAll(async () => {
    upstream = createAnvilInstance({ chainId: FORKED, binaryPath: resolveAnvilBinary({}), logFile: join(dir, 'upstream.log') });
    await upstream.start();
    upstreamClient = createPublicClient({ transport: http(upstream.rpcUrl) });
    const cheats = createTestClient({ mode: 'anvil', transport: http(upstream.rpcUrl) });
    await cheats.setBalance({ address: upstreamUser.address, value: parseEther('5') });
    await cheats.mine({ blocks: 3 });
    pinned = await upstreamClient.getBlockNumber({ cacheTime: 0 });
  }, 30_000);

  const groups = cliProcessGroups();

  afterAll(async () => {
    groups.killAll();
    await sim?.stop();
    await upstream?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('comes back at the block its first start pinned, with the same local blocks, balances and requests, though the upstream went on', async () => {
    sim = await startSimulator(options());
    expect(evmChainOf(sim, FORKED).describe().fork?.note).toContain(`pinned at its block ${pinned}`);
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(upstreamUser.address, { originChainId: FORKED, destinationChainId: 1, amount: String(parseEther('0.5')) }));
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const requestId = quote.body.steps[0].requestId as string;
    await executeQuoteSteps(sim, UPSTREAM_USER_KEY, quote.body);
    const settled = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(settled.status).toBe('success');
    const before = {
      blocks: await localBlocks(sim),
      balance: await forkedClient(sim).getBalance({ address: upstreamUser.address }),
      status: (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body,
      request: (await getJson(`${sim.baseUrl}/requests/v3?id=${requestId}`)).body,
      events: sim.control.requests.eventsFor(requestId as Hex).map((event) => event.toStatus),
    };
    expect(before.balance).toBeLessThan(parseEther('4.5'));
    await sim.stop();
    sim = undefined;

    // the upstream goes on: its user pays someone, two more blocks
    const upstreamChain = defineChain({ id: FORKED, name: 'upstream', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [upstream.rpcUrl] } } });
    const wallet = createWalletClient({ account: upstreamUser, transport: http(upstream.rpcUrl), chain: upstreamChain });
    await upstreamClient.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: LATE_PAYEE, value: parseEther('1') }), pollingInterval: 5 });
    await createTestClient({ mode: 'anvil', transport: http(upstream.rpcUrl) }).mine({ blocks: 2 });
    expect(await upstreamClient.getBlockNumber({ cacheTime: 0 })).toBeGreaterThan(pinned);

    sim = await startSimulator(options());
    expect(evmChainOf(sim, FORKED).describe().fork?.note).toContain(`pinned at its block ${pinned}`);
    // the same chain: every local block, with its hash, mined again on the same pinned block
    expect((await localBlocks(sim)).slice(0, before.blocks.length)).toEqual(before.blocks);
    expect(await forkedClient(sim).getBalance({ address: upstreamUser.address })).toBe(before.balance);
    expect(await forkedClient(sim).getBalance({ address: LATE_PAYEE })).toBe(0n);
    expect((await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body).toEqual(before.status);
    expect((await getJson(`${sim.baseUrl}/requests/v3?id=${requestId}`)).body).toEqual(before.request);
    await sim.control.solver.idle();
    expect(sim.control.requests.eventsFor(requestId as Hex).map((event) => event.toStatus)).toEqual(before.events);

    // and it goes on from there: another bridge from the forked-in account
    const again = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(upstreamUser.address, { originChainId: FORKED, destinationChainId: 1, amount: String(parseEther('0.5')) }));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    await executeQuoteSteps(sim, UPSTREAM_USER_KEY, again.body);
    expect((await waitForSettledStatus(sim.baseUrl, again.body.steps[0].requestId)).status).toBe('success');
    await sim.stop();
    sim = undefined;
  }, 180_000);

  it('a SIGKILL of the simulator and its Anvils: the restart comes back with the fill, a user transfer sent just before the kill, and the same pinned block', async () => {
    const killDb = join(dir, 'killed.db');
    const killDir = join(dir, 'killed');
    const args = ['--db', killDb, '--data-dir', killDir, '--chains', `1,${FORKED}`, '--fork', `${FORKED}=${upstream.rpcUrl}`];
    const first = await groups.start(args);
    const rpcOf = (ready: typeof first.ready) => ready.chains.find((chain) => chain.id === FORKED)!.rpcUrl;
    const forkOf = (ready: typeof first.ready) => (ready.chains.find((chain) => chain.id === FORKED) as unknown as { fork?: { note?: string } }).fork?.note;
    const pinnedNote = forkOf(first.ready);
    expect(pinnedNote).toMatch(/pinned at its block \d+/);
    // a bridge 1 -> 8453: the solver's fill is mined on the forked chain
    const user = first.ready.accounts[0]!;
    const recipient = first.ready.accounts[6]!.address;
    const step = await quoteNativeBridge(first.ready, user.address, recipient);
    await payDepositStep(first.ready, user.privateKey, step);
    const settled = await waitUntilSettled(first.ready.baseUrl, step.requestId);
    expect(settled.status).toBe('success');
    const forked = createPublicClient({ transport: http(rpcOf(first.ready)) });
    const fill = await forked.getTransactionReceipt({ hash: settled.txHashes[0]! });
    // a transfer by the upstream-only key, its receipt read, then at once the kill (its block may not be indexed yet)
    const upstreamChain = defineChain({ id: FORKED, name: 'fork', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcOf(first.ready)] } } });
    const transfer = await createWalletClient({ account: upstreamUser, transport: http(rpcOf(first.ready)), chain: upstreamChain }).sendTransaction({ to: LATE_PAYEE, value: parseEther('0.25') });
    const transferred = await forked.waitForTransactionReceipt({ hash: transfer, pollingInterval: 5 });
    const balances = { recipient: await forked.getBalance({ address: recipient }), payee: await forked.getBalance({ address: LATE_PAYEE }) };
    const anvils = childPidsOf(first.cliPid, 'anvil');
    expect(anvils).toHaveLength(2);
    process.kill(-first.top.pid!, 'SIGKILL');
    expect(await waitUntilGone([first.cliPid, ...anvils])).toEqual([]);

    await createTestClient({ mode: 'anvil', transport: http(upstream.rpcUrl) }).mine({ blocks: 2 });
    const second = await groups.start(args);
    try {
      expect(forkOf(second.ready)).toBe(pinnedNote);
      const again = createPublicClient({ transport: http(rpcOf(second.ready)) });
      expect((await again.getTransactionReceipt({ hash: fill.transactionHash })).blockHash).toBe(fill.blockHash);
      expect((await again.getTransactionReceipt({ hash: transfer })).status).toBe(transferred.status);
      expect(await again.getBalance({ address: recipient })).toBe(balances.recipient);
      expect(await again.getBalance({ address: LATE_PAYEE })).toBe(balances.payee);
      expect(await waitUntilSettled(second.ready.baseUrl, step.requestId)).toMatchObject({ status: 'success', txHashes: settled.txHashes });
    } finally {
      const exited = new Promise((resolve) => second.top.once('exit', resolve));
      second.top.kill('SIGINT');
      await exited;
    }
    expect(anvilsUnder(killDir)).toEqual([]);
  }, 150_000);

  it('refuses a database that does not match the flags in one line: another --fork-block, no --fork, an upstream without that block', async () => {
    const otherBlock = await refusal(startSimulator(options({ forkBlock: { [FORKED]: Number(pinned) - 1 } })));
    expect(otherBlock?.message).toBe(`chain ${FORKED}: --fork-block ${FORKED}=${Number(pinned) - 1}, but this --db forked chain ${FORKED} at block ${pinned} on its first start; drop --fork-block (or give ${pinned}), or use another --db`);
    const noFork = await refusal(startSimulator(options({ fork: {} })));
    expect(noFork?.message).toMatch(new RegExp(`^chain ${FORKED}: this --db holds chain ${FORKED} as a fork of its upstream's block ${pinned}; start it with --fork ${FORKED}=URL again`));

    // another chain 8453 with as many blocks: its block has another hash
    const other = createAnvilInstance({ chainId: FORKED, binaryPath: resolveAnvilBinary({}), logFile: join(dir, 'other.log') });
    await other.start();
    try {
      await createTestClient({ mode: 'anvil', transport: http(other.rpcUrl) }).mine({ blocks: Number(pinned) + 1 });
      const otherUpstream = await refusal(startSimulator(options({ fork: { [FORKED]: other.rpcUrl } })));
      expect(otherUpstream?.name).toBe('ForkUpstreamError');
      expect(otherUpstream?.message).toMatch(new RegExp(`^chain ${FORKED}: the fork upstream http://127\\.0\\.0\\.1:\\d+ has 0x[0-9a-f]{64} at block ${pinned}, not 0x[0-9a-f]{64}, the block this --db forked`));
    } finally {
      await other.stop();
    }
    expect(anvilsUnder(dataDir)).toEqual([]);
  }, 120_000);

  it('the CLI: a database of the chain unforked given --fork exits 2 with one line, nothing left running', async () => {
    const unforkedDb = join(dir, 'unforked.db');
    const own = await startSimulator({ port: 0, env: {}, log: () => undefined, dbPath: unforkedDb, dataDir: join(dir, 'unforked'), chains: [{ id: FORKED }] });
    await own.stop();
    const cliDir = join(dir, 'cli');
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, ['bin/intentsim.js', 'start', '--json', '--port', '0', '--db', unforkedDb, '--data-dir', cliDir, '--chains', `1,${FORKED}`, '--fork', `${FORKED}=${upstream.rpcUrl}`], { encoding: 'utf8', timeout: 60_000 }, (error, _stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr });
      });
    });
    expect(run.stderr.trimEnd().split('\n'), run.stderr).toHaveLength(1);
    expect(run.stderr.trimEnd()).toBe(`intentsim: chain ${FORKED}: this --db holds chain ${FORKED} unforked (its own genesis); a fork needs another --db`);
    expect(run.code).toBe(2);
    expect(anvilsUnder(cliDir)).toEqual([]);
  }, 90_000);
});
