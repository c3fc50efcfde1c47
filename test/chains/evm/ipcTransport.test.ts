import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaseError, createPublicClient, http, parseEther, SocketClosedError, TimeoutError, zeroAddress, type PublicClient } from 'viem';
import { createAnvilInstance, type AnvilInstance } from '../../../src/chains/evm/AnvilInstance';
import { ipcTransport, type IpcTransport } from '../../../src/chains/evm/ipcTransport';
import { resolveAnvilBinary } from '../../../src/process/resolveAnvilBinary';
import { pauseProcess, resumeProcess } from '../../support/pauseProcess';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-ipc-'));
const ipcPath = join(dir, 'anvil.ipc');
let anvil: AnvilInstance;
let ipc: IpcTransport;
const funded = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

beforeAll(async () => {
  const binaryPath = resolveAnvilBinary({ pathEnv: process.env.PATH ?? '', ...(process.env.INTENTSIM_ANVIL ? { explicitPath: process.env.INTENTSIM_ANVIL } : {}) });
  anvil = createAnvilInstance({ chainId: 8453, binaryPath, logFile: join(dir, 'anvil.log'), ipcPath });
  expect((await anvil.start()).ipcPath).toBe(ipcPath);
  ipc = ipcTransport(ipcPath);
});

afterAll(async () => {
  ipc?.close();
  await anvil?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A client on the transport, without retries, with its own timeout when given. */
const client = (timeout?: number) =>
  createPublicClient({ transport: (options) => ipc.transport({ ...options, retryCount: 0, ...(timeout === undefined ? {} : { timeout }) }) });

describe('ipcTransport: viem over an Anvil IPC socket', () => {
  it('answers calls, many at once, each with its own result', async () => {
    expect(await ipc.probe(2000)).toBe(8453);
    const [chainId, balance, block, ...estimates] = await Promise.all([
      client().getChainId(),
      client().getBalance({ address: funded }),
      client().getBlockNumber({ cacheTime: 0 }),
      ...Array.from({ length: 20 }, (_, n) => client().estimateGas({ account: funded, to: zeroAddress, value: BigInt(n + 1) })),
    ]);
    expect(chainId).toBe(8453);
    expect(balance).toBe(parseEther('10000'));
    expect(block).toBe(0n);
    expect(estimates).toEqual(Array.from({ length: 20 }, () => 21_000n));
  });

  it('gives viem the errors HTTP gives (reverts, a receipt not found), and a TimeoutError for a call without answer', async () => {
    const reverter = '0x00000000000000000000000000000000000000fd';
    await client().request({ method: 'anvil_setCode' as 'eth_chainId', params: [reverter, '0x60006000fd'] as never }); // REVERT(0, 0)
    const overHttp: PublicClient = createPublicClient({ transport: http(anvil.rpcUrl, { retryCount: 0 }) });
    // the same errors as over HTTP, cause by cause (the revert decoding reads them)
    const causes = (error: unknown) => {
      const names: string[] = [];
      (error as BaseError).walk((cause) => {
        names.push(`${(cause as Error).constructor.name}: ${(cause as BaseError).details ?? ''}`);
        return false;
      });
      return names;
    };
    for (const call of [
      (c: PublicClient) => c.estimateGas({ account: funded, to: reverter }),
      (c: PublicClient) => c.call({ account: funded, to: reverter, data: '0x12345678' }),
      (c: PublicClient) => c.getTransactionReceipt({ hash: `0x${'ab'.repeat(32)}` }),
    ]) {
      const viaIpc = await call(client()).catch((error: unknown) => error);
      const viaHttp = await call(overHttp).catch((error: unknown) => error);
      expect(viaIpc).toBeInstanceOf(BaseError);
      expect((viaIpc as Error).constructor).toBe((viaHttp as Error).constructor);
      expect(causes(viaIpc).slice(0, 2)).toEqual(causes(viaHttp).slice(0, 2));
    }

    await pauseProcess(anvil.pid!);
    try {
      await expect(client(150).getBlockNumber({ cacheTime: 0 })).rejects.toBeInstanceOf(TimeoutError);
    } finally {
      resumeProcess(anvil.pid!);
    }
    expect(await client().getBlockNumber({ cacheTime: 0 })).toBe(0n);
  });

  it('fails pending calls with SocketClosedError when the socket goes away, and connects again for the next call', async () => {
    await pauseProcess(anvil.pid!);
    const pending = client().getBlockNumber({ cacheTime: 0 }).catch((error: unknown) => error);
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      ipc.close();
      expect(await pending).toBeInstanceOf(SocketClosedError);
    } finally {
      resumeProcess(anvil.pid!);
    }
    expect(await client().getBlockNumber({ cacheTime: 0 })).toBe(0n);

    // the node restarted on the same socket path: the old connection is gone, a new one is made
    await anvil.restart();
    expect(await ipc.probe(5000)).toBe(8453);
    expect(await client().getBlockNumber({ cacheTime: 0 })).toBe(0n);
  });
});
