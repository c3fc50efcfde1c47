import { shownUpstream } from '../../config/shownUpstream';
import { ChainError, ConfigurationError } from '../../errors/IntentsimError';
import { BVM_NETWORK, bitcoin, BvmRpcError, BvmUpstreamEsplora, dustThreshold, outputScriptOf, p2wpkhFee, signP2wpkhTransaction, spendableCoinsOf, txidOf, type BvmLedger } from '../../nodes/bvm';
import type { ChainAdapter } from '../ChainAdapter';
import type { ReplayForkAsk, ReplayForking, ReplayForkPoint } from '../ReplayForking';
import { BvmChain } from './BvmChain';

/** A p2wpkh witness's sizes (a DER signature with its sighash byte at most, a compressed key): the stand-in keeps the transaction's size, so its fee rate. */
const SIGNATURE_BYTES = 72;
const PUBLIC_KEY_BYTES = 33;

function chainOf(chain: ChainAdapter): BvmChain {
  if (!(chain instanceof BvmChain)) throw new ChainError(`chain ${chain.chainId} is not a Bitcoin chain`);
  return chain;
}

const scriptHex = (script: Uint8Array): string => Buffer.from(script).toString('hex');

/**
 * A Bitcoin fork is never pinned: addresses are read from the upstream Esplora as they are now.
 * `GET /chains` names a Bitcoin chain's Bitcoin Core JSON-RPC, not its Esplora: an upstream that
 * does not answer as an Esplora is refused in one line that says to name it with `--fork`.
 */
async function forkPoint(ask: ReplayForkAsk): Promise<ReplayForkPoint> {
  try {
    await new BvmUpstreamEsplora(ask.url).probe();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigurationError(`chain ${ask.chainId}: ${reason}; a Bitcoin chain is forked from its Esplora API, which GET /chains does not name: give it with --fork ${ask.chainId}=ESPLORA_URL`, { cause: error });
  }
  return { shownUrl: shownUpstream(ask.url), block: null, pinned: false };
}

/**
 * The fork reads the user's address as the upstream has it now, after the record's deposit spent
 * its outputs: those outputs (read from the deposit's transaction upstream, `GET /tx/:txid`, its
 * inputs' prevouts that pay the user) are put back among the user's upstream outputs, unspent
 * here, so the local quote's PSBT can spend what the record's deposit spent.
 */
async function restoreDepositFunds(params: Parameters<NonNullable<ReplayForking['restoreDepositFunds']>>[0]): Promise<string[]> {
  const chain = chainOf(params.localChain);
  const script = outputScriptOf(params.user);
  if (!script) return [`chain ${params.chainId}: the record's user ${params.user} is not an address of this network; its outputs are not restored`];
  const deposit = await new BvmUpstreamEsplora(params.upstreamUrl).transaction(params.depositTxHash.replace(/^0x/, ''));
  if (!deposit) return [`chain ${params.chainId}: the upstream does not know the record's deposit ${params.depositTxHash}; the user's outputs are as the upstream has them now`];
  const vin = (deposit.esplora.vin ?? []) as Array<{ txid?: string; vout?: number; prevout?: { scriptpubkey?: string; value?: number } | null }>;
  // the address as the upstream has it now (read through once), then what the deposit spent
  await chain.balanceOf(params.user, chain.nativeCurrency());
  const ledger = chain.ledger;
  const kept = ledger.upstreamOutputsOf(script).map(({ txid, vout, value }) => ({ txid, vout, value }));
  const spent = vin
    .filter((input) => input.prevout?.scriptpubkey === scriptHex(script) && typeof input.txid === 'string' && Number.isInteger(input.vout))
    .map((input) => ({ txid: input.txid!, vout: input.vout!, value: BigInt(input.prevout!.value ?? 0) }))
    .filter((output) => !kept.some((known) => known.txid === output.txid && known.vout === output.vout) && ledger.transaction(output.txid) === undefined);
  if (spent.length === 0) return [];
  ledger.addUpstreamOutputs(script, [...kept, ...spent]);
  const sats = spent.reduce((sum, output) => sum + output.value, 0n);
  return [`chain ${params.chainId}: the ${spent.length} output(s) the record's deposit spent (${sats} sats) given back to ${params.user}, unspent here (the fork reads the upstream as it is now, after the deposit)`];
}

/** The PSBT's transaction, each input's witness a stand-in of a real one's size (no key signs it). */
function impersonatedTransaction(psbtHex: string, ledger: BvmLedger, user: Uint8Array, chainId: number): string {
  const psbt = bitcoin.Psbt.fromHex(psbtHex, { network: BVM_NETWORK });
  const tx = new bitcoin.Transaction();
  tx.version = psbt.version;
  tx.locktime = psbt.locktime;
  for (const input of psbt.txInputs) {
    const coin = ledger.coin(txidOf(input.hash), input.index);
    if (coin && scriptHex(coin.script) !== scriptHex(user)) throw new ChainError(`chain ${chainId}: the deposit's input ${txidOf(input.hash)}:${input.index} is not the record's user's: only the user is impersonated`);
    tx.addInput(input.hash, input.index, input.sequence);
  }
  for (const output of psbt.txOutputs) tx.addOutput(output.script, output.value);
  psbt.txInputs.forEach((_, index) => tx.setWitness(index, [new Uint8Array(SIGNATURE_BYTES), new Uint8Array(PUBLIC_KEY_BYTES)]));
  return tx.toHex();
}

/**
 * The deposit again as the record's user: the quote's PSBT, whose inputs are the user's outputs,
 * made a transaction with stand-in witnesses and accepted by the local ledger without checking
 * its input signatures (`withSignaturesTrusted`, the rule a journal's replay uses; every other
 * rule applies: the outputs must be unspent, the fee paid), then mined in one block.
 */
async function depositAs(params: Parameters<ReplayForking['depositAs']>[0]): Promise<{ txHashes: string[]; notes: string[] }> {
  const chain = chainOf(params.localChain);
  const user = outputScriptOf(params.from);
  if (!user) throw new ChainError(`chain ${params.chainId}: the record's user ${params.from} is not an address of this network`);
  const txHashes: string[] = [];
  for (const item of params.items) {
    const psbt = (item as { psbt?: unknown }).psbt;
    if (typeof psbt !== 'string') throw new ChainError(`chain ${params.chainId} (BVM): a step item's data carries a psbt`);
    const hex = impersonatedTransaction(psbt, chain.ledger, user, params.chainId);
    try {
      txHashes.push(chain.ledger.withSignaturesTrusted(() => chain.ledger.submit(hex)).txid);
    } catch (error) {
      if (error instanceof BvmRpcError) throw new ChainError(`chain ${params.chainId}: the deposit made again as ${params.from} was refused: ${error.message}`, { cause: error });
      throw error;
    }
  }
  await chain.cheats.mine(1);
  return { txHashes, notes: [] };
}

/** Where the solver's coins above the upstream solver's go: a p2wpkh of an all-zero key hash, which no key spends. */
const BURN_SCRIPT = bitcoin.payments.p2wpkh({ hash: new Uint8Array(20), network: BVM_NETWORK }).output!;

/**
 * The local solver's coins stand where the upstream solver's stand now (the fork is not pinned;
 * the solver's address is never read through): its confirmed outputs upstream (`GET
 * /address/:a/utxo`) are summed, and when the local solver holds more, one transaction of its
 * own spends all its coins, that sum back to it and the rest to an address no key spends, mined
 * at once. A solver holding less keeps what it has (nothing to take it from), and a note says so.
 */
async function standInForSolver(params: Parameters<ReplayForking['standInForSolver']>[0]): Promise<string[]> {
  const chain = chainOf(params.localChain);
  const solver = chain.keys.solver;
  const upstream = await new BvmUpstreamEsplora(params.upstreamUrl).confirmedOutputsOf(params.upstreamSolver);
  const target = upstream.reduce((sum, output) => sum + output.value, 0n);
  const coins = spendableCoinsOf(chain.ledger, solver.script);
  const held = coins.reduce((sum, coin) => sum + coin.value, 0n);
  const fee = p2wpkhFee(coins.length, 2);
  if (held <= target + fee) return [`chain ${params.chainId}: the solver holds ${held} sats, the upstream solver ${target} now; it keeps its own (the fork is not pinned)`];
  const kept = target >= dustThreshold(solver.script) ? [{ script: solver.script, value: target }] : [];
  const burnt = held - fee - (kept[0]?.value ?? 0n);
  const outputs = burnt >= dustThreshold(BURN_SCRIPT) || kept.length === 0 ? [...kept, { script: BURN_SCRIPT, value: burnt }] : kept;
  chain.ledger.submit(signP2wpkhTransaction(coins.map((coin) => ({ coin, key: solver })), outputs).toHex());
  await chain.cheats.mine(1);
  return [`chain ${params.chainId}: the solver's coins made the upstream solver's now (${kept[0]?.value ?? 0n} sats of ${held}; the fork is not pinned)`];
}

/** Bitcoin's replay forking (ReplayForking): an Esplora read as it is now, the solver's coins cut to the upstream's, the deposit's spent outputs given back, the user's spend accepted unsigned. */
export const BVM_REPLAY_FORKING: ReplayForking = { forkPoint, restoreDepositFunds, standInForSolver, depositAs };
