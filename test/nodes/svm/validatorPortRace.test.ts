import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSolanaTestValidator } from '../../../src/nodes/svm/SolanaTestValidatorProcess';
import { ChildProcessStartError } from '../../../src/process/ChildProcessStartError';

/**
 * `--svm validator` picks a free port range and the validator binds it a moment later; a port
 * taken in between (the range lies in the OS's ephemeral range) made the start fail. Now a start
 * that exits on an address in use is tried again on a new range; any other exit is not.
 */
const work = mkdtempSync(join(tmpdir(), 'intentsim-validator-race-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** How many times the validator was started: each start writes one header line in its log. */
function startsIn(logFile: string): number {
  return readFileSync(logFile, 'utf8').split('\n').filter((line) => line.startsWith('--- ') && !line.includes(' exited (')).length;
}

function options(name: string, binary: string) {
  return { chainId: 792703809, binaryPath: resolve('test/fixtures/bin', binary), ledgerDir: join(work, name, 'ledger'), logFile: join(work, `${name}.log`), host: '127.0.0.1', reset: true, accounts: [] };
}

describe('solana-test-validator start', () => {
  it('starts again on a new port range when its first start lost a port to another process', async () => {
    process.env.VALIDATOR_RACE_DIR = work;
    try {
      const { endpoints, process: validator } = await startSolanaTestValidator(options('race', 'solana-test-validator-losing-a-port-race'));
      try {
        expect(existsSync(join(work, 'lost-once'))).toBe(true);
        expect(startsIn(join(work, 'race.log'))).toBe(2);
        const health = await (await fetch(endpoints.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }) })).json();
        expect(health).toMatchObject({ result: 'ok' });
      } finally {
        await validator.stop();
      }
    } finally {
      delete process.env.VALIDATOR_RACE_DIR;
    }
  });

  it('does not start again when it exited for another reason', async () => {
    const failed = await startSolanaTestValidator({ ...options('bad-flag', 'solana-test-validator'), accounts: [{ address: '11111111111111111111111111111111', file: join(work, 'no-such-account.json') }] }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ChildProcessStartError);
    expect((failed as ChildProcessStartError).message).toMatch(/failed to read account file/);
    expect(startsIn(join(work, 'bad-flag.log'))).toBe(1);
  });
});
