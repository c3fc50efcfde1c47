import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * `tsc -b <tsconfig>…` in a user's project: TypeScript 7's native compiler from the project's own
 * node_modules (`typescript-native`, the `typescript@7` alias `npm test`'s type check runs), on one
 * thread (the suite's workers have the other core), over several projects of the directory in one
 * process (~1.7 s of CPU for three against ~1.1 s each as `tsc -p`). What it prints: each project's
 * diagnostics (`file(line,col): error TS…`), empty when they all type-check; a project without
 * `noEmit` writes its output. TypeScript 5's JavaScript `tsc` sees the same in these projects
 * (nodenext and bundler resolution of the package's exports and declarations), at ~8 s of CPU a project.
 */
export async function typeCheck(projectDir: string, tsconfigs: readonly string[]): Promise<string> {
  const tsc = join(projectDir, 'node_modules', 'typescript-native', 'bin', 'tsc');
  const args = [tsc, '-b', ...tsconfigs, '--pretty', 'false', '--singleThreaded'];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: projectDir, timeout: 60_000 }).catch((failed: { stdout?: string; code?: unknown }) => {
    if (typeof failed.code !== 'number') throw failed; // a timeout or a tsc that never started, not a failed check
    return { stdout: failed.stdout ?? '' };
  });
  return stdout;
}
