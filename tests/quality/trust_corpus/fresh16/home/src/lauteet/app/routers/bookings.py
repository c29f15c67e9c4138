"""The bookings endpoints."""
from fastapi import APIRouter

router = APIRouter(prefix="/bookings")
