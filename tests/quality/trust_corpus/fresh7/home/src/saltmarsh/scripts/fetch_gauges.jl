# download gauge series
