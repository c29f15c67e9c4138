"""What the offline writer finds in a transcript (goal, directives, findings, solved problems,
commands) and the notes it makes of it. No model."""
