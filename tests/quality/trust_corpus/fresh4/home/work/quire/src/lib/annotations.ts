// highlights keyed by book id and CFI range
export type Highlight = { bookId: string; cfi: string; note?: string };
