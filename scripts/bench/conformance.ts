import { runConformance, type ConformanceReport } from '../../conformance';
import { startSimulator } from '../../src/simulator';

export interface ConformanceBenchResult {
  readOnly: { checks: number; passed: number; failed: number; skipped: number; seconds: number };
  full: { checks: number; passed: number; failed: number; skipped: number; seconds: number };
}

const summary = (report: ConformanceReport) => ({
  checks: report.results.length,
  passed: report.results.filter((r) => r.outcome === 'pass').length,
  failed: report.results.filter((r) => r.outcome === 'fail').length,
  skipped: report.results.filter((r) => r.outcome === 'skip').length,
  seconds: report.durationMs / 1000,
});

/** `intentsim conformance` against a fresh simulator: the read-only run, then the full run (deposits, webhooks, control plane). */
export async function benchConformance(progress: (line: string) => void): Promise<ConformanceBenchResult> {
  const sim = await startSimulator({ port: 0, log: () => undefined });
  try {
    const readOnly = await runConformance({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, mode: 'read-only' });
    progress(`  read-only: ${readOnly.results.length} checks in ${(readOnly.durationMs / 1000).toFixed(1)} s`);
    const full = await runConformance({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, mode: 'full', privateKey: sim.accounts[2]!.privateKey as `0x${string}` });
    progress(`  full: ${full.results.length} checks in ${(full.durationMs / 1000).toFixed(1)} s`);
    return { readOnly: summary(readOnly), full: summary(full) };
  } finally {
    await sim.stop();
  }
}
