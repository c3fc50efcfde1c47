import { KNOWN_CHAINS } from '../../fixtures/chains';
import type { VmType } from '../domain/chain/chainDescription';
import { IntentsimError } from '../errors/IntentsimError';

/** A request record (SPEC §2.3) that cannot be turned into a scenario, and why. */
export class RecordNotReplayableError extends IntentsimError {}

/** The chain kind (SPEC §2.1 `vmType`) of a chain id the simulator runs locally; refuses any other id. */
export function localChainKind(chainId: number): VmType {
  const known = KNOWN_CHAINS.find((chain) => chain.id === chainId);
  if (!known) throw new RecordNotReplayableError(`chain ${chainId} has no local chain (local chains: ${KNOWN_CHAINS.map((chain) => `${chain.id} ${chain.displayName}`).join(', ')})`);
  return known.vm;
}

/** How each chain kind names its native currency in a record: EVM's zero address, Solana's system program, Bitcoin's BTC identifier. */
const NATIVE_ADDRESSES: Record<VmType, RegExp> = {
  evm: /^0x0{40}$/i,
  svm: /^1{32}$/,
  bvm: /^bc1q{32}mql8k8$/,
  lvm: /^0$/,
};
const STABLECOINS = ['USDC', 'USDT', 'DAI', 'USDC.E', 'USDBC'];
/** The wrapped natives each kind has locally, by the symbols a deployment may give them. */
const WRAPPED: Partial<Record<VmType, { local: string; symbols: string[] }>> = {
  evm: { local: 'WETH', symbols: ['WETH', 'WMATIC', 'WPOL', 'WBNB'] },
  svm: { local: 'WSOL', symbols: ['WSOL'] },
};
const LOCAL_SET: Record<VmType, string> = {
  evm: 'their native currency, USDC and WETH',
  svm: 'SOL, USDC and WSOL',
  bvm: 'BTC',
  lvm: 'USDC',
};

/**
 * The local currency standing for a deployment's on a chain of `kind`: the stablecoin (the
 * exchange's USDC at address `0` included), the native currency, or the wrapped native.
 */
export function localCurrency(kind: VmType, currency: { address: string; symbol: string }): string {
  const symbol = currency.symbol.toUpperCase();
  if (STABLECOINS.includes(symbol) && kind !== 'bvm') return 'USDC';
  if (NATIVE_ADDRESSES[kind].test(currency.address)) return 'native';
  const wrapped = WRAPPED[kind];
  if (wrapped?.symbols.includes(symbol)) return wrapped.local;
  throw new RecordNotReplayableError(`currency ${currency.symbol} (${currency.address}) has no local stand-in: the simulator's ${kind} chains have ${LOCAL_SET[kind]}`);
}

/** A deposit in another currency than quoted on a chain of `kind` (INCORRECT_DEPOSIT_CURRENCY), or undefined where the chain has one currency. */
export function wrongCurrencyDeposit(kind: VmType, quoted: string): { currency: string; amount: string } | undefined {
  if (kind === 'evm') return quoted === 'native' ? { currency: 'USDC', amount: '30000000' } : { currency: 'native', amount: '10000000000000000' };
  if (kind === 'svm') return quoted === 'native' ? { currency: 'USDC', amount: '30000000' } : { currency: 'native', amount: '100000000' };
  return undefined;
}

/** The user account a replay quotes and pays with: the EVM test account 0, or account 0 of the chain's own funded keys (base58 keypair, p2wpkh key, exchange account). */
export function replayUser(kind: VmType): number | string {
  return kind === 'evm' ? 0 : 'account:0';
}
