import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

/**
 * `tsc -p <tsconfig>` as a user's project runs it: TypeScript 7's native compiler from the project's
 * own node_modules (`typescript-native`, the `typescript@7` alias `npm test`'s type check runs), on
 * one thread (the suite's workers have the other core). What it prints: its diagnostics, empty when
 * the project type-checks; it writes the project's output unless `noEmit`. TypeScript 5's JavaScript
 * `tsc` sees the same in these projects (nodenext and bundler resolution of the package's exports
 * and declarations), at ~8 s of CPU a check against ~1 s.
 */
export async function typeCheck(tsconfigPath: string): Promise<string> {
  const projectDir = dirname(tsconfigPath);
  const tsc = join(projectDir, 'node_modules', 'typescript-native', 'bin', 'tsc');
  const args = [tsc, '-p', tsconfigPath, '--pretty', 'false', '--singleThreaded'];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: projectDir, timeout: 60_000 }).catch((failed: { stdout?: string; code?: unknown }) => {
    if (typeof failed.code !== 'number') throw failed; // a timeout or a tsc that never started, not a failed check
    return { stdout: failed.stdout ?? '' };
  });
  return stdout;
}
