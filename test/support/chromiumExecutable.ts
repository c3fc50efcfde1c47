import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Debian's `chromium` package puts the real binary here (/usr/bin/chromium is a shell wrapper). */
const DEBIAN_CHROMIUM = '/usr/lib/chromium/chromium';

/**
 * The Chromium the browser tests drive with playwright-core: `INTENTSIM_CHROMIUM`, else Debian's
 * binary, else `chromium` on PATH; undefined when there is none (the tests skip and say how to
 * install it: docs/explorer.md ("Explorer")).
 */
export function chromiumExecutable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.INTENTSIM_CHROMIUM) return existsSync(env.INTENTSIM_CHROMIUM) ? env.INTENTSIM_CHROMIUM : undefined;
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'chromium'))) return join(dir, 'chromium');
  }
  return undefined;
}
