import type { Hex } from 'viem';
import { shownUpstream } from '../../config/shownUpstream';
import { ChainError, ConfigurationError } from '../../errors/IntentsimError';
import { LvmTransferRefusedError, LvmUpstreamApi, type LvmLedger } from '../../nodes/lvm';
import type { ChainAdapter } from '../ChainAdapter';
import type { ReplayForkAsk, ReplayForking, ReplayForkPoint } from '../ReplayForking';
import { LvmChain } from './LvmChain';

/** The replay's local exchange ledger. */
function ledgerOf(chain: ChainAdapter): LvmLedger {
  if (!(chain instanceof LvmChain)) throw new ChainError(`chain ${chain.chainId} is not an exchange chain`);
  return chain.ledger;
}

/** An exchange fork is never pinned: accounts are read from the upstream as they are now. Asks the upstream its height first (one line when it does not answer). */
async function forkPoint(ask: ReplayForkAsk): Promise<ReplayForkPoint> {
  try {
    await new LvmUpstreamApi(ask.url).probe();
  } catch (error) {
    throw new ConfigurationError(`chain ${ask.chainId}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { shownUrl: shownUpstream(ask.url), block: null, pinned: false };
}

/** The local solver's account stands where the upstream solver's stands now (the fork is not pinned): its USDC collateral set to the upstream's. */
async function standInForSolver(params: Parameters<ReplayForking['standInForSolver']>[0]): Promise<string[]> {
  const ledger = ledgerOf(params.localChain);
  const [account] = await new LvmUpstreamApi(params.upstreamUrl).accountsByIndex(Number(params.upstreamSolver));
  if (!account) return [`chain ${params.chainId}: the upstream has no account ${params.upstreamSolver} (its solver); the local solver keeps its own collateral`];
  ledger.controlAccount(Number(params.localSolver), { collateral: account.collateral });
  return [`chain ${params.chainId}: the solver's collateral set to the upstream solver's now (${account.collateral}; the fork is not pinned)`];
}

/**
 * The deposit again as the record's user: the quote's transfer executed by the local ledger as
 * that account (`LvmLedger.transfer`, the step the API takes after checking the account's API key:
 * only the key check is skipped). The account is read from the upstream as it is now, after the
 * record's deposit: collateral short of the transfer and its fee is topped up, and a note says so.
 */
async function depositAs(params: Parameters<ReplayForking['depositAs']>[0]): Promise<{ txHashes: string[]; notes: string[] }> {
  const ledger = ledgerOf(params.localChain);
  const from = Number(params.from);
  const notes: string[] = [];
  const txHashes: string[] = [];
  for (const item of params.items) {
    const action = (item as { action?: { type?: unknown; parameters?: Record<string, unknown> } }).action;
    const p = action?.parameters;
    if (action?.type !== 'transfer' || !p) throw new ChainError(`chain ${params.chainId} (the exchange): a step item's data carries action { type: 'transfer', parameters }`);
    const amount = BigInt(p.amount as number);
    const usdcFee = BigInt(p.usdcFee as number);
    // reads the account through from the upstream, when the quote did not already
    const held = await params.localChain.balanceOf(params.from, params.localChain.nativeCurrency());
    if (held < amount + usdcFee) {
      ledger.controlAccount(from, { collateral: amount + usdcFee });
      notes.push(`chain ${params.chainId}: the account ${from} holds ${held} now (the fork is not pinned), short of the transfer and its fee (${amount + usdcFee}); topped up to it`);
    }
    try {
      const tx = ledger.transfer({
        fromAccountIndex: from,
        toAccountIndex: p.toAccountIndex as number,
        assetIndex: p.assetIndex as number,
        fromRouteType: p.fromRouteType as number,
        toRouteType: p.toRouteType as number,
        amount,
        usdcFee,
        ...(typeof p.memo === 'string' ? { memo: p.memo as Hex } : {}),
      });
      txHashes.push(tx.hash);
    } catch (error) {
      if (error instanceof LvmTransferRefusedError) throw new ChainError(`chain ${params.chainId}: the transfer made again as account ${from} was refused: ${error.message}`, { cause: error });
      throw error;
    }
  }
  return { txHashes, notes };
}

/** The exchange's replay forking (ReplayForking): accounts read as they are now, the user's transfer executed as its account. */
export const LVM_REPLAY_FORKING: ReplayForking = { forkPoint, standInForSolver, depositAs };
