"""Accounts: sign-in by email (one-time link or 6-digit code), OpenID Connect, guests, tiers."""
