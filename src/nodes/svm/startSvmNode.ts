import { SVM_CHAIN } from '../../../fixtures/chains';
import { resolveEmbeddedNodeOptions, type EmbeddedNodeOptions } from '../embeddedNodeOptions';
import type { StartedNode } from '../StartedNode';
import { deriveSvmAccounts, type SvmAccounts } from './svmAccounts';
import type { SvmLedger } from './SvmLedger';
import type { SvmLedgerHistory } from './SvmLedgerHistory';
import { runSvmNode, type SvmForkUpstream } from './SvmNode';
import { shownUpstream } from '../../config/shownUpstream';
import { SVM_TEST_ACCOUNT_FUNDS } from './writeSvmGenesis';

export interface StartedSvmNode extends StartedNode {
  kind: 'svm';
  /** The websocket (subscriptions): the RPC port + 1, where `new Connection(rpcUrl)` looks for it. */
  wsUrl: string;
  /** The stablecoin's mint (USDC, 6 decimals, SPL Token): every funded account holds some. */
  stablecoinMint: string;
  /** Every key: the test accounts and the node's own roles (faucet, issuer, …). */
  keys: SvmAccounts;
  /** The node's ledger (what a test or a cheat reads directly). */
  ledger: SvmLedger;
  /** Rolls the ledger back, snapshots and reverts it, reorgs it (docs/chains/solana.md). */
  history: SvmLedgerHistory;
  /** The upstream it forks (`fork`), as messages show it: its URL's origin. */
  forkOf?: string;
}

const LAMPORTS_PER_SOL = 1_000_000_000n;

/**
 * Starts the embedded SVM node alone (no intent service): LiteSVM in-process behind a Solana
 * JSON-RPC and websocket on ports of their own, genesis as `intentsim start` writes it (the same
 * keys, SLIP-0010 from the mnemonic; SOL, USDC, wrapped SOL and the aggregator's tokens), state in
 * memory until `stop()`. With `fork`, a fork of that upstream Solana JSON-RPC: accounts it never
 * had are read from there the first time they are asked for or used (docs/forking-solana.md).
 */
export async function startSvmNode(options: EmbeddedNodeOptions & { fork?: SvmForkUpstream } = {}): Promise<StartedSvmNode> {
  const resolved = resolveEmbeddedNodeOptions(options, SVM_CHAIN.id);
  const accounts = await deriveSvmAccounts(resolved.mnemonic, resolved.accountCount);
  const node = await runSvmNode({ ...resolved, accounts, journal: undefined, ...(options.fork ? { fork: options.fork } : {}) });
  const balance = `${SVM_TEST_ACCOUNT_FUNDS.lamports / LAMPORTS_PER_SOL} SOL, ${SVM_TEST_ACCOUNT_FUNDS.stablecoin / 10n ** 6n} USDC`;
  return {
    kind: 'svm',
    chainId: resolved.chainId,
    rpcUrl: node.endpoints.rpcUrl,
    wsUrl: node.endpoints.wsUrl,
    stablecoinMint: accounts.stablecoinMint.address,
    fundedAccounts: accounts.testAccounts.map((account) => ({ address: account.address, privateKey: account.secretKeyBase58, balance })),
    keys: accounts,
    ledger: node.ledger,
    history: node.history,
    ...(options.fork ? { forkOf: shownUpstream(options.fork.url) } : {}),
    stop: async () => {
      await node.stop();
      if (!options.clock) resolved.clock.cancelAll();
    },
  };
}
