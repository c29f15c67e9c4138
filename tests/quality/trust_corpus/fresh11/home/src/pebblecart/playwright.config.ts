// playwright.config.ts
