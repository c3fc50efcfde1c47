/**
 * JSON that keeps bigints: they are written as `{"$bigint":"123"}` and read back as bigint.
 * Used for the JSON columns of the store, where amounts must survive a restart exactly.
 */
export function stringifyWithBigints(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v));
}

export function parseWithBigints<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === '$bigint') return BigInt((v as { $bigint: string }).$bigint);
    }
    return v;
  }) as T;
}
