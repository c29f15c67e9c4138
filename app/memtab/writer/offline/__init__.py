"""What the offline writer finds in a transcript (directives, findings, solved problems,
commands) and the notes it makes of it. No model."""
