import { execFileSync } from 'node:child_process';

/** The Anvil processes running now that fork one of `rpcUrls` (`pgrep`), e.g. a replay's, which must all be gone after it. */
export function anvilsForking(rpcUrls: readonly string[]): string[] {
  try {
    return execFileSync('pgrep', ['-a', '-f', 'anvil .*--fork-url'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter((line) => rpcUrls.some((rpc) => line.includes(rpc)));
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}
