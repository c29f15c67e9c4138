"""Tool calls a model wrote as text, and the structured output that asks for them.

- `schema`: a tool's arguments checked against its JSON schema, exactly (`schema_problem`).
- `text`: a reply whose text is a tool call, taken as one when it checks (`calls_in_text`).
- `structured`: what asks a server for calls when its model writes them as text (a
  `response_format` schema, the tools described in the prompt).
"""
