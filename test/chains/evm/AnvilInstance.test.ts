import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { callJsonRpc } from '../../../src/chains/evm/callJsonRpc';
import { isProcessAlive } from '../../../src/process/isProcessAlive';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AnvilNotStartedError, anvilArgs, createAnvilInstance } from '../../../src/chains/evm/AnvilInstance';
import type { AnvilInstanceOptions } from '../../../src/chains/evm/AnvilInstance';
import { ChildProcessStartError, stopAllChildProcesses } from '../../../src/process/ChildProcessInstance';
import type { UnexpectedExit } from '../../../src/process/ChildProcessInstance';
import { resolveAnvilBinary } from '../../../src/process/resolveAnvilBinary';

describe('anvilArgs', () => {
  it('defaults to loopback, a free port and the chain id', () => {
    expect(anvilArgs({ chainId: 8453 })).toEqual(['--host', '127.0.0.1', '--port', '0', '--chain-id', '8453']);
  });

  it('maps each option to its flag, extra args last', () => {
    expect(
      anvilArgs({
        chainId: 10,
        host: '0.0.0.0',
        port: 8545,
        mnemonic: 'test test test test test test test test test test test junk',
        accounts: 3,
        balanceEther: 1000,
        blockTimeSeconds: 2,
        statePath: '/tmp/chain-10.json',
        stateIntervalSeconds: 5,
        preserveHistoricalStates: true,
        baseFeeWei: 1_000_000_000_000_000_000_000n,
        extraArgs: ['--order', 'fifo'],
      }),
    ).toEqual([
      '--host', '0.0.0.0',
      '--port', '8545',
      '--chain-id', '10',
      '--mnemonic', 'test test test test test test test test test test test junk',
      '--accounts', '3',
      '--balance', '1000',
      '--block-time', '2',
      '--state', '/tmp/chain-10.json',
      '--state-interval', '5',
      '--preserve-historical-states',
      '--base-fee', '1000000000000000000000',
      '--order', 'fifo',
    ]);
  });

  it('leaves out flags for options not given (automine, no state, no historical states)', () => {
    const args = anvilArgs({ chainId: 1, preserveHistoricalStates: false });
    for (const flag of ['--block-time', '--state', '--state-interval', '--preserve-historical-states', '--base-fee']) {
      expect(args).not.toContain(flag);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Against the real binary.

const binaryPath = resolveAnvilBinary({ explicitPath: process.env.INTENTSIM_ANVIL, pathEnv: process.env.PATH });
const scratch = mkdtempSync(join(tmpdir(), 'intentsim-anvil-'));
afterAll(async () => {
  await stopAllChildProcesses();
  rmSync(scratch, { recursive: true, force: true });
});

let instanceCounter = 0;
function anvil(options: Partial<AnvilInstanceOptions> = {}) {
  instanceCounter += 1;
  return createAnvilInstance({
    chainId: 8453,
    binaryPath,
    logFile: join(scratch, `logs/anvil-${instanceCounter}.log`),
    startTimeoutMs: 5_000,
    ...options,
  });
}

const rpc = callJsonRpc;

async function rpcRecord(url: string, method: string, params: unknown[] = []): Promise<Record<string, unknown>> {
  const result = await rpc(url, method, params);
  if (typeof result !== 'object' || result === null) throw new Error(`${method} returned ${String(result)}`);
  return result as Record<string, unknown>;
}

/**
 * eth_sendTransaction answers once the transaction is in the pool; even with automine the block is
 * mined a moment later, so wait for the receipt.
 */
async function sendTransactionAndWait(url: string, transaction: Record<string, string>): Promise<Record<string, unknown>> {
  const hash = await rpc(url, 'eth_sendTransaction', [transaction]);
  for (;;) {
    const receipt = await rpc(url, 'eth_getTransactionReceipt', [hash]);
    if (typeof receipt === 'object' && receipt !== null) return receipt as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const isAlive = isProcessAlive;

const deadAddress = '0x000000000000000000000000000000000000dEaD';
/** Init code that emits one LOG0 (no topics, no data) from its constructor and deploys nothing. */
const emitOneLogInitCode = '0x60006000a000';

describe('createAnvilInstance', () => {
  it('starts on a free port and answers eth_chainId with the configured chain id', async () => {
    const instance = anvil({ chainId: 8453 });
    expect(instance.name).toBe('anvil-8453');
    expect(() => instance.rpcUrl).toThrow(AnvilNotStartedError);

    const startedAt = performance.now();
    const endpoints = await instance.start();
    console.log(`[timing] anvil spawn → Listening line → eth_chainId ok: ${(performance.now() - startedAt).toFixed(1)} ms`);

    expect(endpoints.port).toBeGreaterThan(0);
    expect(endpoints.rpcUrl).toBe(`http://127.0.0.1:${endpoints.port}`);
    expect(endpoints.wsUrl).toBe(`ws://127.0.0.1:${endpoints.port}`);
    expect(instance.rpcUrl).toBe(endpoints.rpcUrl);
    expect(instance.status).toBe('started');
    expect(await rpc(instance.rpcUrl, 'eth_chainId')).toBe('0x2105');
    // the log is a write stream: the line the ready probe read from stdout reaches the file a moment later
    await vi.waitFor(() => expect(readFileSync(instance.logFile, 'utf8')).toContain(`Listening on 127.0.0.1:${endpoints.port}`), { timeout: 5_000 });
    await instance.stop();
  });

  it('gives two instances started at once different ports', async () => {
    const base = anvil({ chainId: 8453 });
    const optimism = anvil({ chainId: 10 });
    const [baseEndpoints, optimismEndpoints] = await Promise.all([base.start(), optimism.start()]);

    expect(baseEndpoints.port).not.toBe(optimismEndpoints.port);
    expect(await rpc(base.rpcUrl, 'eth_chainId')).toBe('0x2105');
    expect(await rpc(optimism.rpcUrl, 'eth_chainId')).toBe('0xa');
    await Promise.all([base.stop(), optimism.stop()]);
  });

  it('returns the same promise from a second start()', async () => {
    const instance = anvil();
    const first = instance.start();
    expect(instance.start()).toBe(first);
    const endpoints = await first;
    expect(instance.start()).toBe(first);
    await expect(instance.start()).resolves.toEqual(endpoints);
    await instance.stop();
  });

  it('stop() ends the process and closes the port; a second stop() is a no-op', async () => {
    const instance = anvil();
    const { rpcUrl } = await instance.start();
    const pid = instance.pid;
    if (pid === undefined) throw new Error('expected a pid');

    await instance.stop();

    expect(instance.status).toBe('stopped');
    expect(instance.pid).toBeUndefined();
    expect(isAlive(pid)).toBe(false);
    await expect(rpc(rpcUrl, 'eth_chainId')).rejects.toThrow();
    expect(() => instance.rpcUrl).toThrow('anvil-8453 has no endpoints while stopped');
    await instance.stop();
    expect(instance.status).toBe('stopped');
  });

  it('restart() runs a new process on the same port, with a fresh chain when there is no state file', async () => {
    const instance = anvil();
    const first = await instance.start();
    const firstPid = instance.pid;
    await rpc(first.rpcUrl, 'evm_mine');
    expect(await rpc(first.rpcUrl, 'eth_blockNumber')).toBe('0x1');

    const second = await instance.restart();

    expect(second).toEqual(first);
    expect(instance.pid).not.toBe(firstPid);
    expect(await rpc(second.rpcUrl, 'eth_chainId')).toBe('0x2105');
    expect(await rpc(second.rpcUrl, 'eth_blockNumber')).toBe('0x0');
    await instance.stop();
  });

  it('rejects a start with bad flags, naming the instance and showing anvil’s error', async () => {
    const instance = anvil({ chainId: 10, extraArgs: ['--no-such-flag'] });
    const error: unknown = await instance.start().catch((rejection: unknown) => rejection);

    expect(error).toBeInstanceOf(ChildProcessStartError);
    expect(error).toMatchObject({ reason: 'exited', exitCode: 2, instanceName: 'anvil-10' });
    expect((error as Error).message).toContain('anvil-10 exited during start');
    expect((error as Error).message).toContain('--no-such-flag');
    expect(instance.status).toBe('stopped');
  });

  it('calls onUnexpectedExit when anvil is killed from outside', async () => {
    const instance = anvil();
    const exited = new Promise<UnexpectedExit>((resolve) => instance.onUnexpectedExit(resolve));
    await instance.start();
    const pid = instance.pid ?? -1;

    process.kill(pid, 'SIGKILL');

    await expect(exited).resolves.toMatchObject({ name: 'anvil-8453', pid, signal: 'SIGKILL' });
    expect(instance.status).toBe('stopped');
  });

  it('keeps chain state across a stop and start with the same statePath', async () => {
    const statePath = join(scratch, 'state/base.json');
    const before = anvil({ statePath });
    const { rpcUrl } = await before.start();

    await rpc(rpcUrl, 'anvil_setBalance', [deadAddress, '0x1234']);
    await rpc(rpcUrl, 'evm_mine');
    const [from] = (await rpc(rpcUrl, 'eth_accounts')) as string[];
    if (from === undefined) throw new Error('anvil has no dev accounts');
    const receipt = await sendTransactionAndWait(rpcUrl, { from, data: emitOneLogInitCode });
    const txHash = receipt.transactionHash;
    const blockNumber = await rpc(rpcUrl, 'eth_blockNumber');
    const blocks = await Promise.all(['0x0', '0x1', '0x2'].map((n) => rpcRecord(rpcUrl, 'eth_getBlockByNumber', [n, false])));
    const logs = await rpc(rpcUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
    const senderBalance = await rpc(rpcUrl, 'eth_getBalance', [from, 'latest']);
    await before.stop();

    const after = anvil({ statePath });
    const reloaded = await after.start();

    const reloadedBlocks = await Promise.all(
      ['0x0', '0x1', '0x2'].map((n) => rpcRecord(reloaded.rpcUrl, 'eth_getBlockByNumber', [n, false])),
    );
    const facts = {
      blockNumber: (await rpc(reloaded.rpcUrl, 'eth_blockNumber')) === blockNumber,
      balanceSetByCheatCode: (await rpc(reloaded.rpcUrl, 'eth_getBalance', [deadAddress, 'latest'])) === '0x1234',
      senderBalance: (await rpc(reloaded.rpcUrl, 'eth_getBalance', [from, 'latest'])) === senderBalance,
      blockHashes: reloadedBlocks.every((block, index) => block.hash === blocks[index]?.hash),
      receipt: JSON.stringify(await rpc(reloaded.rpcUrl, 'eth_getTransactionReceipt', [txHash])) === JSON.stringify(receipt),
      transaction: (await rpcRecord(reloaded.rpcUrl, 'eth_getTransactionByHash', [txHash])).hash === txHash,
      logs: JSON.stringify(await rpc(reloaded.rpcUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])) === JSON.stringify(logs),
      stateAtOlderBlock: await rpc(reloaded.rpcUrl, 'eth_getBalance', [deadAddress, '0x1']).then(
        () => 'available',
        (error: unknown) => (error as Error).message,
      ),
    };
    console.log('[anvil --state] after reload, survived:', facts);

    expect(blockNumber).toBe('0x2');
    expect(receipt.status).toBe('0x1');
    expect(logs).toHaveLength(1);
    expect(facts).toEqual({
      blockNumber: true,
      balanceSetByCheatCode: true,
      senderBalance: true,
      blockHashes: true,
      receipt: true,
      transaction: true,
      logs: true,
      stateAtOlderBlock: expect.stringContaining('BlockOutOfRangeError'),
    });

    // New blocks continue the reloaded chain.
    await rpc(reloaded.rpcUrl, 'evm_mine');
    const next = await rpcRecord(reloaded.rpcUrl, 'eth_getBlockByNumber', ['latest', false]);
    expect(next.number).toBe('0x3');
    expect(next.parentHash).toBe(blocks[2]?.hash);
    await after.stop();
  });

  it('keeps state at older blocks across a reload only with preserveHistoricalStates', async () => {
    const statePath = join(scratch, 'state/historical.json');
    const before = anvil({ statePath, preserveHistoricalStates: true });
    const { rpcUrl } = await before.start();
    const [from] = (await rpc(rpcUrl, 'eth_accounts')) as string[];
    if (from === undefined) throw new Error('anvil has no dev accounts');
    for (let i = 0; i < 2; i += 1) {
      await sendTransactionAndWait(rpcUrl, { from, to: deadAddress, value: '0x100' });
    }
    await before.stop();

    const after = anvil({ statePath });
    const reloaded = await after.start();
    const balances = await Promise.all(
      ['0x0', '0x1', '0x2'].map((n) => rpc(reloaded.rpcUrl, 'eth_getBalance', [deadAddress, n])),
    );
    expect(balances).toEqual(['0x0', '0x100', '0x200']);
    await after.stop();
  });

  it('writes its state file when the parent Node process exits without stopping it', async () => {
    const statePath = join(scratch, 'state/parent-exit.json');
    const script = join(scratch, 'parent-exit.mts');
    writeFileSync(
      script,
      `import { createAnvilInstance } from ${JSON.stringify(join(process.cwd(), 'src/chains/evm/AnvilInstance.ts'))};
const instance = createAnvilInstance(${JSON.stringify({ chainId: 8453, binaryPath, logFile: join(scratch, 'logs/parent-exit.log'), statePath })});
const { rpcUrl } = await instance.start();
await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"evm_mine","params":[]}' });
process.exit(0);
`,
    );
    const parent = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 10_000 });
    expect(parent.stderr).toBe('');

    // The parent's exit handler sent SIGTERM; anvil dumps its state as it shuts down.
    await expect.poll(() => existsSync(statePath), { timeout: 3_000, interval: 20 }).toBe(true);
    await expect
      .poll(() => {
        try {
          return (JSON.parse(readFileSync(statePath, 'utf8')) as { best_block_number?: unknown }).best_block_number;
        } catch {
          return undefined; // still being written
        }
      }, { timeout: 3_000, interval: 20 })
      .toBe(1);
  });
});
