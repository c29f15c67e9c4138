#![no_std]
#![no_main]

mod board;
mod config;
mod encoding;
mod power;
mod radio;
mod sensors;
mod storage;
mod watchdog;

use embassy_executor::Spawner;
use {defmt_rtt as _, panic_probe as _};

#[embassy_executor::main]
async fn main(spawner: Spawner) {
    let p = board::init();
    spawner.must_spawn(watchdog::pet(p.wdt));
    spawner.must_spawn(radio::advertise());
    sensors::sample_forever(p.sensors).await;
}
