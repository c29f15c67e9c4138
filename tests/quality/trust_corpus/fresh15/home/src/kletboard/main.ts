// Production entry: starts Fresh and registers the nightly KV export with Deno.cron.
