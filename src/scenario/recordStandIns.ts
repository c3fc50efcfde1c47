import { chainMetadataFor, KNOWN_CHAINS } from '../../fixtures/chains';
import { chainKindFacts, type ChainKindFacts, type OtherCurrencyDeposit } from '../chains/chainKinds';
import { IntentsimError } from '../errors/IntentsimError';

/** A request record (SPEC §2.3) that cannot be turned into a scenario, and why. */
export class RecordNotReplayableError extends IntentsimError {}

/** A chain the simulator runs locally: its name and its kind's facts (ChainKindFacts). */
export interface LocalChain {
  id: number;
  displayName: string;
  facts: ChainKindFacts;
}

/** The local chain of a chain id (its kind: SPEC §2.1 `vmType`); refuses any id the simulator does not run. */
export function localChain(chainId: number): LocalChain {
  if (!KNOWN_CHAINS.some((chain) => chain.id === chainId)) {
    throw new RecordNotReplayableError(`chain ${chainId} has no local chain (local chains: ${KNOWN_CHAINS.map((chain) => `${chain.id} ${chain.displayName}`).join(', ')})`);
  }
  const known = chainMetadataFor(chainId);
  return { id: chainId, displayName: known.displayName, facts: chainKindFacts(known.vm) };
}

const STABLECOINS = ['USDC', 'USDT', 'DAI', 'USDC.E', 'USDBC'];

/**
 * The local currency standing for a deployment's on a chain of this kind: the stablecoin (the
 * exchange's USDC at address `0` included), the native currency, or the wrapped native.
 */
export function localCurrency(facts: ChainKindFacts, currency: { address: string; symbol: string }): string {
  const symbol = currency.symbol.toUpperCase();
  if (STABLECOINS.includes(symbol) && facts.hasStablecoin) return 'USDC';
  if (facts.recordNativeAddress.test(currency.address)) return 'native';
  const wrapped = facts.wrappedNative;
  if (wrapped?.symbols.includes(symbol)) return wrapped.local;
  throw new RecordNotReplayableError(`currency ${currency.symbol} (${currency.address}) has no local stand-in: the simulator's ${facts.vmType} chains have ${facts.localCurrencies}`);
}

/** A deposit in another currency than quoted on a chain of this kind (INCORRECT_DEPOSIT_CURRENCY), or undefined where the chain has one currency. */
export function wrongCurrencyDeposit(facts: ChainKindFacts, quoted: string): OtherCurrencyDeposit | undefined {
  const other = facts.otherCurrencyDeposit;
  if (!other) return undefined;
  return quoted === 'native' ? other.forNative : other.forToken;
}
