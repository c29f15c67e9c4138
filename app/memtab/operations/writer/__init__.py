"""The writer in the window, as operations: following the transcripts and running the
writer (`runs`), and the Inbox — what waits, its evidence, a proposal reviewed, a decision
(`inbox`) and the step Edit → Undo takes it back with (`inbox_steps`)."""
