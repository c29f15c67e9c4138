from app.payments.paytrail import sign


def test_signature_is_hex() -> None:
    assert len(sign("SAIPPUAKAUPPIAS", {"checkout-account": "375917"}, "")) == 64
