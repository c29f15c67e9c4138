"""The sync repository: git run safely, its objects and layout, the scopes it carries, leftovers of
a killed sync.
"""
