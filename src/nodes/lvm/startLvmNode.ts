import { LVM_CHAIN } from '../../../fixtures/chains';
import { deriveSimulatorAccounts } from '../../keys/simulatorAccounts';
import { resolveEmbeddedNodeOptions, type EmbeddedNodeOptions } from '../embeddedNodeOptions';
import type { StartedNode } from '../StartedNode';
import { LvmNode, type LvmForkUpstream } from './LvmNode';
import type { LedgerJournal } from '../LedgerJournal';
import type { LvmLedger } from './LvmLedger';
import { TEST_ACCOUNT_COLLATERAL, type LvmGenesis } from './writeLvmGenesis';

export interface LvmNodeStartOptions extends EmbeddedNodeOptions {
  /** Run as a fork of another exchange API (another simulator's): accounts unknown here read from it when first asked (docs/forking-bitcoin-lighter.md). */
  fork?: LvmForkUpstream;
  /** Keep the ledger in this journal (what `--db` gives the simulator's chain): a restart from it comes back the same, fork reads included. */
  journal?: LedgerJournal;
}

export interface StartedLvmNode extends StartedNode {
  kind: 'exchange';
  /** The accounts genesis made: the treasury, the solver's and one per test account. */
  genesis: LvmGenesis;
  /** The node's ledger (what a test or a cheat reads directly). */
  ledger: LvmLedger;
}

/**
 * Starts the embedded perpetuals exchange alone (no intent service): its HTTP API on a port of its
 * own, genesis as `intentsim start` writes it (the same accounts, indexes and API keys for the same
 * mnemonic), state in memory until `stop()` (or in `journal`), optionally a fork of an upstream exchange API (`fork`).
 */
export async function startLvmNode(options: LvmNodeStartOptions = {}): Promise<StartedLvmNode> {
  const resolved = resolveEmbeddedNodeOptions(options, LVM_CHAIN.id);
  const node = new LvmNode({ chainId: resolved.chainId, clock: resolved.clock, mnemonic: resolved.mnemonic, host: resolved.host, port: resolved.port, ...(options.fork ? { fork: options.fork } : {}) });
  await node.checkUpstream(options.journal);
  const rpcUrl = await node.listen();
  const accounts = deriveSimulatorAccounts(resolved.mnemonic, resolved.accountCount);
  const genesis = node.writeGenesis(
    { deployer: accounts.deployer.address, solver: accounts.solver.address, testAccounts: accounts.testAccounts.map((account) => account.address) },
    options.journal,
  );
  const usdc = `${TEST_ACCOUNT_COLLATERAL / 10n ** 6n} USDC`;
  return {
    kind: 'exchange',
    chainId: resolved.chainId,
    rpcUrl,
    fundedAccounts: genesis.testAccounts.map((account) => ({ address: String(account.index), privateKey: account.apiKey, balance: usdc, owner: account.l1Address })),
    genesis,
    ledger: node.ledger,
    stop: async () => {
      await node.stop();
      if (!options.clock) resolved.clock.cancelAll();
    },
  };
}
