"""Matchmaking: the "Play rated" queue that seats four people of close rating at a new rated
table, and quick join's preference for tables of players near your rating."""
