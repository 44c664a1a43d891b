"""Release day: the draft of a new release's record from what can be read by machine, and the weekly check for one."""
