from dagster import DailyPartitionsDefinition

daily = DailyPartitionsDefinition(start_date="2024-01-01", timezone="UTC")
