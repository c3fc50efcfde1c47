import { address, getAddressDecoder, type Address, type EncodedAccount } from '@solana/kit';
import { decodeSvmTransaction, svmAccountKeys, type DecodedSvmTransaction } from './decodeSvmTransaction';
import type { SvmLedger } from './SvmLedger';
import type { SvmAccountSource } from './svmLedgerTypes';
import { ADDRESS_LOOKUP_TABLE_PROGRAM } from './svmProgramIds';
import { listedAccount, readTokenAccount } from './svmTokenBalances';
import { SVM_UPSTREAM_ERROR_CODE, type SvmUpstreamRpc } from './SvmUpstreamRpc';
import { shownUpstream } from '../../config/shownUpstream';
import { SvmRpcError } from './svmRpcEncoding';

/** Builtins and sysvars: the local runtime's own, never taken from an upstream. */
const NATIVE_LOADER = address('NativeLoader1111111111111111111111111111111');
const SYSVAR_OWNER = address('Sysvar1111111111111111111111111111111111111');
const UPGRADEABLE_LOADER = address('BPFLoaderUpgradeab1e11111111111111111111111');
/** UpgradeableLoaderState's tags: a program (its programdata's address at bytes 4..36) and a programdata (its deployment slot at bytes 4..12). */
const UPGRADEABLE_PROGRAM_TAG = 2;
const UPGRADEABLE_PROGRAMDATA_TAG = 3;
/** Where a lookup table's `last_extended_slot` sits (after the u32 tag and the u64 deactivation slot). */
const LOOKUP_TABLE_LAST_EXTENDED_SLOT = 12;

/**
 * A fork's read-through, Surfpool's way: the first time an address is asked for or used by a
 * transaction and the local chain has never had it (`SvmLedger.answersFor`), it is read from the
 * upstream and set into the ledger before the read or the transaction runs (journaled with it).
 * Whatever it reads brings what it needs along in the same step: an upgradeable program its
 * programdata, a token account its mint. An address the upstream has no account at is remembered
 * as empty; an address the local chain wrote (a transaction named it, a cheat set it) is never
 * read again (local wins). Builtins and sysvars stay the local runtime's. Reads are taken one at a
 * time (two reads of one address fetch it once). Nothing but reads is ever sent upstream.
 */
export class SvmUpstreamAccounts implements SvmAccountSource {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly ownerQueries = new Set<string>();

  constructor(
    private readonly ledger: SvmLedger,
    private readonly upstream: SvmUpstreamRpc,
  ) {}

  get url(): string {
    return this.upstream.url;
  }

  load(addresses: readonly Address[]): Promise<void> {
    return this.serially(() => this.fetchMissing(addresses));
  }

  /** Every account key of the transaction, its lookup tables first (then the addresses they name); an undecodable one is left to the ledger to refuse. */
  loadForTransaction(wire: Uint8Array): Promise<void> {
    let decoded: DecodedSvmTransaction;
    try {
      decoded = decodeSvmTransaction(wire);
    } catch {
      return Promise.resolve();
    }
    const message = decoded.message;
    const tables = 'addressTableLookups' in message ? (message.addressTableLookups ?? []).map((lookup) => lookup.lookupTableAddress) : [];
    return this.serially(async () => {
      await this.fetchMissing([...message.staticAccounts, ...tables]);
      await this.fetchMissing(svmAccountKeys(message, (table) => this.ledger.lookupTable(table)).all);
    });
  }

  /** The owner's token accounts upstream (of a mint or a token program), asked once per owner and filter while the node runs. */
  loadTokenAccountsOf(owner: Address, filter: { mint: Address } | { programId: Address }): Promise<void> {
    const query = `${owner}:${'mint' in filter ? `mint:${filter.mint}` : `program:${filter.programId}`}`;
    return this.serially(async () => {
      if (this.ownerQueries.has(query)) return;
      const held = (await this.upstream.tokenAccountsOf(owner, filter)).filter((account) => !this.ledger.answersFor(account.address));
      await this.take(held, []);
      this.ownerQueries.add(query);
    });
  }

  private serially(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private missing(addresses: readonly Address[]): Address[] {
    return [...new Set(addresses)].filter((key) => !this.ledger.answersFor(key));
  }

  private async fetchMissing(addresses: readonly Address[]): Promise<void> {
    const wanted = this.missing(addresses);
    if (wanted.length === 0) return;
    const fetched = await this.upstream.accounts(wanted);
    const found: EncodedAccount[] = [];
    const absent: Address[] = [];
    for (const key of wanted) {
      const account = fetched.get(key);
      if (account && account.programAddress !== NATIVE_LOADER && account.programAddress !== SYSVAR_OWNER) found.push(account);
      else absent.push(key);
    }
    await this.take(found, absent);
  }

  /** Sets what was read into the ledger, after fetching what it needs (programdata, mints) so that a program's programdata is there before the program. */
  private async take(found: readonly EncodedAccount[], absent: readonly Address[]): Promise<void> {
    const all = [...found];
    const empty = [...absent];
    // what is being taken now, or known to be nowhere, is not asked for again
    const known = new Set<Address>([...found.map((account) => account.address), ...absent]);
    let needed = this.missing(found.flatMap(dependenciesOf)).filter((key) => !known.has(key));
    while (needed.length > 0) {
      const fetched = await this.upstream.accounts(needed);
      const more = needed.flatMap((key) => (fetched.get(key) ? [fetched.get(key)!] : []));
      all.push(...more);
      empty.push(...needed.filter((key) => !fetched.get(key)));
      for (const key of needed) known.add(key);
      needed = this.missing(more.flatMap(dependenciesOf)).filter((key) => !known.has(key));
    }
    const refused = this.ledger.takeUpstreamAccounts(all.map(localized), empty);
    if (refused.length > 0) {
      const [first] = refused;
      throw new SvmRpcError(SVM_UPSTREAM_ERROR_CODE, `account ${first!.address} of the fork's upstream ${shownUpstream(this.upstream.url)} cannot be loaded here: ${first!.reason}${refused.length > 1 ? ` (and ${refused.length - 1} more)` : ''}`);
    }
  }
}

/** What an account needs alongside it to be used: an upgradeable program its programdata, a token account its mint. */
function dependenciesOf(account: EncodedAccount): Address[] {
  if (account.programAddress === UPGRADEABLE_LOADER && account.executable && account.data.length >= 36 && tagOf(account) === UPGRADEABLE_PROGRAM_TAG) {
    return [getAddressDecoder().decode(account.data.subarray(4, 36))];
  }
  const token = readTokenAccount(listedAccount(account));
  return token ? [token.mint] : [];
}

/**
 * The account as this chain can use it from slot 0: an upstream slot number inside it would be
 * far in the local chain's future, so a lookup table's last extension and a programdata's
 * deployment slot are set to 0 (else the addresses the table was last extended with would not be
 * usable yet, and the deployment would read as later than every local slot).
 */
function localized(account: EncodedAccount): EncodedAccount {
  const isProgramdata = account.programAddress === UPGRADEABLE_LOADER && account.data.length >= 12 && tagOf(account) === UPGRADEABLE_PROGRAMDATA_TAG;
  const isLookupTable = account.programAddress === ADDRESS_LOOKUP_TABLE_PROGRAM && account.data.length >= LOOKUP_TABLE_LAST_EXTENDED_SLOT + 8;
  if (!isProgramdata && !isLookupTable) return account;
  const data = new Uint8Array(account.data);
  new DataView(data.buffer).setBigUint64(isProgramdata ? 4 : LOOKUP_TABLE_LAST_EXTENDED_SLOT, 0n, true);
  return { ...account, data };
}

function tagOf(account: EncodedAccount): number {
  return new DataView(account.data.buffer, account.data.byteOffset, account.data.byteLength).getUint32(0, true);
}
