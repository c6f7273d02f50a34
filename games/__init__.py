"""Pure rule engines for the games Coroner moderates: no Discord, no asyncio, no I/O, no wall clock."""
