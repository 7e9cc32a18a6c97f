"""Operator tools: `twentynine admin` lists users and tables, sets tiers, disables accounts."""
