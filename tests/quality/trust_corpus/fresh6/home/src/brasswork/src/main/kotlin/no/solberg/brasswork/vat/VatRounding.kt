package no.solberg.brasswork.vat

object VatRounding
