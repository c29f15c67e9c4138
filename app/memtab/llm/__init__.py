"""Model providers over httpx2 and the tool loop. Imports nothing else of Memtab, no Qt.

- `types`: provider-neutral messages, tool calls, replies, `ProviderError`, `ChatProvider`.
- `anthropic`, `openai`: the two wire formats (`AnthropicProvider`, `OpenAIProvider`).
- `http`: shared timeouts, retries, cancellation and error mapping (`HttpOptions`).
- `loop`: `run_tool_loop`, the step loop the consolidator and the writer run.
- `settings`: which provider/model/key to use (`resolve_provider_settings`, `create_provider`).

Import from the submodules; this package keeps its import cheap (no httpx2 until needed).
"""
