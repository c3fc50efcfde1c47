import { describe, expect, it } from 'vitest';
import { erc20Abi, keccak256, toHex, type Address, type Hex } from 'viem';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { deriveSimulatorAccounts } from '../../src/keys/simulatorAccounts';
import { DEFAULT_MNEMONIC } from '../../src/keys/defaultMnemonic';
import { evmChainOf } from '../support/evmChainOf';
import { nativeBridgeBody, postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { quoteAndDepositNative } from '../support/quoteAndDepositNative';

// A start from the kept genesis (docs/start.md, "What a start keeps") gives every client the chains
// a start that deploys gives: the same summary, accounts, contracts, storage, nonces, balances, fees
// and gas figures; only the kept blocks' times (and so their hashes and state roots: Cancun's
// beacon-roots contract stores each block's time) are those of the start that kept them, as two
// starts that deploy differ from each other. Both paths run here: `keptGenesis: false` deploys,
// the default loads.

const EVM_CHAINS = [1, 8453];
const accounts = deriveSimulatorAccounts(DEFAULT_MNEMONIC, 10);

async function start(keptGenesis: boolean): Promise<{ sim: RunningSimulator; loaded: number[] }> {
  const lines: string[] = [];
  const sim = await startSimulator({ port: 0, env: {}, keptGenesis, chains: EVM_CHAINS.map((id) => ({ id })), log: (line) => lines.push(line) });
  const loaded = EVM_CHAINS.filter((id) => lines.some((line) => line.includes(`chain ${id}: contracts loaded from the kept genesis`)));
  return { sim, loaded };
}

/** What a client sees of the chains, URLs, ports and paths left out (they differ per start). */
function summaryOf(sim: RunningSimulator) {
  return JSON.parse(JSON.stringify({ chains: sim.chains, accounts: sim.accounts }, (key, value: unknown) => (/url$/i.test(key) || key === 'logFile' ? undefined : value)));
}

/** The chain's state as a client reads it: head, nonces, balances, contract code and storage, the tip's roots and base fee. */
async function chainStateOf(sim: RunningSimulator, chainId: number) {
  const client = publicClientFor(sim, chainId);
  const contracts = evmChainOf(sim, chainId).contractAddresses;
  const holders: Address[] = [accounts.deployer.address, accounts.solver.address, accounts.relayer.address, ...accounts.testAccounts.map((account) => account.address)];
  const tip = await client.getBlock();
  const storage = async (address: Address) => Promise.all(Array.from({ length: 12 }, (_, slot) => client.getStorageAt({ address, slot: `0x${slot.toString(16)}` as Hex })));
  return {
    head: tip.number,
    tip: { transactionsRoot: tip.transactionsRoot, receiptsRoot: tip.receiptsRoot, baseFeePerGas: tip.baseFeePerGas, gasUsed: tip.gasUsed },
    nonces: await Promise.all(holders.map((address) => client.getTransactionCount({ address }))),
    native: await Promise.all(holders.map((address) => client.getBalance({ address }))),
    usdc: await Promise.all(holders.map((address) => client.readContract({ address: contracts.stablecoin, abi: erc20Abi, functionName: 'balanceOf', args: [address] }))),
    code: await Promise.all(Object.values(contracts).map(async (address) => keccak256((await client.getCode({ address })) ?? '0x'))),
    storage: keccak256(toHex(JSON.stringify(await Promise.all(Object.values(contracts).map(storage))))),
    transactionsPerBlock: await Promise.all(Array.from({ length: Number(tip.number) + 1 }, async (_, n) => (await client.getBlock({ blockNumber: BigInt(n) })).transactions.length)),
  };
}

/** A quote's figures (its fees come from the chains' gas calibration and base fees). */
async function quoteFigures(sim: RunningSimulator) {
  const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(sim.accounts[3]!.address, { originChainId: 1, destinationChainId: 8453 }));
  expect(quote.status).toBe(200);
  return { fees: quote.body.fees, currencyOut: quote.body.details.currencyOut.amount, items: quote.body.steps.map((step: { items: Array<{ data: { to: string; value: string; chainId: number } }> }) => step.items.map((item) => ({ to: item.data.to, value: item.data.value, chainId: item.data.chainId }))) };
}

async function observe(keptGenesis: boolean) {
  const { sim, loaded } = await start(keptGenesis);
  try {
    return { loaded, summary: summaryOf(sim), chains: await Promise.all(EVM_CHAINS.map((id) => chainStateOf(sim, id))), quote: await quoteFigures(sim), sim };
  } catch (error) {
    await sim.stop();
    throw error;
  }
}

describe('the kept genesis (EVM deployment)', () => {
  it('a start that loads it gives the chains a start that deploys gives, and a bridge fills on them', async () => {
    const deployed = await observe(false);
    await deployed.sim.stop();
    expect(deployed.loaded).toEqual([]);
    // the first start with it on keeps the deployment (or loads one an earlier run kept); the second loads it
    const first = await observe(true);
    await first.sim.stop();
    const kept = await observe(true);
    try {
      expect(kept.loaded).toEqual(EVM_CHAINS);
      expect(kept.chains[0]!.head).toBeGreaterThan(20n);
      // compared as text, part by part: a failing toEqual of the whole would spend minutes on its diff
      const text = (value: unknown) => JSON.stringify(value, (_key, part: unknown) => (typeof part === 'bigint' ? `${part}n` : part));
      for (const observed of [first, kept]) {
        expect(text(observed.summary)).toBe(text(deployed.summary));
        for (const [index, chain] of observed.chains.entries()) {
          for (const part of Object.keys(chain) as Array<keyof typeof chain>) expect(`${EVM_CHAINS[index]} ${part}: ${text(chain[part])}`).toBe(`${EVM_CHAINS[index]} ${part}: ${text(deployed.chains[index]![part])}`);
        }
        expect(text(observed.quote)).toBe(text(deployed.quote));
      }
      const { requestId } = await quoteAndDepositNative(kept.sim, 1, { origin: 1, destination: 8453 });
      expect((await waitForSettledStatus(kept.sim.baseUrl, requestId)).status).toBe('success');
    } finally {
      await kept.sim.stop();
    }
  });
});
