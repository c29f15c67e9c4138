// tests/unit/cart.spec.ts
