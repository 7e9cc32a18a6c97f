"""Ratings from rated public tables (openskill's Weng-Lin model, two teams of two), the
leaderboard, and each player's rating history."""
