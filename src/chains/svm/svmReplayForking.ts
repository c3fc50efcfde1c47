import { address, type Address, type EncodedAccount } from '@solana/kit';
import { ChainError } from '../../errors/IntentsimError';
import { associatedTokenAccount, describeSvmTransactionError, impersonatedSvmWire, readTokenAccount, SvmUpstreamRpc, type SvmLedger } from '../../nodes/svm';
import type { ChainAdapter } from '../ChainAdapter';
import type { ReplayForkAsk, ReplayForking, ReplayForkPoint } from '../ReplayForking';
import { probeSvmForkUpstream } from './probeSvmForkUpstream';
import { SvmChain } from './SvmChain';
import { fromStepInstruction, type SvmStepInstruction } from './svmInstructions';

/** What a replay's user keeps beyond the deposit: its fees and an account left rent-exempt (lamports). */
const USER_HEADROOM_LAMPORTS = 10_000_000n;

/** The in-process ledger of the replay's local Solana chain (a replay starts the embedded node, never `--svm validator`). */
function ledgerOf(chain: ChainAdapter): SvmLedger {
  if (!(chain instanceof SvmChain)) throw new ChainError(`chain ${chain.chainId} is not a Solana chain`);
  return chain.ledger;
}

/** A Solana fork is never pinned: the upstream is read as it is now (no public RPC serves past account state). */
async function forkPoint(ask: ReplayForkAsk): Promise<ReplayForkPoint> {
  const probed = await probeSvmForkUpstream({ chainId: ask.chainId, url: ask.url });
  return { shownUrl: probed.origin, block: null, pinned: false };
}

/** `account` with its token amount set to `amount` (bytes 64..72 of an SPL token account). */
function withTokenAmount(account: EncodedAccount, amount: bigint): EncodedAccount {
  const data = new Uint8Array(account.data);
  new DataView(data.buffer).setBigUint64(64, amount, true);
  return { ...account, data };
}

/**
 * The local solver stands where the upstream's stands now (the fork is not pinned): its lamports
 * set to the upstream solver's and, for a token, its associated token account's amount to the
 * upstream solver's (the simulator's mint is the same on both when both are simulators).
 */
async function standInForSolver(params: Parameters<ReplayForking['standInForSolver']>[0]): Promise<string[]> {
  const ledger = ledgerOf(params.localChain);
  const upstream = new SvmUpstreamRpc(params.upstreamUrl);
  const upstreamSolver = address(params.upstreamSolver);
  const localSolver = address(params.localSolver);
  const solverAccount = (await upstream.accounts([upstreamSolver])).get(upstreamSolver);
  const held = solverAccount ? BigInt(solverAccount.lamports) : 0n;
  ledger.setLamports(localSolver, held);
  const notes = [`chain ${params.chainId}: the solver's lamports set to the upstream solver's now (${held}; the fork is not pinned)`];
  if (params.native) return notes;

  const mint = address(params.currency);
  const [upstreamAta, localAta] = await Promise.all([associatedTokenAccount(upstreamSolver, mint), associatedTokenAccount(localSolver, mint)]);
  const found = (await upstream.accounts([upstreamAta])).get(upstreamAta);
  const upstreamToken = found ? readTokenAccount({ ...found, data: new Uint8Array(found.data), exists: true }) : undefined;
  const target = upstreamToken?.amount ?? 0n;
  const local = ledger.account(localAta);
  if (!local.exists || readTokenAccount(local) === undefined) {
    notes.push(`chain ${params.chainId}: the solver has no ${mint} account here; its token balance is not the upstream's (${target})`);
    return notes;
  }
  ledger.setAccount(withTokenAmount(local, target));
  notes.push(`chain ${params.chainId}: the solver's ${mint} balance set to the upstream solver's now (${target})`);
  return notes;
}

/**
 * The user holds what the deposit needs: the fork read its account as the upstream has it now,
 * after the record's deposit spent it. Short lamports (a SOL deposit's amount, and fees) or a short
 * token account are topped up, and a note says so.
 */
async function topUpUser(params: Parameters<ReplayForking['depositAs']>[0], ledger: SvmLedger, user: Address): Promise<string[]> {
  const { native } = params;
  await ledger.load([user]);
  const notes: string[] = [];
  const need = (native ? params.amount : 0n) + USER_HEADROOM_LAMPORTS;
  const held = ledger.balance(user);
  if (held < need) {
    ledger.setLamports(user, need);
    notes.push(`chain ${params.chainId}: the user ${user} holds ${held} lamports now (the fork is not pinned), short of the deposit and its fees (${need}); topped up to it`);
  }
  if (native) return notes;
  const ata = await associatedTokenAccount(user, address(params.currency));
  await ledger.load([ata]);
  const account = ledger.account(ata);
  const token = readTokenAccount(account);
  if (!account.exists || token === undefined) {
    notes.push(`chain ${params.chainId}: the user ${user} has no ${params.currency} account now; the deposit is sent as it is`);
  } else if (token.amount < params.amount) {
    ledger.setAccount(withTokenAmount(account, params.amount));
    notes.push(`chain ${params.chainId}: the user ${user} holds ${token.amount} of ${params.currency} now, short of the deposit (${params.amount}); topped up to it`);
  }
  return notes;
}

/**
 * The deposit again as the record's user: the quote's instructions in one transaction with the
 * user as fee payer and only signer, its signature a stand-in (`impersonatedSvmWire`), run by the
 * local ledger with the signature check off for that one transaction (`sigVerify: false`, and
 * journaled so). Every other rule applies: a deposit the user could not pay fails here too.
 */
async function depositAs(params: Parameters<ReplayForking['depositAs']>[0]): Promise<{ txHashes: string[]; notes: string[] }> {
  const ledger = ledgerOf(params.localChain);
  const user = address(params.from);
  const notes = await topUpUser(params, ledger, user);
  const txHashes: string[] = [];
  for (const item of params.items) {
    const instructions = (item as { instructions?: SvmStepInstruction[] }).instructions;
    if (!Array.isArray(instructions)) throw new ChainError(`chain ${params.chainId} (SVM): a step item's data carries instructions`);
    const wire = impersonatedSvmWire(user, instructions.map(fromStepInstruction), ledger.latestBlockhash());
    await ledger.loadForTransaction(wire);
    const record = ledger.submit(wire, { preflight: false, sigVerify: false });
    if (record.err !== null) throw new ChainError(`chain ${params.chainId}: the deposit made again as ${user} failed: ${describeSvmTransactionError(record.err)}`);
    txHashes.push(record.signature);
  }
  return { txHashes, notes };
}

/** Solana's replay forking (ReplayForking): read-through forks as they are now, the user's deposit run with its signature check waived. */
export const SVM_REPLAY_FORKING: ReplayForking = { forkPoint, standInForSolver, depositAs };
