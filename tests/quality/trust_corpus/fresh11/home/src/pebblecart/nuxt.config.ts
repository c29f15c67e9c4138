// nuxt.config.ts
