"""History and stats: every finished deal stored as a deal record, per-user lists and stats."""
