import type { LvmLedger } from './LvmLedger';
import type { LvmUpstreamApi } from './LvmUpstreamApi';
import { ReadsInFlight } from '../readsInFlight';

/**
 * A forked exchange's read-through (issue 35, Lighter): an account index, or an L1 address owning
 * no account here, is read from the upstream the first time a request names it; the accounts read
 * are added to the ledger with their balances and nonce (journaled, so a restart needs no
 * upstream), each opened by the API key this node derives for its index (`apiKeyFor`, the same as
 * the upstream's when both run with one mnemonic and chain id). From then on the ledger answers
 * alone: local changes win. An index the upstream does not know is asked again next time.
 * Concurrent asks for the same thing share one upstream request. Reads only.
 */
export class LvmReadThrough {
  private readonly inFlight = new ReadsInFlight();

  constructor(
    private readonly ledger: LvmLedger,
    readonly upstream: LvmUpstreamApi,
    private readonly apiKeyFor: (index: number) => string,
  ) {}

  async accountIndex(index: number): Promise<void> {
    if (!Number.isSafeInteger(index) || index < 0 || this.ledger.account(index)) return;
    await this.inFlight.once(`index:${index}`, async () => this.add(await this.upstream.accountsByIndex(index)));
  }

  async accountIndexes(indexes: readonly number[]): Promise<void> {
    for (const index of indexes) await this.accountIndex(index);
  }

  async l1Address(l1Address: string): Promise<void> {
    if (!/^0x[0-9a-fA-F]{40}$/.test(l1Address) || this.ledger.accountsOf(l1Address).length > 0) return;
    await this.inFlight.once(`l1:${l1Address.toLowerCase()}`, async () => this.add(await this.upstream.accountsByL1Address(l1Address)));
  }

  private add(accounts: Parameters<LvmLedger['addUpstreamAccounts']>[0]): void {
    for (const account of this.ledger.addUpstreamAccounts(accounts)) {
      if (this.ledger.accountOfApiKey(this.apiKeyFor(account.index)) === undefined) this.ledger.issueApiKey(account.index, this.apiKeyFor(account.index));
    }
  }

}

const INDEX = /^(0|[1-9]\d{0,14})$/;

/**
 * Before an exchange API request: the accounts it names are read (`account?by=index|l1_address`,
 * `accountsByL1Address`, `nextNonce`, `accountTxs`, `transferFeeInfo`); a value that does not parse
 * is read as nothing (the route's own answer says what is wrong). A transfer's accounts are read
 * once its body is parsed (`LvmApiServer`).
 */
export async function readThroughForLvmRequest(readThrough: LvmReadThrough, route: string, url: URL): Promise<void> {
  const query = (name: string) => url.searchParams.get(name)?.trim() ?? '';
  const indexes = (...names: string[]) => names.map(query).filter((value) => INDEX.test(value)).map(Number);
  switch (route) {
    case 'GET /api/v1/account':
      if (query('by') === 'index') await readThrough.accountIndexes(indexes('value'));
      if (query('by') === 'l1_address') await readThrough.l1Address(query('value'));
      return;
    case 'GET /api/v1/accountsByL1Address':
      return readThrough.l1Address(query('l1_address'));
    case 'GET /api/v1/nextNonce':
      return readThrough.accountIndexes(indexes('account_index'));
    case 'GET /api/v1/accountTxs':
      return readThrough.accountIndexes(query('by') === 'account_index' ? indexes('value') : []);
    case 'GET /api/v1/transferFeeInfo':
      return readThrough.accountIndexes(indexes('account_index', 'to_account_index'));
  }
}
