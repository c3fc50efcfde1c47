import { AccountState, findAssociatedTokenPda, getTokenDecoder, getTokenEncoder, type TokenArgs } from '@solana-program/token';
import { lamports, none, some, type Address, type Option } from '@solana/kit';
import type { SvmLedger } from './SvmLedger';
import { SvmRpcError } from './svmRpcEncoding';
import { addressParam, configParam, u64Param, type SvmRpcMethod } from './svmRpcParams';
import { readMintDecimals, readTokenAccount } from './svmTokenBalances';
import { SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_ACCOUNT_SIZE, TOKEN_PROGRAM } from './svmProgramIds';
import { SVM_SLOTS_PER_EPOCH } from './svmClusterMethods';

/** The most slots one `surfnet_timeTravel` mines (each is a kept block). */
export const MAX_TIME_TRAVEL_SLOTS = 100_000n;
/** A slot's length on a validator: what a jump by slots adds to the chain's time. */
const SLOT_MS = 400n;

/**
 * The node's cheats under the names Solana developers know from Surfpool, served on its JSON-RPC
 * (as Anvil serves `anvil_*`): `surfnet_setAccount` (lamports, hex data, owner, executable),
 * `surfnet_setTokenAccount` (an owner's associated token account for a mint: amount, delegate,
 * state, close authority) and `surfnet_timeTravel` (forward only, to a timestamp in milliseconds,
 * a slot or an epoch). Each is a ledger change like any other, so a journaled node writes it down
 * and a restart on the same database replays it.
 */
export function svmSurfnetCheats(ledger: SvmLedger, epochInfo: () => unknown): Record<string, SvmRpcMethod> {
  const done = () => ({ context: { slot: ledger.currentSlot(), apiVersion: '2.2.0' }, value: null });
  return {
    surfnet_setAccount: ([key, update]) => {
      const address = addressParam(key);
      const changes = configParam(update);
      const existing = ledger.account(address);
      const data = changes.data === undefined ? (existing.exists ? existing.data : new Uint8Array()) : hexParam(changes.data);
      ledger.setAccount({
        address,
        lamports: lamports(changes.lamports === undefined ? (existing.exists ? existing.lamports : 0n) : u64Param(changes.lamports, 'lamports')),
        programAddress: changes.owner === undefined ? (existing.exists ? existing.programAddress : SYSTEM_PROGRAM) : addressParam(changes.owner, 'owner'),
        executable: changes.executable === undefined ? (existing.exists ? existing.executable : false) : changes.executable === true,
        space: BigInt(data.length),
        data,
      });
      return done();
    },
    surfnet_setTokenAccount: async ([owner, mint, update, program]) => {
      const ownerAddress = addressParam(owner, 'owner');
      const mintAddress = addressParam(mint, 'mint');
      const tokenProgram = program === undefined || program === null ? TOKEN_PROGRAM : addressParam(program, 'token program');
      if (tokenProgram !== TOKEN_PROGRAM && tokenProgram !== TOKEN_2022_PROGRAM) throw new SvmRpcError(-32602, `Invalid param: ${tokenProgram} is not a token program`);
      const mintAccount = ledger.account(mintAddress);
      if (!mintAccount.exists || mintAccount.programAddress !== tokenProgram || readMintDecimals(mintAccount) === undefined || readTokenAccount(mintAccount)) {
        throw new SvmRpcError(-32602, `Invalid param: ${mintAddress} is not a mint of ${tokenProgram}`);
      }
      const [ata] = await findAssociatedTokenPda({ owner: ownerAddress, mint: mintAddress, tokenProgram });
      // a fork's upstream may hold it: the cheat changes that account, as Surfpool's does
      await ledger.load([ata]);
      const existing = ledger.account(ata);
      const current: TokenArgs = readTokenAccount(existing) && existing.exists
        ? getTokenDecoder().decode(existing.data.subarray(0, TOKEN_ACCOUNT_SIZE))
        : { mint: mintAddress, owner: ownerAddress, amount: 0n, delegate: none(), state: AccountState.Initialized, isNative: none(), delegatedAmount: 0n, closeAuthority: none() };
      const data = new Uint8Array(getTokenEncoder().encode({ ...current, ...tokenAccountChanges(configParam(update)) }));
      const rent = ledger.svm.minimumBalanceForRentExemption(BigInt(TOKEN_ACCOUNT_SIZE));
      ledger.setAccount({ address: ata, lamports: lamports(existing.exists ? existing.lamports : rent), programAddress: tokenProgram, executable: false, space: BigInt(data.length), data });
      return done();
    },
    surfnet_timeTravel: ([config]) => {
      const target = configParam(config);
      const now = ledger.block(ledger.currentSlot())!;
      if (target.absoluteTimestamp !== undefined) {
        const seconds = Number(u64Param(target.absoluteTimestamp, 'absoluteTimestamp') / 1000n);
        if (seconds <= now.blockTime) throw new SvmRpcError(-32602, `Invalid param: absoluteTimestamp (milliseconds) must be after the chain's time, ${now.blockTime * 1000} ms`);
        ledger.setNextBlockTimestamp(seconds);
        ledger.mine(1);
      } else {
        const slot = target.absoluteSlot !== undefined ? u64Param(target.absoluteSlot, 'absoluteSlot') : target.absoluteEpoch !== undefined ? u64Param(target.absoluteEpoch, 'absoluteEpoch') * SVM_SLOTS_PER_EPOCH : undefined;
        if (slot === undefined) throw new SvmRpcError(-32602, 'Invalid params: expected { absoluteTimestamp }, { absoluteSlot } or { absoluteEpoch }');
        const count = slot - now.slot;
        if (count <= 0n) throw new SvmRpcError(-32602, `Invalid param: slot ${slot} is not after the chain's slot ${now.slot}`);
        if (count > MAX_TIME_TRAVEL_SLOTS) throw new SvmRpcError(-32602, `Invalid param: a jump of ${count} slots is more than this node mines at once (${MAX_TIME_TRAVEL_SLOTS})`);
        if (count > 1n) ledger.mine(Number(count - 1n));
        ledger.setNextBlockTimestamp(now.blockTime + Number((count * SLOT_MS) / 1000n));
        ledger.mine(1);
      }
      return epochInfo();
    },
  };
}

function hexParam(value: unknown): Uint8Array {
  if (typeof value !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(value)) throw new SvmRpcError(-32602, 'Invalid param: data must be hex (no 0x prefix)');
  return new Uint8Array(Buffer.from(value, 'hex'));
}

/** Surfpool's account reference: an address, `null` / `"noAccount"` for none, or `{ account: address }`. */
function optionalAccountParam(value: unknown, name: string): Option<Address> {
  if (value === null || value === 'noAccount') return none<Address>();
  const spec = configParam(value);
  return some(addressParam(typeof value === 'string' ? value : spec.account, name));
}

function tokenAccountChanges(update: Record<string, unknown>): Partial<TokenArgs> {
  const changes: Partial<TokenArgs> = {};
  if (update.amount !== undefined) changes.amount = u64Param(update.amount, 'amount');
  if (update.delegate !== undefined) changes.delegate = optionalAccountParam(update.delegate, 'delegate');
  if (update.delegatedAmount !== undefined) changes.delegatedAmount = u64Param(update.delegatedAmount, 'delegatedAmount');
  if (update.closeAuthority !== undefined) changes.closeAuthority = optionalAccountParam(update.closeAuthority, 'closeAuthority');
  if (update.state !== undefined) {
    const states: Record<string, AccountState> = { initialized: AccountState.Initialized, frozen: AccountState.Frozen };
    const state = typeof update.state === 'string' ? states[update.state] : undefined;
    if (state === undefined) throw new SvmRpcError(-32602, 'Invalid param: state must be "initialized" or "frozen"');
    changes.state = state;
  }
  return changes;
}
