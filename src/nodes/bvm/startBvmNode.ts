import { BVM_CHAIN } from '../../../fixtures/chains';
import { resolveEmbeddedNodeOptions, type EmbeddedNodeOptions } from '../embeddedNodeOptions';
import type { StartedNode } from '../StartedNode';
import type { BvmAccounts } from './bvmAccounts';
import { BvmNode, type BvmForkUpstream } from './BvmNode';
import type { LedgerJournal } from '../LedgerJournal';
import { formatBtc, type BvmLedger } from './BvmLedger';
import { BVM_TEST_ACCOUNT_OUTPUTS } from './writeBvmGenesis';

export interface BvmNodeStartOptions extends EmbeddedNodeOptions {
  /** Mine a block every this many seconds of the node's clock (default 0: blocks only on `generatetoaddress`). */
  blockTimeSeconds?: number;
  /** Run as a fork of another Esplora (another simulator's, a regtest electrs): an address's outputs and transactions by id read from it when first asked (docs/forking-bitcoin-lighter.md). */
  fork?: BvmForkUpstream;
  /** Keep the ledger in this journal (what `--db` gives the simulator's chain): a restart from it comes back the same, fork reads included. */
  journal?: LedgerJournal;
}

export interface StartedBvmNode extends StartedNode {
  kind: 'bitcoin';
  /** Every key: the test accounts, the miner (mine to its address), the solver's and the deposit root. */
  keys: BvmAccounts;
  /** The node's ledger (what a test or a cheat reads directly). */
  ledger: BvmLedger;
  /** The Esplora REST API (what BDK, LDK and most wallets read), on a port of its own. */
  esploraUrl: string;
  /** Mines a block every `seconds` of its clock (0: off). */
  setIntervalMining(seconds: number): void;
}

/**
 * Starts the embedded Bitcoin-style regtest node alone (no intent service): Bitcoin Core's
 * JSON-RPC on a port of its own (and the Esplora REST API on another), genesis as `intentsim start` writes it (the same p2wpkh accounts,
 * BIP84 from the mnemonic, each with 10 confirmed outputs of 1 BTC), state in memory until `stop()`
 * (or in `journal`), optionally a fork of an upstream Esplora (`fork`).
 */
export async function startBvmNode(options: BvmNodeStartOptions = {}): Promise<StartedBvmNode> {
  const resolved = resolveEmbeddedNodeOptions(options, BVM_CHAIN.id);
  const node = new BvmNode({ ...resolved, blockTimeSeconds: options.blockTimeSeconds ?? 0, ...(options.fork ? { fork: options.fork } : {}) });
  await node.start(options.journal);
  node.resumeBlockTimer();
  const balance = `${formatBtc(BigInt(BVM_TEST_ACCOUNT_OUTPUTS.count) * BVM_TEST_ACCOUNT_OUTPUTS.value)} BTC`;
  return {
    kind: 'bitcoin',
    chainId: resolved.chainId,
    rpcUrl: node.rpcUrl,
    esploraUrl: node.esploraUrl,
    fundedAccounts: node.accounts.testAccounts.map((key) => ({ address: key.address, privateKey: key.wif, balance })),
    keys: node.accounts,
    ledger: node.ledger,
    setIntervalMining: (seconds) => node.setIntervalMining(seconds),
    stop: async () => {
      await node.stop();
      if (!options.clock) resolved.clock.cancelAll();
    },
  };
}
