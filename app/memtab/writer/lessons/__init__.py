"""The writer's lessons task (docs/formats.md §10.2): a small local model is shown a digest
of the transcript (`digest`) and answers with a short list of lessons, each with a quote
of its evidence; code checks each (`checks`) and writes the kept ones into the notes file
itself (`tools`), so the model never edits the file."""
