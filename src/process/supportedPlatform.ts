import { ConfigurationError } from '../errors/IntentsimError';

/**
 * The machines intentsim runs on: where both Anvil (`@foundry-rs/anvil-<os>-<cpu>`) and LiteSVM
 * (`litesvm-<os>-<cpu>`) publish a build, which npm picks from the lockfile's optional packages.
 * docs/platforms.md lists them.
 */
const ANVIL_PACKAGES: Readonly<Record<string, string>> = {
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
};

const PLATFORM_NAMES: Readonly<Record<string, string>> = { darwin: 'macOS', linux: 'Linux', win32: 'Windows' };

export class UnsupportedPlatformError extends ConfigurationError {
  override readonly name = 'UnsupportedPlatformError';
}

/** The npm package that ships Anvil for a platform, or `undefined` where there is none. */
export function anvilPackageFor(platform: string = process.platform, arch: string = process.arch): string | undefined {
  return ANVIL_PACKAGES[`${platform}-${arch}`];
}

/** Refuses, in one line that says what to do, a machine intentsim has no build for. */
export function assertSupportedPlatform(platform: string = process.platform, arch: string = process.arch): void {
  if (anvilPackageFor(platform, arch) !== undefined) return;
  const name = `${PLATFORM_NAMES[platform] ?? platform} ${arch}`;
  const instead = platform === 'win32' ? 'run it in WSL 2 (a Linux x64 or arm64 machine)' : 'run it on macOS (arm64, x64) or Linux (x64, arm64)';
  throw new UnsupportedPlatformError(`intentsim does not run on ${name}: Anvil and LiteSVM publish no build for it; ${instead} (docs/platforms.md)`);
}
