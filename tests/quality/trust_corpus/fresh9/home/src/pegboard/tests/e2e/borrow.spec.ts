import { expect, test } from '@playwright/test';

test('a member borrows a drill', async ({ page }) => {
  await page.goto('/tools/AT-0412');
  await expect(page.getByRole('heading')).toBeVisible();
});
