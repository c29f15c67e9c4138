// composables/useMoney.ts
