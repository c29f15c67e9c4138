"""Settings read from the environment (Doppler injects them in production)."""
from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    database_url: str
    redis_url: str = "redis://localhost:6379/0"
    paytrail_account: str = "375917"
    paytrail_secret: str = "SAIPPUAKAUPPIAS"
    mailgun_api_key: str = ""


settings = Settings()
