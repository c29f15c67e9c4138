import { defineConfig, devices } from "@playwright/test";
export default defineConfig({
  testDir: "tests/e2e",
  projects: [{ name: "phone", use: { ...devices["Pixel 7"] } }],
  webServer: { command: "npm run preview", port: 4321 },
});
