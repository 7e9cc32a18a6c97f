"""Chat safety: muting a player's chat for yourself, blocking a user, and reports of chat lines
for the admins."""
