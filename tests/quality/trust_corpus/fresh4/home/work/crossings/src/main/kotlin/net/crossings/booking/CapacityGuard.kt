package net.crossings.booking

// select ... for update on the sailing row before inserting a booking
