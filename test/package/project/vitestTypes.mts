// Type-checked only: `import type {} from 'intentsim/vitest'` types Vitest's inject('intentsim').
import type {} from 'intentsim/vitest';
import { inject } from 'vitest';

type IsAny<T> = 0 extends 1 & T ? true : false;
export function baseUrlOfTheRun(): string {
  const context = inject('intentsim');
  const notAny: IsAny<typeof context> = false;
  return notAny ? '' : context.baseUrl + context.chains[0]!.rpcUrl + context.apiKey + context.accounts[0]!.privateKey;
}
