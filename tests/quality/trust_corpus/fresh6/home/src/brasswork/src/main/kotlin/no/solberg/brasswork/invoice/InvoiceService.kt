package no.solberg.brasswork.invoice

class InvoiceService
