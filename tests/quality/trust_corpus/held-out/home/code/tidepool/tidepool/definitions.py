from dagster import Definitions

from tidepool.assets.appointments import appointments
from tidepool.partitions import daily

defs = Definitions(assets=[appointments])

__all__ = ["daily", "defs"]
