mod api;
mod config;
mod db;
mod ingest;
mod metrics;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt().with_env_filter("kestrel=info").init();
    let settings = config::load()?;
    let pool = db::connect(&settings).await?;
    let (frames, batches) = ingest::start(&settings, pool.clone()).await?;
    api::serve(&settings, pool, frames, batches).await
}
