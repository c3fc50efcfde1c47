import { expect } from 'vitest';
import { DEFAULT_EVM_CHAIN_IDS } from '../../fixtures/chains';

/**
 * Library scenarios the library test (test/support/scenarioLibrary.ts) runs a second time: the
 * fault scenarios of the in-process ledgers (Bitcoin: docs/chains/bitcoin.md "Faults"; Solana and
 * Lighter: issue 23), and one whose webhook attempts are answered 500, 503, 429 then 200, which
 * must give the same timeline byte for byte, and the same records but the EVM blocks' times, every
 * run: on a simulator another scenario ran on, reset, and on a fresh start.
 */
export const RUN_TWICE: ReadonlySet<string> = new Set([
  'non-evm/bvm-deposit-reorged-then-reconfirmed',
  'non-evm/bvm-deposit-replaced-by-fee',
  'non-evm/bvm-deposit-double-spent-in-reorg',
  'non-evm/bvm-deposit-double-spent-after-fill',
  'non-evm/bvm-reorg-after-fill-reconfirmed',
  'non-evm/svm-deposit-rolled-back-before-fill',
  'non-evm/svm-deposit-rolled-back-after-fill',
  'non-evm/svm-fill-dropped-not-included',
  'non-evm/svm-deposit-dropped-waiting',
  'non-evm/svm-fill-insufficient-funds-for-rent',
  'non-evm/svm-snapshot-revert',
  'non-evm/exchange-paused-recipient',
  'non-evm/exchange-solver-key-revoked',
  'non-evm/exchange-solver-collateral-short',
  'non-evm/exchange-withdrawal-refused',
  'non-evm/exchange-withdrawal-sent-twice',
  'non-evm/exchange-snapshot-revert',
  'webhooks/retries-until-accepted',
]);

/** What some library scenarios' timelines must say beyond their expectations (a refusal as the chain's API worded it). */
export const TIMELINE_SAYS: Readonly<Record<string, ReadonlyArray<string | RegExp>>> = {
  'non-evm/exchange-withdrawal-refused': [
    'withdrawal: refused as expected: chain 3586256: the exchange refused the transfer: 403 ACCOUNT_PAUSED: account 2 is paused',
    'withdrawal: refused as expected: chain 3586256: the exchange refused the transfer: 401 INVALID_API_KEY: the API key of account 2 was revoked',
  ],
  'non-evm/exchange-withdrawal-sent-twice': [/sent \(tx [0-9a-f]{64}, account 2, nonce 1\) sent again: refused 400 INVALID_NONCE: nonce 1 is not above account 2's last nonce 1/],
};

/**
 * What some library scenarios' records (the result's §2.3 record of each named quote) must hold
 * beyond their expectations. The runner reads them at the end, at one instant of the manual
 * clock, where one GET /requests/v3 per quote ran into the key's listing rate (20 a second) and
 * left the last ones null: a scenario of 26 quotes has the record of each, by its name.
 */
export const RECORDS_HOLD: Readonly<Record<string, (records: Record<string, unknown>) => void>> = {
  'scripted/fail-reasons-without-local-cause': (records) => {
    const names = Array.from({ length: 26 }, (_, index) => `r${index + 1}`);
    expect(Object.keys(records).sort()).toEqual([...names].sort());
    for (const name of names) expect(records[name], name).toMatchObject({ status: 'refund' });
  },
};

/**
 * A run's records (the §2.3 record of each named quote) whole, but the block time of each entry on
 * a pooled EVM chain: the pooled Anvil's own (wall) clock, which two fresh starts differ in too.
 * Everything else (the non-EVM chains' hashes, blocks, fees and times: the virtual clock's) must repeat.
 */
export function recordsButEvmBlockTimes(records: Record<string, unknown>): unknown {
  const evm = new Set<number>(DEFAULT_EVM_CHAIN_IDS);
  const onEvm = (value: unknown): value is { chainId: number; timestamp: unknown } =>
    typeof value === 'object' && value !== null && 'timestamp' in value && 'chainId' in value && evm.has(value.chainId as number);
  return JSON.parse(JSON.stringify(records, (_, value: unknown) => (onEvm(value) ? { ...value, timestamp: "the pooled Anvil's clock" } : value))) as unknown;
}
