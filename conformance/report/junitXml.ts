export interface JunitCase {
  classname: string;
  name: string;
  timeMs: number;
  failure?: { message: string; detail: string };
  skipped?: string;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A JUnit XML document: one `<testsuite>`, one `<testcase>` per case, with its failure or skip. */
export function junitXml(suiteName: string, cases: readonly JunitCase[]): string {
  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => c.skipped !== undefined && !c.failure).length;
  const lines = cases.map((c) => {
    const open = `  <testcase classname="${escapeXml(c.classname)}" name="${escapeXml(c.name)}" time="${(c.timeMs / 1000).toFixed(3)}"`;
    if (c.failure) return `${open}>\n    <failure message="${escapeXml(c.failure.message)}">${escapeXml(c.failure.detail)}</failure>\n  </testcase>`;
    if (c.skipped !== undefined) return `${open}>\n    <skipped message="${escapeXml(c.skipped)}"/>\n  </testcase>`;
    return `${open}/>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="${escapeXml(suiteName)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}">\n${lines.join('\n')}\n</testsuite>\n`;
}
