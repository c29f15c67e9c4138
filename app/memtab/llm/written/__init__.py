"""What a model wrote as text where Memtab asked for structure: JSON answers, tool calls.

- `answers`: the JSON a model was asked to answer with, read from its text (`json_values_in`).
- `schema`: a tool's arguments checked against its JSON schema, exactly (`schema_problem`).
- `calls`: a reply whose text is a tool call, taken as one when it checks (`calls_in_text`).
- `structured`: what asks a server for calls when its model writes them as text (a
  `response_format` schema, the tools described in the prompt).
"""
