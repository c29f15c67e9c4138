// tailwind.config.ts
