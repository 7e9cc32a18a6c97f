"""The live channel: what one person does that another person's open pages show (``/ws/me``)."""
