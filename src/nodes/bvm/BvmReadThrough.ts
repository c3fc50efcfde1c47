import { addressOfScript } from './bvmCrypto';
import { decodeTransaction, txidOf } from './bvmConsensus';
import type { BvmLedger } from './BvmLedger';
import type { BvmUpstreamEsplora } from './BvmUpstreamEsplora';
import { ReadsInFlight } from '../readsInFlight';

/**
 * A forked node's read-through (issue 35, Bitcoin): before the ledger answers a question it cannot
 * answer alone, the upstream is read and what it said is kept in the ledger (journaled, so a
 * restart needs no upstream). An address's unspent outputs are read the first time the address is
 * asked for (an Esplora `/address/…` call, a wallet, `listunspent`, the quote's PSBT); after that
 * the ledger answers alone (outputs that arrive upstream later are not seen, outputs spent locally
 * stay spent). A transaction is read by id when the ledger does not hold it; a raw transaction's
 * inputs are read before it is checked (the input's transaction, then its output's address), so a
 * spend of an upstream output is validated against the output's own script and amount. Concurrent
 * asks for the same thing share one upstream request. Reads only: nothing is sent upstream.
 */
export class BvmReadThrough {
  private readonly inFlight = new ReadsInFlight();

  constructor(
    private readonly ledger: BvmLedger,
    readonly upstream: BvmUpstreamEsplora,
  ) {}

  /** Reads the unspent outputs of `script`'s address, once (a script with no address: nothing to read). */
  async address(script: Uint8Array): Promise<void> {
    if (this.ledger.hasReadUpstreamAddress(script)) return;
    const address = addressOfScript(script);
    if (!address) return;
    await this.inFlight.once(`address:${address}`, async () => {
      const outputs = await this.upstream.confirmedOutputsOf(address);
      if (!this.ledger.hasReadUpstreamAddress(script)) this.ledger.addUpstreamOutputs(script, outputs);
    });
  }

  async addresses(scripts: readonly Uint8Array[]): Promise<void> {
    await Promise.all(scripts.map((script) => this.address(script)));
  }

  /** Reads a transaction the ledger does not hold (one the upstream does not know either is asked again next time). */
  async transaction(txid: string): Promise<void> {
    if (this.ledger.transaction(txid) || this.ledger.upstreamTransaction(txid)) return;
    await this.inFlight.once(`tx:${txid}`, async () => {
      const transaction = await this.upstream.transaction(txid);
      if (transaction && !this.ledger.transaction(txid) && !this.ledger.upstreamTransaction(txid)) this.ledger.addUpstreamTransaction(transaction);
    });
  }

  /** Reads what an outpoint unknown here is: its transaction upstream, then the outputs of the address it pays. */
  async outpoint(txid: string, vout: number): Promise<void> {
    if (this.ledger.transaction(txid) || this.ledger.coin(txid, vout)) return;
    await this.transaction(txid);
    const hex = this.ledger.upstreamTransaction(txid)?.hex;
    const output = hex ? decodeTransaction(hex).outs[vout] : undefined;
    if (output) await this.address(output.script);
  }

  /** Reads the inputs of a raw transaction (hex) before it is checked; one that does not decode is left to the ledger's own error. */
  async inputsOf(hex: string): Promise<void> {
    let inputs: Array<{ txid: string; vout: number }>;
    try {
      inputs = decodeTransaction(hex).ins.map((input) => ({ txid: txidOf(input.hash), vout: input.index }));
    } catch {
      return;
    }
    for (const input of inputs) await this.outpoint(input.txid, input.vout);
  }

}
