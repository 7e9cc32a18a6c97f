"""Tournaments: sign-up, pairing, matches at hosted tables, standings and the final ranking."""
