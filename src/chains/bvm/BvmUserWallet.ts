import { createHash } from 'node:crypto';
import type { Currency } from '../../domain/chain/currency';
import { ChainError } from '../../errors/IntentsimError';
import type { UserTransaction, UserWallet } from '../capabilities/UserWallet';
import { bvmKeyFromWif, type BvmKey, BVM_NETWORK, bitcoin, outputScriptOf, type BvmLedger, BvmRpcError, selectCoins, signP2wpkhTransaction, spendableCoinsOf, type BvmReadThrough } from '../../nodes/bvm';

/**
 * A user's side of the Bitcoin chain (its `userWallet`): a WIF key signs a quote's PSBT as the
 * SDK's Bitcoin adapter has a wallet do, or pays an address from the account's coins; the
 * transaction goes to the ledger's mempool (mined by the next block). Label addresses.
 */
export class BvmUserWallet implements UserWallet {
  constructor(
    private readonly deps: {
      chainId: number;
      /** The started node's ledger. */
      ledger: () => BvmLedger;
      /** A fork's read-through: the account's outputs and a PSBT's inputs are read from the upstream first. */
      readThrough?: () => BvmReadThrough | undefined;
    },
  ) {}

  /** Signs the step item's PSBT with the account's key (WIF) and broadcasts it. */
  async sendUserTransaction(privateKey: string, item: Record<string, unknown>): Promise<UserTransaction> {
    const data = (item.data ?? item) as { psbt?: unknown };
    if (typeof data.psbt !== 'string') throw new ChainError(`chain ${this.deps.chainId} (BVM): a step item's data carries a psbt`);
    const key = userKey(privateKey);
    const psbt = bitcoin.Psbt.fromHex(data.psbt, { network: BVM_NETWORK });
    psbt.signAllInputs(key.keyPair);
    psbt.finalizeAllInputs();
    const hex = psbt.extractTransaction().toHex();
    await this.deps.readThrough?.()?.inputsOf(hex);
    return this.broadcast(hex);
  }

  async transferFromUser(privateKey: string, to: string, currency: Currency, amount: bigint): Promise<UserTransaction> {
    const { chainId } = this.deps;
    if (!currency.isNative) throw new ChainError(`chain ${chainId} (BVM) has only BTC`);
    const key = userKey(privateKey);
    const script = outputScriptOf(to);
    if (!script) throw new ChainError(`chain ${chainId} (BVM): ${to} is not a regtest address`);
    await this.deps.readThrough?.()?.address(key.script);
    const selected = selectCoins(spendableCoinsOf(this.deps.ledger(), key.script), amount);
    if (!selected) throw new ChainError(`chain ${chainId} (BVM): ${key.address} cannot pay ${amount} sats plus the fee`);
    const outputs = [{ script, value: amount }, ...(selected.change >= 546n ? [{ script: key.script, value: selected.change }] : [])];
    return this.broadcast(signP2wpkhTransaction(selected.coins.map((coin) => ({ coin, key })), outputs).toHex());
  }

  /** A stable p2wpkh address for `label` (its key hash: the first 20 bytes of a hash of the label). */
  addressForLabel(label: string): string {
    const hash = createHash('sha256').update(`intentsim-bvm-label:${label}`).digest().subarray(0, 20);
    return bitcoin.payments.p2wpkh({ hash, network: BVM_NETWORK }).address!;
  }

  private broadcast(hex: string): UserTransaction {
    try {
      return { txHash: this.deps.ledger().submit(hex).txid, status: 'sent' };
    } catch (error) {
      if (error instanceof BvmRpcError) throw new ChainError(`chain ${this.deps.chainId} refused the transaction: ${error.message} (code ${error.code})`, { cause: error });
      throw error;
    }
  }
}

function userKey(privateKey: string): BvmKey {
  try {
    return bvmKeyFromWif(privateKey);
  } catch (error) {
    throw new ChainError('a BVM account key is a WIF-encoded private key (chains[].accounts[].privateKey)', { cause: error });
  }
}
