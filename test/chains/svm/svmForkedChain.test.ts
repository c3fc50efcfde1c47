import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSolanaRpc, devnet, generateKeyPairSigner, lamports } from '@solana/kit';
import { SVM_CHAIN } from '../../../fixtures/chains';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { loadSimulatorConfig } from '../../../src/config/simulatorConfig';
import { deriveSimulatorAccounts } from '../../../src/keys/simulatorAccounts';
import { startSvmNode } from '../../../src/nodes/svm/startSvmNode';
import { createSimulatorChains, planChains, type ChainPlan } from '../../../src/root/simulatorChains';
import { resolveDataPaths } from '../../../src/root/simulatorDataPaths';
import { openSimulatorStores } from '../../../src/root/simulatorStores';

// The SVM kind's configuration slice: a chain named in `forks` runs its embedded node as a fork of
// that upstream (probed first), describes itself as one, and its adapter reads through to it.
const SVM = SVM_CHAIN.id;
const SOL = 1_000_000_000n;

const stops: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** The simulator's chains (Solana only), the SVM chain forking `url`; with `dbPath`, journaled there. */
async function forkedChains(url: string, dbPath?: string) {
  const config = loadSimulatorConfig({ options: { chains: [{ id: SVM, resetOnStart: false }], accountCount: 1, ...(dbPath ? { dbPath } : {}) }, env: {} });
  const plan = planChains(config);
  const forked: ChainPlan = { ...plan, kindOptions: { ...plan.kindOptions, svm: { ...plan.kindOptions.svm, forks: { [SVM]: { url } } } } };
  const clock = new VirtualClock({ mode: 'real' });
  const paths = resolveDataPaths(config);
  const opened = openSimulatorStores(config, paths, clock, () => undefined);
  stops.push(() => paths.stop(), () => opened.stop(), () => clock.cancelAll());
  const chains = await createSimulatorChains(config, forked, {
    paths,
    stores: opened.stores,
    clock,
    accounts: () => deriveSimulatorAccounts(config.mnemonic, config.accountCount),
    log: () => undefined,
    onFatalError: (error) => {
      throw error;
    },
  });
  stops.push(() => chains.stop());
  await chains.start();
  return { ...chains, stopAll: async () => {
    await chains.stop();
    await opened.stop();
    paths.stop();
  } };
}

describe('a Solana chain of the simulator forking an upstream Solana RPC', () => {
  it('says it is a fork of the upstream (current state, not pinned) and its adapter reads a balance that exists only there', async () => {
    const upstream = await startSvmNode({ accountCount: 1 });
    stops.push(() => upstream.stop());
    const holder = await generateKeyPairSigner();
    await createSolanaRpc(devnet(upstream.rpcUrl)).requestAirdrop(holder.address, lamports(2n * SOL)).send();

    const chain = (await forkedChains(upstream.rpcUrl)).byId.get(SVM)!;
    expect(chain.describe().fork).toEqual({ url: upstream.rpcUrl, note: expect.stringContaining('not pinned: no public Solana RPC serves past account state') });
    expect(await chain.balanceOf(holder.address, chain.nativeCurrency())).toBe(2n * SOL);
    expect(await createSolanaRpc(chain.describe().httpRpcUrl).getBalance(holder.address).send()).toMatchObject({ value: 2n * SOL });
  });

  it('with --db, a restart asks the stopped upstream nothing and shows what was read from it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-svm-fork-'));
    stops.push(() => rmSync(dir, { recursive: true, force: true }));
    const upstream = await startSvmNode({ accountCount: 1 });
    stops.push(() => upstream.stop());
    const holder = await generateKeyPairSigner();
    await createSolanaRpc(devnet(upstream.rpcUrl)).requestAirdrop(holder.address, lamports(4n * SOL)).send();

    const first = await forkedChains(upstream.rpcUrl, join(dir, 'intentsim.db'));
    const chain = first.byId.get(SVM)!;
    expect(await chain.balanceOf(holder.address, chain.nativeCurrency())).toBe(4n * SOL);
    await first.stopAll();
    await upstream.stop();

    const again = (await forkedChains(upstream.rpcUrl, join(dir, 'intentsim.db'))).byId.get(SVM)!;
    expect(again.describe().fork?.note).toContain('restarted from the journal');
    expect(await again.balanceOf(holder.address, again.nativeCurrency())).toBe(4n * SOL);
  });

  it('an upstream that refuses connections stops the start in one line naming the chain and the upstream', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await expect(forkedChains(`http://127.0.0.1:${port}/key-in-path`)).rejects.toThrow(
      new RegExp(`^chain ${SVM}: the fork upstream http://127\\.0\\.0\\.1:${port}/… did not answer getSlot \\(fetch failed: connect ECONNREFUSED`),
    );
  });
});
