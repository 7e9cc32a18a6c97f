"""TwentyNine (29): rules engine, bots, server and browser client."""

__version__ = "0.1.0"
