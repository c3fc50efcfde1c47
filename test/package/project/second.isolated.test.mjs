// A second isolated test file: with files side by side one of the two workers refuses to run.
import { expect, inject, test } from 'vitest';

test('the shared simulator answers', async () => {
  const { baseUrl } = inject('intentsim');
  expect((await fetch(`${baseUrl}/chains`)).status).toBe(200);
});
