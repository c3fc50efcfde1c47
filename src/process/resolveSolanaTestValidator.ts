import { resolve } from 'node:path';
import { ConfigurationError } from '../errors/IntentsimError';
import { executableFileProblem, findOnPath } from './resolveAnvilBinary';

export class SolanaTestValidatorNotFoundError extends ConfigurationError {
  constructor(readonly searched: readonly string[]) {
    super(
      [
        '--svm validator: no usable solana-test-validator found. Looked in:',
        ...searched.map((place, index) => `  ${index + 1}. ${place}`),
        'Set INTENTSIM_SOLANA_TEST_VALIDATOR (or --solana-test-validator) to the binary, put solana-test-validator on PATH, or run the embedded SVM chain (--svm embedded, the default).',
      ].join('\n'),
    );
  }
}

/**
 * Picks the `solana-test-validator` binary for `--svm validator`: the explicit path
 * (INTENTSIM_SOLANA_TEST_VALIDATOR), else `solana-test-validator` on the given PATH. Reads no
 * environment itself; throws SolanaTestValidatorNotFoundError naming every place it looked.
 */
export function resolveSolanaTestValidator(parameters: { explicitPath?: string | undefined; pathEnv?: string | undefined }): string {
  const { explicitPath, pathEnv } = parameters;
  if (explicitPath !== undefined && explicitPath !== '') {
    const absolutePath = resolve(explicitPath);
    const problem = executableFileProblem(absolutePath);
    if (problem !== undefined) throw new SolanaTestValidatorNotFoundError([`explicit path (INTENTSIM_SOLANA_TEST_VALIDATOR) ${absolutePath}: ${problem}`]);
    return absolutePath;
  }
  const onPath = pathEnv === undefined ? undefined : findOnPath('solana-test-validator', pathEnv);
  if (onPath !== undefined) return onPath;
  throw new SolanaTestValidatorNotFoundError([
    'explicit path (INTENTSIM_SOLANA_TEST_VALIDATOR): not set',
    pathEnv === undefined ? 'PATH: not given' : `PATH (${pathEnv === '' ? 'empty' : pathEnv}): no executable named solana-test-validator`,
  ]);
}
