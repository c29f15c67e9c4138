"""The auth endpoints."""
from fastapi import APIRouter

router = APIRouter(prefix="/auth")
