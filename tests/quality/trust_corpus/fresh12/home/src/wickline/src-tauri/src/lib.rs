// wickline
