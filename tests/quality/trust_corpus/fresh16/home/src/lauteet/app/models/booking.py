"""Bookings of a slot."""
from dataclasses import dataclass


@dataclass
class Booking:
    id: int
    slot_id: int
    people: int
    paid: bool
