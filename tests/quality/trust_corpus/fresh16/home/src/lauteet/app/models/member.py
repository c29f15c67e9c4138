"""Co-op members."""
from dataclasses import dataclass


@dataclass
class Member:
    id: int
    email: str
