"""Background jobs: release unpaid bookings, send reminders."""


async def release_unpaid(ctx: dict) -> int:
    return 0
