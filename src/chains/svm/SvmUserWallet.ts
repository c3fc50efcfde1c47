import { address, getBase58Decoder, getBase58Encoder } from '@solana/kit';
import { createHash } from 'node:crypto';
import type { Currency } from '../../domain/chain/currency';
import { ChainError } from '../../errors/IntentsimError';
import { SvmTransactionDroppedError, SvmTransactionRejectedError, svmSignerOfSeed, type SvmSigner } from '../../nodes/svm';
import type { UserTransaction, UserWallet } from '../capabilities/UserWallet';
import type { SvmLedgerAccess } from './SvmLedgerAccess';
import { fromStepInstruction, transferInstructions, type SvmStepInstruction } from './svmInstructions';

/**
 * A user's side of the SVM chain: a base58 secret key signs the instructions of a quote's step
 * item, or a plain transfer, sent to the ledger as a user's client sends them; label addresses.
 * The chain's `userWallet`.
 */
export class SvmUserWallet implements UserWallet {
  private readonly chainId: number;

  constructor(private readonly deps: { chainId: number; /** The started chain's ledger. */ ledger: () => SvmLedgerAccess }) {
    this.chainId = deps.chainId;
  }

  async sendUserTransaction(privateKey: string, item: Record<string, unknown>): Promise<UserTransaction> {
    const data = (item.data ?? item) as { instructions?: SvmStepInstruction[] };
    if (!Array.isArray(data.instructions)) throw new ChainError(`chain ${this.chainId} (SVM): a step item's data carries instructions`);
    const signer = this.userSigner(privateKey);
    return this.sendAs(signer, data.instructions.map(fromStepInstruction));
  }

  async transferFromUser(privateKey: string, to: string, currency: Currency, amount: bigint): Promise<UserTransaction> {
    const signer = this.userSigner(privateKey);
    return this.sendAs(signer, await transferInstructions({ from: signer, to: address(to), payer: signer, currency, amount }));
  }

  /** A stable address for `label`: 32 bytes of its hash, in base58. */
  addressForLabel(label: string): string {
    return getBase58Decoder().decode(createHash('sha256').update(`intentsim-svm-label:${label}`).digest());
  }

  private async sendAs(signer: SvmSigner, instructions: Parameters<SvmLedgerAccess['signWire']>[1]): Promise<UserTransaction> {
    const access = this.deps.ledger();
    const wire = await access.signWire(signer, instructions);
    try {
      const record = await access.submit(wire, { preflight: false });
      return { txHash: record.signature, status: record.err === null ? 'success' : 'failure', blockNumber: Number(record.slot) };
    } catch (error) {
      // the fault "drop transactions": the RPC answered its signature; it never lands
      if (error instanceof SvmTransactionDroppedError) return { txHash: error.signature, status: 'sent' };
      if (error instanceof SvmTransactionRejectedError) throw new ChainError(`chain ${this.chainId} refused the transaction: ${error.message}`, { cause: error });
      throw error;
    }
  }

  /** A base58 secret key (64 bytes, or the 32-byte seed) as a signer. */
  private userSigner(privateKey: string): SvmSigner {
    const bytes = getBase58Encoder().encode(privateKey);
    return svmSignerOfSeed(new Uint8Array(bytes.subarray(0, 32)));
  }
}
