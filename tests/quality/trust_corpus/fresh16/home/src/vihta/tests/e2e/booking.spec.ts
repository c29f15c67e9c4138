import { test, expect } from "@playwright/test";
test("the widget is on the front page", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button")).toBeVisible();
});
