export const pending: unknown[] = [];
