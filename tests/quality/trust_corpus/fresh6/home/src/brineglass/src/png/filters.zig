// scanline filters
