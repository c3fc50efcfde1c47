import { keccak256, stringToHex, type Address } from 'viem';
import type { Currency } from '../../domain/chain/currency';
import { ChainError } from '../../errors/IntentsimError';
import { type LvmLedger, LVM_TRANSFER_FEE, ROUTE_PERP, USDC_ASSET } from '../../nodes/lvm';
import type { UserTransaction, UserWallet } from '../capabilities/UserWallet';
import { LVM_CURRENCY_ADDRESS } from './lvmCurrencies';
import { postLvmTransfer, type LvmTransferAction } from './postLvmTransfer';

/** An "address" on the exchange: an account index, as a decimal string. */
export const LVM_ACCOUNT_INDEX = /^(0|[1-9]\d{0,14})$/;

/**
 * A user's side of the exchange: accounts made for labels (each with its API key), and transfers
 * a user submits through the exchange's own HTTP API with that key, as an integrator's client does.
 */
export class LvmUserWallet implements UserWallet {
  private readonly chainId: number;

  constructor(
    private readonly deps: {
      chainId: number;
      /** The exchange API's base URL (known once its node listens). */
      apiUrl: () => string;
      ledger: LvmLedger;
      /** The API key the node issues for an account index. */
      apiKeyOf: (accountIndex: number) => string;
    },
  ) {
    this.chainId = deps.chainId;
  }

  /** Submits a step item's `data.action` (SPEC §4.6) to the exchange's API as the account whose API key `privateKey` is. */
  async sendUserTransaction(privateKey: string, item: Record<string, unknown>): Promise<UserTransaction> {
    const data = (item.data ?? item) as { action?: { type?: unknown; parameters?: Record<string, unknown> } };
    const parameters = data.action?.parameters;
    if (data.action?.type !== 'transfer' || !parameters) throw new ChainError(`chain ${this.chainId} (the exchange): a step item's data carries action { type: 'transfer', parameters }`);
    return this.submit(privateKey, { type: 'transfer', parameters });
  }

  /** A plain transfer of collateral to an account index, through the exchange's API. */
  async transferFromUser(privateKey: string, to: string, currency: Currency, amount: bigint): Promise<UserTransaction> {
    if ((currency.address as string) !== LVM_CURRENCY_ADDRESS) throw new ChainError(`chain ${this.chainId}: the exchange moves USDC (address 0) only`);
    if (!LVM_ACCOUNT_INDEX.test(to)) throw new ChainError(`chain ${this.chainId}: ${to} is not an account index`);
    if (amount > BigInt(Number.MAX_SAFE_INTEGER)) throw new ChainError(`chain ${this.chainId}: ${amount} is above what the exchange's API takes as a JSON integer`);
    return this.submit(privateKey, {
      type: 'transfer',
      parameters: { toAccountIndex: Number(to), assetIndex: USDC_ASSET.index, fromRouteType: ROUTE_PERP, toRouteType: ROUTE_PERP, amount: Number(amount), usdcFee: Number(LVM_TRANSFER_FEE) },
    });
  }

  /** A fresh account for `label`: a master account owned by an EVM address derived from it (made on first use). */
  addressForLabel(label: string): string {
    const owner = `0x${keccak256(stringToHex(`intentsim-lvm-label:${label}`)).slice(-40)}` as Address;
    const existing = this.deps.ledger.accountsOf(owner)[0];
    const account = existing ?? this.deps.ledger.createMasterAccount(owner);
    if (!existing) this.deps.ledger.issueApiKey(account.index, this.deps.apiKeyOf(account.index));
    return String(account.index);
  }

  private async submit(apiKey: string, action: LvmTransferAction): Promise<UserTransaction> {
    const sent = await postLvmTransfer(this.deps.apiUrl(), apiKey, this.accountOfKey(apiKey), action).catch((error: unknown) => {
      throw new ChainError(`chain ${this.chainId}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
    return { txHash: sent.txHash, status: 'success', blockNumber: sent.blockHeight };
  }

  private accountOfKey(apiKey: string): number {
    const index = this.deps.ledger.accountOfApiKey(apiKey);
    if (index === undefined) throw new ChainError(`chain ${this.chainId}: that is not an API key the exchange issued`);
    return index;
  }
}
