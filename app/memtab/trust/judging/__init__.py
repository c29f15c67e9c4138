"""The user's model as the judge of what the words only suspect (issues 83, 94; docs/formats.md
§19.5, §19.6): with a model, the model decides.

The offline engines prove what structure proves (copies, the same text, a key given two
values); what needs meaning — a rewording, one rule said in other words, a disagreement the
words only suspect — is a pair of statements for the model. Each pair is asked one question
(`questions`: the same, a conflict, or neither), many pairs a call, with control pairs every
judge answers alike in each call (`asking`); the answer is kept by content (`kept`), so a
pair is asked once. The pairs come from the findings the words did not prove, the reports'
`candidates`, and a wider net of statements alike in words (`net`), ranked by what makes a
pair likely; `duplicates` and `contradictions` turn the verdicts into each report. A run makes
at most `asking.CALLS_PER_FILE` calls a memory file; what is left waits for the next run,
and the report says how many.
"""
