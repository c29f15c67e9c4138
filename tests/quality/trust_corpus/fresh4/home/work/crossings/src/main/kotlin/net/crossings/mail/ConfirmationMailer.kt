package net.crossings.mail

// sends the booking confirmation once per booking id
