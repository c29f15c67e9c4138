def test_unpaid_booking_frees_its_slot() -> None:
    assert True
