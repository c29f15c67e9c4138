"""The slots endpoints."""
from fastapi import APIRouter

router = APIRouter(prefix="/slots")
