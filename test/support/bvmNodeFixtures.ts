import Client from 'bitcoin-core';
import { VirtualClock } from '../../src/clock/VirtualClock';
import { deriveBvmAccounts } from '../../src/nodes/bvm/bvmAccounts';
import { BvmLedger } from '../../src/nodes/bvm/BvmLedger';
import { startBvmNode, type StartedBvmNode } from '../../src/nodes/bvm/startBvmNode';
import { writeBvmGenesis } from '../../src/nodes/bvm/writeBvmGenesis';

/** The Bitcoin node's tests: a ledger at genesis, and the node alone with a Core wallet funded by mining. */

export const TEST_MNEMONIC = 'test test test test test test test test test test test junk';

/** A ledger at genesis on a manual clock, two test accounts (alice, bob). */
export function fundedBvmLedger() {
  const clock = new VirtualClock({ mode: 'manual', startMs: 1_800_000_000_000 });
  const ledger = new BvmLedger({ clock });
  const accounts = deriveBvmAccounts(TEST_MNEMONIC, 2);
  writeBvmGenesis(ledger, accounts);
  return { clock, ledger, accounts, alice: accounts.testAccounts[0]!, bob: accounts.testAccounts[1]! };
}

/** The node alone behind the `bitcoin-core` client, with descriptor wallet `w` holding one matured coinbase. */
export async function startNodeWithCoreWallet(): Promise<{ node: StartedBvmNode; rpc: Client; wallet: Client }> {
  const node = await startBvmNode({ accountCount: 2, mnemonic: TEST_MNEMONIC });
  const rpc = new Client({ host: node.rpcUrl });
  await rpc.command('createwallet', 'w');
  const wallet = new Client({ host: node.rpcUrl, wallet: 'w' });
  await rpc.command('generatetoaddress', 101, (await wallet.command('getnewaddress')) as string);
  return { node, rpc, wallet };
}
