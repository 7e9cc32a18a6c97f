"""The web server: accounts, friends, hosted and public tables, live play over WebSockets."""
