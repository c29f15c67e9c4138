"""What a model wrote as text where Memtab asked for structure: JSON answers, tool calls."""
