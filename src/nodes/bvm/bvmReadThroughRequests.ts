import { outputScriptOf } from './bvmCrypto';
import { txidOf } from './bvmConsensus';
import { parsePsbt } from './bvmPsbtMethods';
import type { BvmReadThrough } from './BvmReadThrough';

/**
 * What a forked node reads from its upstream before it answers a request (`BvmReadThrough`): the
 * addresses, transactions and inputs a request names, per Esplora route and per JSON-RPC method.
 * Anything that does not parse is read as nothing: the request's own answer says what is wrong.
 */

/** Before an Esplora request: `/address/:a…` reads the address, `/tx/:id…` the transaction, `POST /tx` the inputs. */
export async function readThroughForEsplora(readThrough: BvmReadThrough, method: string, path: string, body: string): Promise<void> {
  const [head, id] = path.split('/').filter(Boolean);
  if (method === 'POST' && path === '/tx') return readThrough.inputsOf(body.trim());
  if (method !== 'GET' || !id) return;
  if (head === 'address') {
    const script = outputScriptOf(id);
    if (script) await readThrough.address(script);
  }
  if (head === 'tx' && /^[0-9a-fA-F]{64}$/.test(id)) await readThrough.transaction(id.toLowerCase());
}

const isTxid = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-fA-F]{64}$/.test(value);

/** The outpoints of a PSBT's unsigned transaction. */
function psbtOutpoints(value: unknown): Array<{ txid: string; vout: number }> {
  try {
    return parsePsbt(value).txInputs.map((input) => ({ txid: txidOf(input.hash), vout: input.index }));
  } catch {
    return [];
  }
}

/** `addr(<address>)` descriptors' scripts, as `scantxoutset` takes them. */
function descriptorScripts(value: unknown): Uint8Array[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const text = typeof entry === 'string' ? entry : (entry as { desc?: unknown } | null)?.desc;
    const address = typeof text === 'string' ? text.match(/^addr\(([^)]+)\)/)?.[1] : undefined;
    const script = address ? outputScriptOf(address) : undefined;
    return script ? [script] : [];
  });
}

/**
 * Before a JSON-RPC method: `walletScripts` are the scripts of the wallet a wallet method runs on
 * (its coins are read first); the rest by method: transactions by id, inputs of raw transactions
 * and PSBTs, addresses listed or scanned.
 */
export async function readThroughForRpc(readThrough: BvmReadThrough, method: string, params: unknown[], walletScripts: Uint8Array[]): Promise<void> {
  await readThrough.addresses(walletScripts);
  const [first, second] = params;
  switch (method) {
    case 'getrawtransaction':
      if (isTxid(first)) await readThrough.transaction(first.toLowerCase());
      return;
    case 'gettxout':
      if (isTxid(first) && typeof second === 'number') await readThrough.outpoint(first.toLowerCase(), second);
      return;
    case 'sendrawtransaction':
    case 'signrawtransactionwithwallet':
      if (typeof first === 'string') await readThrough.inputsOf(first);
      return;
    case 'testmempoolaccept':
      if (Array.isArray(first)) for (const hex of first) if (typeof hex === 'string') await readThrough.inputsOf(hex);
      return;
    case 'walletprocesspsbt':
    case 'finalizepsbt':
    case 'analyzepsbt':
    case 'decodepsbt':
      for (const { txid, vout } of psbtOutpoints(first)) await readThrough.outpoint(txid, vout);
      return;
    case 'walletcreatefundedpsbt':
      if (Array.isArray(first)) for (const input of first as Array<{ txid?: unknown; vout?: unknown }>) if (isTxid(input?.txid) && typeof input.vout === 'number') await readThrough.outpoint(input.txid.toLowerCase(), input.vout);
      return;
    case 'listunspent': {
      const addresses = Array.isArray(params[2]) ? params[2] : [];
      await readThrough.addresses(addresses.flatMap((address) => (typeof address === 'string' ? [outputScriptOf(address)].filter((script) => script !== undefined) : [])));
      return;
    }
    case 'scantxoutset':
      await readThrough.addresses(descriptorScripts(second));
      return;
  }
}
