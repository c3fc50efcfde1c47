import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from '@bitcoinerlab/secp256k1';
import { ECPairFactory } from 'ecpair';

/** What a Bitcoin wallet and `bitcoin-cli` do against the BVM chain, for its tests. */

export const BVM_CHAIN_ID = 8253038;
/** The service's identifier of native BTC. */
export const BTC_ADDRESS = 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8';
const network = bitcoin.networks.regtest;
bitcoin.initEccLib(ecc);
const ECPair = ECPairFactory(ecc);

/** One call to the chain's Bitcoin Core JSON-RPC, as bitcoin-cli sends it; throws on an RPC error. */
export async function bvmRpc<T = any>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` },
    body: JSON.stringify({ jsonrpc: '1.0', id: 'test', method, params }),
  });
  const body = (await response.json()) as { result: T; error: { code: number; message: string } | null };
  if (body.error) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  return body.result;
}

/** The deposit step's PSBT signed with the account's WIF key and finalized, as the SDK's Bitcoin adapter has a wallet do: the raw transaction and its txid. */
export function signDepositStep(step: { items: Array<{ data: { psbt: string } }> }, wif: string): { hex: string; txid: string } {
  const psbt = bitcoin.Psbt.fromHex(step.items[0]!.data.psbt, { network });
  psbt.signAllInputs(ECPair.fromWIF(wif, network)).finalizeAllInputs();
  const tx = psbt.extractTransaction();
  return { hex: tx.toHex(), txid: tx.getId() };
}
