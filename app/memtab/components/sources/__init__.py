"""Other agents' memory in the Memory tab: in the scan (`scan`), their tree sections
(`tree`), Copy to… (`copy`) and its undo (`undo`).
"""
