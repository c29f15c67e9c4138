"""What each agent would load and recall for a prompt, and why each memory is taken or missed
(`memtab recall`, docs/formats.md §17.8); one module an agent, Qt-free."""
