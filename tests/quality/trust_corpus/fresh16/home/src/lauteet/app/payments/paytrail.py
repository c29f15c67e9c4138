"""Paytrail v2: HMAC headers and the payment request."""
import hashlib
import hmac


def sign(secret: str, headers: dict[str, str], body: str) -> str:
    lines = [f"{k}:{headers[k]}" for k in sorted(headers) if k.startswith("checkout-")]
    return hmac.new(secret.encode(), "\n".join([*lines, body]).encode(), hashlib.sha256).hexdigest()
