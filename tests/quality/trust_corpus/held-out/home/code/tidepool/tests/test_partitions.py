from tidepool.partitions import daily


def test_daily_partitions_start_in_2024() -> None:
    assert daily.get_first_partition_key() == "2024-01-01"
