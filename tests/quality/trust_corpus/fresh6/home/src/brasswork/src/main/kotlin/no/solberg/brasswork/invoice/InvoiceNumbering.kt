package no.solberg.brasswork.invoice

object InvoiceNumbering
