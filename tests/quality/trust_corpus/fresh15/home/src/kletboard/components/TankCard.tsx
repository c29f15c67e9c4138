// Server-rendered tank card.
