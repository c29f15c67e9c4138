"""The writer in the window without Qt: its supervision, news and status line (`supervision`)
and the Inbox (`inbox_view`)."""
