"""The FastAPI application and its routers."""
from fastapi import FastAPI

from app.routers import auth, bookings, slots

app = FastAPI(title="lauteet")
for router in (auth.router, bookings.router, slots.router):
    app.include_router(router, prefix="/api/v1")
