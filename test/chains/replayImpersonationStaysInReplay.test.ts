import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeScriptFilesUnder } from '../support/typeScriptFilesUnder';

const root = join(__dirname, '..', '..');

/**
 * The cheats that act as a user without the user's key (docs/forking.md "Replay per chain kind"),
 * each with the only files that may use them: a replay's forkings, and the journals that apply
 * again what a ledger already accepted. No production decision goes through them. (Lighter's is
 * `LvmLedger.transfer`, the ledger's own step once an API key is checked, which the solver's wallet
 * uses for its own account too: not one to list here.)
 */
const IMPERSONATION: ReadonlyArray<{ what: string; use: RegExp; allowed: readonly string[] }> = [
  { what: "an EVM account's impersonation", use: /impersonateAccount/, allowed: ['src/chains/evm/evmReplayForking.ts'] },
  { what: 'a Solana wire signed by no key', use: /impersonatedSvmWire\(/, allowed: ['src/chains/svm/svmReplayForking.ts', 'src/nodes/svm/signSvmWire.ts'] },
  // a simulation without the check (the solver's, as a wallet's preflight) keeps nothing: not one of these
  { what: 'a Solana transaction run with its signatures unchecked', use: /^(?!.*simulate\().*sigVerify: (false|entry\.unverified)/, allowed: ['src/chains/svm/svmReplayForking.ts', 'src/nodes/svm/SvmLedgerJournal.ts'] },
  { what: 'a Bitcoin spend accepted with its signatures unchecked', use: /withSignaturesTrusted\(/, allowed: ['src/chains/bvm/bvmReplayForking.ts', 'src/nodes/bvm/BvmLedgerJournal.ts', 'src/nodes/bvm/writeBvmGenesis.ts', 'src/nodes/bvm/BvmLedger.ts'] },
];

/** The files of src/ that use `use`, one line each. */
function usersOf(files: ReadonlyArray<{ path: string; text: string }>, use: RegExp): string[] {
  return files.filter((file) => file.text.split('\n').some((line) => use.test(line) && !/^\s*(\*|\/\/)/.test(line))).map((file) => file.path);
}

describe("acting as a user without its key stays in a replay's forkings (and the journals that apply again what was accepted)", () => {
  const files = typeScriptFilesUnder(join(root, 'src')).map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));

  for (const { what, use, allowed } of IMPERSONATION) {
    it(`${what}: only ${allowed.join(', ')}`, () => {
      const users = usersOf(files, use);
      expect(users.filter((path) => !allowed.includes(path))).toEqual([]);
      // the replay's own use is there (the check looks at the right thing)
      expect(users.some((path) => path.includes('ReplayForking') || path.includes('replayForking'))).toBe(true);
    });
  }

  it('the check finds a use outside the list (it can fail)', () => {
    const sample = [{ path: 'src/solver/x.ts', text: "ledger.submit(wire, { preflight: false, sigVerify: false });\n// ledger.submit(wire, { sigVerify: false }) in a comment" }];
    expect(usersOf(sample, IMPERSONATION[2]!.use)).toEqual(['src/solver/x.ts']);
  });
});
