from dagster import AssetExecutionContext, asset

from tidepool.partitions import daily


@asset(partitions_def=daily, owners=["team:data-platform"])
def appointments(context: AssetExecutionContext) -> None:
    """Load one day of the clinic API's appointment export into the warehouse."""
    context.log.info("loading partition %s", context.partition_key)
