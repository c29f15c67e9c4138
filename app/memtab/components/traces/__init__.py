"""The Traces tab's words and rules without Qt: a dump's texts (`texts`), the dump list's and
the tool calls' rows and the list's filter (`rows`), a dump's header (`header`)."""
