/**
 * The EVM front's per-call cost (issue 27): one Anvil, and the simulator's front before it with a
 * real journal (SQLite in WAL mode, as with `--db`). Measured alternately, direct and through the
 * front, so both see the same machine: a read (`eth_blockNumber`), and a signed transfer sent raw
 * plus its receipt polled every 1 ms (the transfer is journaled by the front before it reaches Anvil).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { createAnvilInstance } from '../../src/chains/evm/AnvilInstance';
import { EvmCallJournal } from '../../src/chains/evm/front/EvmCallJournal';
import { startEvmRpcFront } from '../../src/chains/evm/front/EvmRpcFront';
import { waitForReceipt } from '../../src/chains/evm/waitForReceipt';
import { DEFAULT_MNEMONIC } from '../../src/keys/defaultMnemonic';
import { deriveSimulatorAccounts } from '../../src/keys/simulatorAccounts';
import { resolveAnvilBinary } from '../../src/process/resolveAnvilBinary';
import { LedgerJournalStore } from '../../src/store/LedgerJournalStore';
import { openDatabase } from '../../src/store/openDatabase';
import { summarize, type Summary } from './measure';

export interface EvmFrontResult {
  iterations: number;
  readDirect: Summary;
  readFront: Summary;
  transferDirect: Summary;
  transferFront: Summary;
}

const CHAIN_ID = 31337;

export async function benchEvmFront(iterations = 200): Promise<EvmFrontResult> {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-front-'));
  const anvil = createAnvilInstance({ chainId: CHAIN_ID, binaryPath: resolveAnvilBinary(), logFile: join(dir, 'anvil.log'), mnemonic: DEFAULT_MNEMONIC });
  const db = openDatabase(join(dir, 'front.db'));
  try {
    const upstream = await anvil.start();
    const journal = new EvmCallJournal({ chainId: CHAIN_ID, journal: new LedgerJournalStore(db) });
    const front = await startEvmRpcFront({ upstream, journal: (calls, head) => journal.record(calls, head) });
    try {
      const account = deriveSimulatorAccounts(DEFAULT_MNEMONIC, 1).testAccounts[0]!.account;
      const direct = createPublicClient({ transport: http(upstream.rpcUrl) });
      const fronted = createPublicClient({ transport: http(front.rpcUrl) });
      let nonce = await direct.getTransactionCount({ address: account.address });
      const transfer = async (client: typeof direct): Promise<number> => {
        const started = performance.now();
        const serializedTransaction = await account.signTransaction({ type: 'eip1559', chainId: CHAIN_ID, nonce: nonce++, to: `0x${'77'.repeat(20)}` as Address, value: 1n, gas: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n });
        const hash = (await client.request({ method: 'eth_sendRawTransaction', params: [serializedTransaction] })) as Hex;
        await waitForReceipt(client, hash, { intervalMs: 1, timeoutMs: 30_000 });
        return performance.now() - started;
      };
      const read = async (client: typeof direct): Promise<number> => {
        const started = performance.now();
        await client.request({ method: 'eth_blockNumber' });
        return performance.now() - started;
      };
      for (let i = 0; i < 10; i++) await Promise.all([read(direct), read(fronted)]).then(() => transfer(i % 2 ? direct : fronted)); // warm-up
      const samples = { readDirect: [] as number[], readFront: [] as number[], transferDirect: [] as number[], transferFront: [] as number[] };
      for (let i = 0; i < iterations; i++) {
        samples.readDirect.push(await read(direct));
        samples.readFront.push(await read(fronted));
        samples.transferDirect.push(await transfer(direct));
        samples.transferFront.push(await transfer(fronted));
      }
      return {
        iterations,
        readDirect: summarize(samples.readDirect),
        readFront: summarize(samples.readFront),
        transferDirect: summarize(samples.transferDirect),
        transferFront: summarize(samples.transferFront),
      };
    } finally {
      await front.close();
    }
  } finally {
    await anvil.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bench's lines for the front. */
export function evmFrontLines(result: EvmFrontResult, formatMs: (ms: number) => string): string[] {
  const extra = (front: Summary, direct: Summary) => `${((front.median - direct.median) * 1000).toFixed(0)} µs`;
  return [
    `EVM front per-call cost (${result.iterations} calls of each kind, alternating direct to Anvil and through the front, journal on)`,
    `  read (eth_blockNumber)  direct median ${formatMs(result.readDirect.median)}, front ${formatMs(result.readFront.median)}: +${extra(result.readFront, result.readDirect)} per call`,
    `  transfer + receipt      direct median ${formatMs(result.transferDirect.median)}, front ${formatMs(result.transferFront.median)}: +${extra(result.transferFront, result.transferDirect)} per transfer (journaled)`,
  ];
}
