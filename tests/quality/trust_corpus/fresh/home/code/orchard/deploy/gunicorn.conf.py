workers = 5
timeout = 30
