mod commands;

pub fn run() {}
