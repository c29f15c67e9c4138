"""Plot list, booking, waitlist pages; htmx partials."""
