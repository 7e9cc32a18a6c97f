"""Tables: hosted games among friends, public and private tables, live play, chat."""
