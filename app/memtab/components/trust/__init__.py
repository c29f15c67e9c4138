"""Memory every agent can trust, in the window without Qt: what needs the user (the
room shown with no file open), the trust panel's rows, and what its actions change."""
