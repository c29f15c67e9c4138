// Dev entry: runs Fresh's dev server, which regenerates fresh.gen.ts.
