import { outpointKey } from './bvmConsensus';
import { toHex } from './bvmCrypto';
import type { BvmCoin } from './bvmLedgerTypes';

/** A transaction read from the upstream by id: its raw hex and the upstream Esplora's `/tx/:id` JSON (its status there). */
export interface BvmUpstreamTransaction {
  txid: string;
  hex: string;
  esplora: Record<string, unknown>;
}

/** An output the upstream listed unspent for an address when it was first asked. */
export interface BvmUpstreamOutput {
  txid: string;
  vout: number;
  value: bigint;
}

/**
 * What a forked ledger read from its upstream (`BvmReadThrough`): per address, the confirmed
 * unspent outputs the upstream listed the first time the address was asked, and transactions read
 * by id. They sit below the local chain, as if confirmed before its genesis (height 0): a local
 * spend marks them spent as any output, a disconnected block unspends them again, and a snapshot's
 * revert keeps them (they are upstream state, not a local change: every copy of the ledger's state
 * shares this one). An output of a transaction the ledger holds itself is never taken from the
 * upstream (the local transaction wins).
 */
export class BvmUpstreamReads {
  private readonly outputs = new Map<string, BvmCoin>();
  private readonly byScript = new Map<string, BvmCoin[]>();
  private readonly transactions = new Map<string, BvmUpstreamTransaction>();

  /** Whether the upstream was asked for this script's address already (its answer is kept, even an empty one). */
  hasReadAddress(script: Uint8Array): boolean {
    return this.byScript.has(toHex(script));
  }

  /** Keeps what the upstream listed for `script`'s address, less outputs of transactions `isLocal` says the ledger holds. */
  addAddress(script: Uint8Array, outputs: readonly BvmUpstreamOutput[], isLocal: (txid: string) => boolean): void {
    const coins = outputs
      .filter((output) => !isLocal(output.txid))
      .map((output): BvmCoin => ({ txid: output.txid, vout: output.vout, value: output.value, script, height: 0, coinbase: false }));
    this.byScript.set(toHex(script), coins);
    for (const coin of coins) this.outputs.set(outpointKey(coin.txid, coin.vout), coin);
  }

  /** An output read from the upstream (spent locally or not). */
  output(txid: string, vout: number): BvmCoin | undefined {
    return this.outputs.get(outpointKey(txid, vout));
  }

  /** The outputs read for a script (hex), spent locally or not. */
  outputsOf(scriptHex: string): readonly BvmCoin[] {
    return this.byScript.get(scriptHex) ?? [];
  }

  addTransaction(transaction: BvmUpstreamTransaction): void {
    this.transactions.set(transaction.txid, transaction);
  }

  transaction(txid: string): BvmUpstreamTransaction | undefined {
    return this.transactions.get(txid);
  }
}
