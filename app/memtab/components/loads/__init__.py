"""What each agent loads, in the window, without Qt: the loads view's rows, what the
editor's bar says of Claude Code's cut of MEMORY.md, `@`-imports as links (`gui/loads/`,
`gui/editor/` show them)."""
