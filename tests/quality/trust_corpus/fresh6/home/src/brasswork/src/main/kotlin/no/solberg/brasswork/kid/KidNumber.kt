package no.solberg.brasswork.kid

object KidNumber
