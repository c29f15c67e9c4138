"""What the offline writer finds in a transcript (goal, directives, findings, fixes, commands) and
the notes it makes of it. No model.
"""
