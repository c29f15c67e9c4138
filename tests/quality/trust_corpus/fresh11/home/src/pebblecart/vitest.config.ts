// vitest.config.ts
